#include "element_checks.h"

#include <gst/check/gstcheck.h>

#include <set>
#include <string>

#include "common/caps_formats.h"
#include "common/property_checks.h"
#include "common/vktest.h"
#include "formats.h"

namespace analysis_test {

using vktest::ExpectReadWrite;
using vktest::ExpectUint;
using vktest::FindProperty;

void ExpectPadTemplates(const char* element_name, bool deep) {
  std::set<std::string> names = vktest::NamesOf(kFormats);
  if (deep)
    for (GstVideoFormat format : kDeepFormats) names.insert(gst_video_format_to_string(format));
  vktest::ExpectTemplateFormats(element_name, names);
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
