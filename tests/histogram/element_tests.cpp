// The element as applications see it: registration, pad templates, the property set of the
// specification, and a real pipeline naming its device.
#include <string>

#include "common/analysis/element_checks.h"
#include "common/bus_wait.h"
#include "common/property_checks.h"
#include "common/vktest.h"
#include "message_log.h"
#include "tcases.h"

namespace histogram_test {
namespace {

using analysis_test::ExpectKnownDeviceName;
using analysis_test::ExpectMatrixAndDeviceSpecs;
using analysis_test::ExpectPadTemplates;
using analysis_test::ExpectPostMessagesSpec;
using analysis_test::ExpectRoiSpecs;
using analysis_test::ExpectUint;

constexpr int kTimeoutMs = 30000;

}  // namespace

GST_START_TEST(test_pad_templates) {
  ExpectPadTemplates("histogram");
}
GST_END_TEST;

GST_START_TEST(test_property_specs) {
  GstElement* element = gst_element_factory_make("histogram", nullptr);
  fail_unless(element != nullptr, "cannot create histogram");

  ExpectPostMessagesSpec(element);

  ExpectUint(element, "bins", 1, 256, 256);
  ExpectRoiSpecs(element);
  // draw switches between passing frames through and drawing into new ones while PLAYING too.
  GParamSpec* draw = vktest::FindProperty(element, "draw", G_TYPE_BOOLEAN);
  vktest::ExpectReadWrite(draw);
  fail_unless(!G_PARAM_SPEC_BOOLEAN(draw)->default_value, "\"draw\" is on by default");
  fail_unless(draw->flags & GST_PARAM_MUTABLE_PLAYING, "\"draw\" cannot change while PLAYING");

  ExpectMatrixAndDeviceSpecs(element);
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

  ExpectKnownDeviceName(pipeline, "analyse");
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
