#include "element_checks.h"

#include <gst/check/gstcheck.h>

#include <set>
#include <string>

#include "common/caps_formats.h"
#include "common/vktest.h"
#include "formats.h"

namespace analysis_test {

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

void ExpectPadTemplates(const char* element_name) {
  GstElementFactory* factory = gst_element_factory_find(element_name);
  fail_unless(factory != nullptr, "%s is not registered (GST_PLUGIN_PATH?)", element_name);
  const std::set<std::string> expected = vktest::NamesOf(kFormats);
  int seen = 0;
  for (const GList* l = gst_element_factory_get_static_pad_templates(factory); l; l = l->next) {
    auto* templ = static_cast<GstStaticPadTemplate*>(l->data);
    GstCaps* caps = gst_static_pad_template_get_caps(templ);
    const std::set<std::string> listed = vktest::FormatsOf(caps);
    gst_caps_unref(caps);
    fail_unless(listed == expected, "%s template lists {%s}, expected {%s}", templ->name_template,
                vktest::JoinNames(listed).c_str(), vktest::JoinNames(expected).c_str());
    ++seen;
  }
  fail_unless_equals_int(seen, 2);
  gst_object_unref(factory);
}

void ExpectPostMessagesSpec(GstElement* element) {
  GParamSpec* post = FindProperty(element, "post-messages", G_TYPE_BOOLEAN);
  ExpectReadWrite(post);
  fail_unless(G_PARAM_SPEC_BOOLEAN(post)->default_value == TRUE, "post-messages defaults to FALSE");
}

void ExpectRoiSpecs(GstElement* element) {
  for (const char* name : {"roi-x", "roi-y", "roi-width", "roi-height"}) {
    ExpectUint(element, name, 0, 0, 0);
  }
}

void ExpectMatrixAndDeviceSpecs(GstElement* element) {
  GParamSpec* matrix = FindProperty(element, "matrix", G_TYPE_ENUM);
  ExpectReadWrite(matrix);
  GEnumClass* enum_class = G_PARAM_SPEC_ENUM(matrix)->enum_class;
  for (const char* nick : {"bt601", "bt709", "bt2020"}) {
    fail_unless(g_enum_get_value_by_nick(enum_class, nick) != nullptr, "matrix has no value with nick %s",
                nick);
  }
  fail_unless_equals_int(enum_class->n_values, 3);
  const GEnumValue* default_value = g_enum_get_value(enum_class, G_PARAM_SPEC_ENUM(matrix)->default_value);
  fail_unless(default_value != nullptr && g_str_equal(default_value->value_nick, "bt709"),
              "matrix does not default to bt709");

  GParamSpec* device = FindProperty(element, "device", G_TYPE_INT);
  ExpectReadWrite(device);
  fail_unless_equals_int(G_PARAM_SPEC_INT(device)->default_value, -1);
  GParamSpec* name = FindProperty(element, "device-name", G_TYPE_STRING);
  fail_unless((name->flags & G_PARAM_READABLE) != 0 && (name->flags & G_PARAM_WRITABLE) == 0,
              "\"device-name\" must be read-only");
}

void ExpectKnownDeviceName(GstElement* pipeline, const char* name) {
  GstElement* analyse = gst_bin_get_by_name(GST_BIN(pipeline), name);
  gchar* device_name = nullptr;
  g_object_get(analyse, "device-name", &device_name, nullptr);
  bool known = false;
  for (const std::string& device : vktest::PhysicalDeviceNames()) {
    known |= device_name != nullptr && device == device_name;
  }
  fail_unless(known, "device-name '%s' is not a device of this machine",
              device_name != nullptr ? device_name : "(null)");
  g_free(device_name);
  gst_object_unref(analyse);
}

}  // namespace analysis_test
