// The element as a user meets it: pad templates, property defaults, and a bad or missing table
// at start failing the pipeline with a RESOURCE error that names the file (and .cube line).
#include <string>

#include "bad_files.h"
#include "common/caps_formats.h"
#include "common/temp_dir.h"
#include "common/vktest.h"
#include "frames.h"
#include "tables.h"
#include "tcases.h"

namespace lut_test {

using vktest::TempDir;
namespace {

GST_START_TEST(test_pad_templates) {
  GstElementFactory* factory = gst_element_factory_find("lut");
  fail_unless(factory != nullptr, "no lut element: is the plugin built and found?");
  for (const GList* l = gst_element_factory_get_static_pad_templates(factory); l; l = l->next) {
    auto* templ = static_cast<GstStaticPadTemplate*>(l->data);
    GstCaps* caps = gst_static_pad_template_get_caps(templ);
    const auto formats = vktest::FormatsOf(caps);
    std::set<std::string> expected = vktest::NamesOf(kFormats);
    expected.merge(vktest::NamesOf(kDeepFormats));
    fail_unless(formats == expected, "%s template formats %s", templ->name_template,
                vktest::JoinNames(formats).c_str());
    gst_caps_unref(caps);
  }
  gst_object_unref(factory);
}
GST_END_TEST;

GST_START_TEST(test_property_defaults) {
  GstElement* lut = gst_element_factory_make("lut", nullptr);
  gchar* location = nullptr;
  gdouble intensity = 0;
  gint interpolation = -1;
  g_object_get(lut, "location", &location, "intensity", &intensity, "interpolation", &interpolation, nullptr);
  fail_unless(location == nullptr);
  fail_unless(intensity == 1.0);
  GEnumValue* value = g_enum_get_value(
      G_ENUM_CLASS(g_type_class_peek(
          G_PARAM_SPEC_VALUE_TYPE(g_object_class_find_property(G_OBJECT_GET_CLASS(lut), "interpolation")))),
      interpolation);
  fail_unless(value && std::string(value->value_nick) == "tetrahedral", "default interpolation %d",
              interpolation);
  // png-kind: auto by default, and the three kinds by these nicks.
  GParamSpec* png_kind = g_object_class_find_property(G_OBJECT_GET_CLASS(lut), "png-kind");
  fail_unless(png_kind && G_IS_PARAM_SPEC_ENUM(png_kind) &&
                  (png_kind->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE &&
                  (png_kind->flags & GST_PARAM_MUTABLE_PLAYING),
              "png-kind: no read-write enum mutable while playing");
  GEnumClass* kinds = G_PARAM_SPEC_ENUM(png_kind)->enum_class;
  fail_unless(std::string(G_ENUM_CLASS_TYPE_NAME(kinds)) == "GstLutPngKind" && kinds->n_values == 3,
              "png-kind type %s", G_ENUM_CLASS_TYPE_NAME(kinds));
  for (const char* nick : {"auto", "lookup", "hald"})
    fail_unless(g_enum_get_value_by_nick(kinds, nick) != nullptr, "png-kind has no '%s'", nick);
  gint kind = -1;
  g_object_get(lut, "png-kind", &kind, nullptr);
  fail_unless(std::string(g_enum_get_value(kinds, kind)->value_nick) == "auto", "default png-kind %d", kind);
  gst_object_unref(lut);
}
GST_END_TEST;

// A pipeline with `location` fails to start with exactly `message`.
void ExpectStartError(const std::string& location, const std::string& message) {
  const std::string error = StartErrorMessage(location);
  fail_unless(message == error, "%s: error '%s', expected '%s'", location.c_str(), error.c_str(),
              message.c_str());
}

GST_START_TEST(test_bad_files_at_start) {
  TempDir dir;
  const std::string missing = dir.Path("missing.cube");
  ExpectStartError(missing, "cannot open " + missing + ": No such file or directory");
  const std::string text = dir.Write("table.txt", "LUT_3D_SIZE 2\n");
  ExpectStartError(text, text + ": unknown lookup table format '.txt': need .cube or .png");
  const std::string size = dir.Write("size.cube", "# big\nTITLE \"t\"\nLUT_3D_SIZE 300\n");
  ExpectStartError(size, "LUT_3D_SIZE 300 at line 3 of " + size + ": must be 2..256");
  const std::string truncated = dir.Write("short.cube", "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n");
  ExpectStartError(truncated,
                   truncated + " is truncated: 2 of the 8 table rows of LUT_3D_SIZE 2 at its end (line 3)");
  const std::string nan = dir.Write("nan.cube", "LUT_1D_SIZE 2\n0 0 0\n1 nan 1\n");
  ExpectStartError(nan, "line 3 of " + nan + ": value 'nan' is not a finite number");
  const std::string png = dir.Path("small.png");
  WritePng(png, 100, 50, 8, std::vector<uint16_t>(100 * 50 * 3, 7));
  ExpectStartError(png, png +
                            " is 100x50: a HALD CLUT of level L must be L³xL³ pixels (8x8, 27x27, 64x64, ... "
                            "4096x4096 for L = 2..16)");
}
GST_END_TEST;

GST_START_TEST(test_no_location) {
  ExpectStartError("", "no lookup table: set the location property to a .cube or .png file");
}
GST_END_TEST;

}  // namespace

TCase* ElementTCase() {
  TCase* tc = vktest::NewTCase("element", 120);
  tcase_add_test(tc, test_pad_templates);
  tcase_add_test(tc, test_property_defaults);
  tcase_add_test(tc, test_bad_files_at_start);
  tcase_add_test(tc, test_no_location);
  return tc;
}

}  // namespace lut_test
