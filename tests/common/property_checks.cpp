#include "property_checks.h"

#include <gst/check/gstcheck.h>

namespace vktest {

GParamSpec* FindProperty(GstElement* element, const char* name, GType value_type) {
  GParamSpec* spec = g_object_class_find_property(G_OBJECT_GET_CLASS(element), name);
  fail_unless(spec != nullptr, "%s has no \"%s\" property",
              gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(gst_element_get_factory(element))), name);
  fail_unless(
      G_PARAM_SPEC_VALUE_TYPE(spec) == value_type || g_type_is_a(G_PARAM_SPEC_VALUE_TYPE(spec), value_type),
      "\"%s\" holds %s, not %s", name, g_type_name(G_PARAM_SPEC_VALUE_TYPE(spec)), g_type_name(value_type));
  return spec;
}

void ExpectReadWrite(GParamSpec* spec) {
  fail_unless((spec->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE, "\"%s\" is not read-write", spec->name);
}

void ExpectUint(GstElement* element, const char* name, guint min, guint max, guint default_value) {
  GParamSpec* spec = FindProperty(element, name, G_TYPE_UINT);
  ExpectReadWrite(spec);
  const GParamSpecUInt* uint_spec = G_PARAM_SPEC_UINT(spec);
  fail_unless(uint_spec->minimum == min && (max == 0 || uint_spec->maximum == max) &&
                  uint_spec->default_value == default_value,
              "\"%s\": range %u..%u default %u, expected %u..%u default %u", name, uint_spec->minimum,
              uint_spec->maximum, uint_spec->default_value, min, max, default_value);
}

}  // namespace vktest
