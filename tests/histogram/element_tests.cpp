// The element as applications see it: registration, pad templates, the property set of the
// specification, and a real pipeline naming its device.
#include <set>
#include <string>

#include "common/bus_wait.h"
#include "common/caps_formats.h"
#include "common/vktest.h"
#include "formats.h"
#include "message_log.h"
#include "tcases.h"

namespace histogram_test {
namespace {

constexpr int kTimeoutMs = 30000;

GParamSpec* FindProperty(GstElement* element, const char* name, GType value_type) {
  GParamSpec* spec = g_object_class_find_property(G_OBJECT_GET_CLASS(element), name);
  fail_unless(spec != nullptr, "histogram has no \"%s\" property", name);
  fail_unless(
      G_PARAM_SPEC_VALUE_TYPE(spec) == value_type || g_type_is_a(G_PARAM_SPEC_VALUE_TYPE(spec), value_type),
      "\"%s\" holds %s, not %s", name, g_type_name(G_PARAM_SPEC_VALUE_TYPE(spec)), g_type_name(value_type));
  return spec;
}

void ExpectReadWrite(GParamSpec* spec) {
  fail_unless((spec->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE, "\"%s\" is not read-write", spec->name);
}

// `max` 0: the specification leaves the maximum open.
void ExpectUint(GstElement* element, const char* name, guint min, guint max, guint default_value) {
  GParamSpec* spec = FindProperty(element, name, G_TYPE_UINT);
  ExpectReadWrite(spec);
  const GParamSpecUInt* uint_spec = G_PARAM_SPEC_UINT(spec);
  fail_unless(uint_spec->minimum == min && (max == 0 || uint_spec->maximum == max) &&
                  uint_spec->default_value == default_value,
              "\"%s\": range %u..%u default %u, expected %u..%u default %u", name, uint_spec->minimum,
              uint_spec->maximum, uint_spec->default_value, min, max, default_value);
}

}  // namespace

GST_START_TEST(test_pad_templates) {
  GstElementFactory* factory = gst_element_factory_find("histogram");
  fail_unless(factory != nullptr, "histogram is not registered (GST_PLUGIN_PATH?)");
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
GST_END_TEST;

GST_START_TEST(test_property_specs) {
  GstElement* element = gst_element_factory_make("histogram", nullptr);
  fail_unless(element != nullptr, "cannot create histogram");

  GParamSpec* post = FindProperty(element, "post-messages", G_TYPE_BOOLEAN);
  ExpectReadWrite(post);
  fail_unless(G_PARAM_SPEC_BOOLEAN(post)->default_value == TRUE, "post-messages defaults to FALSE");

  ExpectUint(element, "bins", 1, 256, 256);
  for (const char* name : {"roi-x", "roi-y", "roi-width", "roi-height"}) {
    ExpectUint(element, name, 0, 0, 0);
  }

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
  gst_object_unref(element);
}
GST_END_TEST;

// What is set is what reads back, at the ends of the ranges too (the specification leaves the
// roi-* maximum open; G_MAXINT is as far as lumamax goes).
GST_START_TEST(test_properties_read_back) {
  GstElement* element = gst_element_factory_make("histogram", nullptr);
  fail_unless(element != nullptr, "cannot create histogram");
  for (guint bins : {1u, 10u, 256u}) {
    g_object_set(element, "bins", bins, nullptr);
    guint got = 0;
    g_object_get(element, "bins", &got, nullptr);
    fail_unless_equals_int(got, bins);
  }
  const struct {
    const char* name;
    guint value;
  } rois[] = {{"roi-x", 3}, {"roi-y", 5}, {"roi-width", 7}, {"roi-height", G_MAXINT}};
  for (const auto& roi : rois) g_object_set(element, roi.name, roi.value, nullptr);
  for (const auto& roi : rois) {
    guint got = 0;
    g_object_get(element, roi.name, &got, nullptr);
    fail_unless(got == roi.value, "%s reads back %u, set %u", roi.name, got, roi.value);
  }
  for (const char* nick : {"bt601", "bt2020", "bt709"}) {
    gst_util_set_object_arg(G_OBJECT(element), "matrix", nick);
    GValue value = G_VALUE_INIT;
    g_value_init(
        &value, G_PARAM_SPEC_VALUE_TYPE(g_object_class_find_property(G_OBJECT_GET_CLASS(element), "matrix")));
    g_object_get_property(G_OBJECT(element), "matrix", &value);
    const GEnumValue* got =
        g_enum_get_value(G_ENUM_CLASS(g_type_class_peek(G_VALUE_TYPE(&value))), g_value_get_enum(&value));
    fail_unless(got != nullptr && g_str_equal(got->value_nick, nick), "matrix reads back %s, set %s",
                got != nullptr ? got->value_nick : "(invalid)", nick);
    g_value_unset(&value);
  }
  g_object_set(element, "post-messages", FALSE, nullptr);
  gboolean post = TRUE;
  g_object_get(element, "post-messages", &post, nullptr);
  fail_unless(!post, "post-messages reads back TRUE, set FALSE");
  gst_object_unref(element);
}
GST_END_TEST;

// A real pipeline with the default properties: frames flow to EOS, one message per frame with
// 16x8 pixels, and the element names the device it ran on.
GST_START_TEST(test_pipeline_and_device_name) {
  vktest::RequirePhysicalDevice();
  GstElement* pipeline = vktest::ParsePipeline(
      "videotestsrc num-buffers=3 ! video/x-raw,width=16,height=8 ! histogram name=analyse ! "
      "fakesink");
  MessageLog log(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  fail_unless(log.WaitForErrorOrEos(kTimeoutMs), "no EOS within %d ms", kTimeoutMs);
  const std::vector<PostedError> errors = log.Errors();
  fail_unless(errors.empty(), "pipeline error: %s", errors.empty() ? "" : errors.front().description.c_str());
  const std::vector<HistogramMessage> messages = log.Messages();
  fail_unless_equals_int(messages.size(), 3);
  for (const HistogramMessage& message : messages) {
    fail_unless(message.problem.empty() && message.pixels == 16 * 8 && message.bins == 256,
                "unexpected message: %s %s", message.problem.c_str(), message.text.c_str());
  }

  GstElement* analyse = gst_bin_get_by_name(GST_BIN(pipeline), "analyse");
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
  fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  gst_object_unref(pipeline);
}
GST_END_TEST;

TCase* ElementTCase() {
  TCase* tcase = vktest::NewTCase("element", 60);
  tcase_add_test(tcase, test_pad_templates);
  tcase_add_test(tcase, test_property_specs);
  tcase_add_test(tcase, test_properties_read_back);
  tcase_add_test(tcase, test_pipeline_and_device_name);
  return tcase;
}

}  // namespace histogram_test
