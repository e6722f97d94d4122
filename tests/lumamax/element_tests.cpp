// The element as applications see it: registration, pad templates, the property set of the
// specification, and a real pipeline naming its device.
#include <string>

#include "common/analysis/element_checks.h"
#include "common/bus_wait.h"
#include "common/property_checks.h"
#include "common/vktest.h"
#include "message_log.h"
#include "tcases.h"

namespace lumamax_test {
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
  ExpectPadTemplates("lumamax");
}
GST_END_TEST;

GST_START_TEST(test_property_specs) {
  GstElement* element = gst_element_factory_make("lumamax", nullptr);
  fail_unless(element != nullptr, "cannot create lumamax");

  ExpectPostMessagesSpec(element);

  ExpectUint(element, "count", 1, 64, 1);
  ExpectUint(element, "min-distance", 0, 0, 0);
  // peak-threshold: luma as the messages report it, 0..1; 0 (every peak) by default.
  GParamSpec* threshold = vktest::FindProperty(element, "peak-threshold", G_TYPE_DOUBLE);
  vktest::ExpectReadWrite(threshold);
  const GParamSpecDouble* range = G_PARAM_SPEC_DOUBLE(threshold);
  fail_unless(range->minimum == 0.0 && range->maximum == 1.0 && range->default_value == 0.0,
              "peak-threshold: range %g..%g, default %g", range->minimum, range->maximum,
              range->default_value);
  fail_unless(threshold->flags & GST_PARAM_MUTABLE_PLAYING, "peak-threshold cannot change while playing");
  ExpectRoiSpecs(element);

  ExpectMatrixAndDeviceSpecs(element);
  gst_object_unref(element);
}
GST_END_TEST;

// A real pipeline with the default properties: frames flow to EOS, one message per frame, and
// the element names the device it ran on.
GST_START_TEST(test_pipeline_and_device_name) {
  vktest::RequirePhysicalDevice();
  GstElement* pipeline = vktest::ParsePipeline(
      "videotestsrc num-buffers=3 ! video/x-raw,width=16,height=8 ! lumamax name=analyse ! "
      "fakesink");
  MessageLog log(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  fail_unless(log.WaitForErrorOrEos(kTimeoutMs), "no EOS within %d ms", kTimeoutMs);
  const std::vector<PostedError> errors = log.Errors();
  fail_unless(errors.empty(), "pipeline error: %s", errors.empty() ? "" : errors.front().description.c_str());
  fail_unless_equals_int(log.Count(), 3);

  ExpectKnownDeviceName(pipeline, "analyse");
  fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  gst_object_unref(pipeline);
}
GST_END_TEST;

TCase* ElementTCase() {
  TCase* tcase = vktest::NewTCase("element", 60);
  tcase_add_test(tcase, test_pad_templates);
  tcase_add_test(tcase, test_property_specs);
  tcase_add_test(tcase, test_pipeline_and_device_name);
  return tcase;
}

}  // namespace lumamax_test
