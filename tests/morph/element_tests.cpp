// The element as applications and gst-inspect-1.0 see it: registration, pad templates, properties
// with their defaults, ranges and nicks, and even mask sizes refused.
#include <set>
#include <string>

#include "common/caps_formats.h"
#include "common/vktest.h"
#include "formats.h"
#include "tcases.h"

namespace morph_test {
namespace {

GParamSpec* FindProperty(GstElement* element, const char* name) {
  GParamSpec* spec = g_object_class_find_property(G_OBJECT_GET_CLASS(element), name);
  fail_unless(spec != nullptr, "morph has no '%s' property", name);
  fail_unless((spec->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE, "'%s' is not read-write", name);
  fail_unless((spec->flags & GST_PARAM_MUTABLE_PLAYING) != 0, "'%s' is not changeable while PLAYING", name);
  return spec;
}

void ExpectEnum(GstElement* element, const char* name, const std::set<std::string>& nicks,
                const char* fallback) {
  GParamSpec* spec = FindProperty(element, name);
  fail_unless(G_IS_PARAM_SPEC_ENUM(spec), "'%s' is not an enum", name);
  GEnumClass* enum_class = G_PARAM_SPEC_ENUM(spec)->enum_class;
  std::set<std::string> listed;
  for (guint i = 0; i < enum_class->n_values; ++i) listed.insert(enum_class->values[i].value_nick);
  fail_unless(listed == nicks, "'%s' has nicks {%s}", name, vktest::JoinNames(listed).c_str());
  GEnumValue* value = g_enum_get_value(enum_class, G_PARAM_SPEC_ENUM(spec)->default_value);
  fail_unless(value != nullptr && std::string(value->value_nick) == fallback,
              "'%s' defaults to %s, expected %s", name, value ? value->value_nick : "?", fallback);
}

void ExpectUint(GstElement* element, const char* name, guint min, guint max, guint fallback) {
  GParamSpec* spec = FindProperty(element, name);
  fail_unless(G_IS_PARAM_SPEC_UINT(spec), "'%s' is not a guint", name);
  const GParamSpecUInt* u = G_PARAM_SPEC_UINT(spec);
  fail_unless(u->minimum == min && u->maximum == max && u->default_value == fallback,
              "'%s' is %u..%u default %u, expected %u..%u default %u", name, u->minimum, u->maximum,
              u->default_value, min, max, fallback);
}

}  // namespace

GST_START_TEST(test_pad_templates) {
  GstElementFactory* factory = gst_element_factory_find("morph");
  fail_unless(factory != nullptr, "morph is not registered (GST_PLUGIN_PATH?)");
  int seen = 0;
  for (const GList* l = gst_element_factory_get_static_pad_templates(factory); l; l = l->next) {
    auto* templ = static_cast<GstStaticPadTemplate*>(l->data);
    GstCaps* caps = gst_static_pad_template_get_caps(templ);
    const std::set<std::string> listed = vktest::FormatsOf(caps);
    gst_caps_unref(caps);
    fail_unless(listed == vktest::NamesOf(kFormats), "%s template lists {%s}", templ->name_template,
                vktest::JoinNames(listed).c_str());
    ++seen;
  }
  fail_unless_equals_int(seen, 2);
  gst_object_unref(factory);
}
GST_END_TEST;

GST_START_TEST(test_properties) {
  GstElement* element = gst_element_factory_make("morph", nullptr);
  fail_unless(element != nullptr);
  ExpectEnum(element, "operation", {"erode", "dilate", "open", "close", "gradient", "tophat", "blackhat"},
             "dilate");
  ExpectEnum(element, "shape", {"rect", "cross", "ellipse"}, "rect");
  ExpectUint(element, "width", 1, 255, 3);
  ExpectUint(element, "height", 1, 255, 3);
  ExpectUint(element, "iterations", 1, 64, 1);
  fail_unless(g_object_class_find_property(G_OBJECT_GET_CLASS(element), "device") != nullptr);
  fail_unless(g_object_class_find_property(G_OBJECT_GET_CLASS(element), "device-name") != nullptr);
  gst_object_unref(element);
}
GST_END_TEST;

// A mask needs a centre pixel: an even width or height is refused with a warning, the previous
// value staying.
GST_START_TEST(test_even_sizes_refused) {
  GstElement* element = gst_element_factory_make("morph", nullptr);
  fail_unless(element != nullptr);
  g_object_set(element, "width", 9u, "height", 5u, nullptr);
  ASSERT_WARNING(g_object_set(element, "width", 4u, nullptr));
  ASSERT_WARNING(g_object_set(element, "height", 254u, nullptr));
  guint width = 0, height = 0;
  g_object_get(element, "width", &width, "height", &height, nullptr);
  fail_unless(width == 9 && height == 5, "after refused even sizes: %ux%u, expected 9x5", width, height);
  g_object_set(element, "width", 255u, "height", 1u, nullptr);
  g_object_get(element, "width", &width, "height", &height, nullptr);
  fail_unless(width == 255 && height == 1, "odd sizes not taken: %ux%u", width, height);
  gst_object_unref(element);
}
GST_END_TEST;

TCase* ElementTCase() {
  TCase* tcase = vktest::NewTCase("element", 60);
  tcase_add_test(tcase, test_pad_templates);
  tcase_add_test(tcase, test_properties);
  tcase_add_test(tcase, test_even_sizes_refused);
  return tcase;
}

}  // namespace morph_test
