// The element as applications and gst-inspect-1.0 see it: registration, pad templates, properties
// with their defaults, ranges and nicks, and even mask sizes refused.
#include <set>
#include <string>

#include "common/caps_formats.h"
#include "common/property_checks.h"
#include "common/vktest.h"
#include "formats.h"
#include "tcases.h"

namespace morph_test {
namespace {

// Every morph property may change while PLAYING.
GParamSpec* MutableProperty(GstElement* element, const char* name, GType value_type) {
  GParamSpec* spec = vktest::FindProperty(element, name, value_type);
  vktest::ExpectReadWrite(spec);
  fail_unless((spec->flags & GST_PARAM_MUTABLE_PLAYING) != 0, "'%s' is not changeable while PLAYING", name);
  return spec;
}

void ExpectEnum(GstElement* element, const char* name, const std::set<std::string>& nicks,
                const char* fallback) {
  GParamSpec* spec = MutableProperty(element, name, G_TYPE_ENUM);
  GEnumClass* enum_class = G_PARAM_SPEC_ENUM(spec)->enum_class;
  std::set<std::string> listed;
  for (guint i = 0; i < enum_class->n_values; ++i) listed.insert(enum_class->values[i].value_nick);
  fail_unless(listed == nicks, "'%s' has nicks {%s}", name, vktest::JoinNames(listed).c_str());
  GEnumValue* value = g_enum_get_value(enum_class, G_PARAM_SPEC_ENUM(spec)->default_value);
  fail_unless(value != nullptr && std::string(value->value_nick) == fallback,
              "'%s' defaults to %s, expected %s", name, value ? value->value_nick : "?", fallback);
}

void ExpectSize(GstElement* element, const char* name, guint max, guint fallback) {
  MutableProperty(element, name, G_TYPE_UINT);
  vktest::ExpectUint(element, name, 1, max, fallback);
}

}  // namespace

GST_START_TEST(test_pad_templates) {
  vktest::ExpectTemplateFormats("morph", vktest::NamesOf(kFormats));
}
GST_END_TEST;

GST_START_TEST(test_properties) {
  GstElement* element = gst_element_factory_make("morph", nullptr);
  fail_unless(element != nullptr);
  ExpectEnum(element, "operation", {"erode", "dilate", "open", "close", "gradient", "tophat", "blackhat"},
             "dilate");
  ExpectEnum(element, "shape", {"rect", "cross", "ellipse"}, "rect");
  ExpectSize(element, "width", 255, 3);
  ExpectSize(element, "height", 255, 3);
  ExpectSize(element, "iterations", 64, 1);
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
