// The element tests every analysis element must pass, written once: its pad templates, the
// property specs the specification gives every analysis element (with the element's own, as its
// suite checks them), and a real pipeline with the default properties naming its device. Each
// suite adds them for its element's case (element_case.h) with AddElementTests().
#pragma once

#include <gst/check/gstcheck.h>

#include <string>
#include <vector>

#include "check_test.h"
#include "common/bus_wait.h"
#include "common/vktest.h"
#include "element_case.h"
#include "element_checks.h"
#include "message_log.h"

namespace analysis_test {

template <const auto& kCase>
struct PadTemplates {
  static constexpr const char* kName = "test_pad_templates";
  static void Run() { ExpectPadTemplates(kCase.element, kCase.deep_formats); }
};

// `kExpectOwnSpecs` checks the properties that are the element's own.
template <const auto& kCase, void (*kExpectOwnSpecs)(GstElement* element)>
struct PropertySpecs {
  static constexpr const char* kName = "test_property_specs";
  static void Run() {
    GstElement* element = gst_element_factory_make(kCase.element, nullptr);
    fail_unless(element != nullptr, "cannot create %s", kCase.element);
    ExpectPostMessagesSpec(element);
    ExpectRoiSpecs(element);
    ExpectMatrixAndDeviceSpecs(element);
    kExpectOwnSpecs(element);
    gst_object_unref(element);
  }
};

// A real pipeline with the default properties: 16x8 frames flow to EOS, one message per frame
// (each as `kExpectMessage` says, when given), and the element names the device it ran on.
template <const auto& kCase, void (*kExpectMessage)(const MessageOf<kCase>& message) = nullptr>
struct PipelineAndDeviceName {
  static constexpr const char* kName = "test_pipeline_and_device_name";
  static void Run() {
    constexpr int kTimeoutMs = 30000;
    vktest::RequirePhysicalDevice();
    const std::string description =
        std::string("videotestsrc num-buffers=3 ! video/x-raw,width=16,height=8 ! ") + kCase.element +
        " name=analyse ! fakesink";
    GstElement* pipeline = vktest::ParsePipeline(description.c_str());
    MessageLog<kCase> log(pipeline);
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    fail_unless(log.WaitForErrorOrEos(kTimeoutMs), "no EOS within %d ms", kTimeoutMs);
    const std::vector<PostedError> errors = log.Errors();
    fail_unless(errors.empty(), "pipeline error: %s",
                errors.empty() ? "" : errors.front().description.c_str());
    const std::vector<MessageOf<kCase>> messages = log.Messages();
    fail_unless_equals_int(messages.size(), 3);
    if constexpr (kExpectMessage != nullptr) {
      for (const MessageOf<kCase>& message : messages) kExpectMessage(message);
    }

    ExpectKnownDeviceName(pipeline, "analyse");
    fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
    gst_object_unref(pipeline);
  }
};

// Adds the tests above to `tcase`.
template <const auto& kCase, void (*kExpectOwnSpecs)(GstElement* element),
          void (*kExpectMessage)(const MessageOf<kCase>& message) = nullptr>
void AddElementTests(TCase* tcase) {
  AddCheckTest<PadTemplates<kCase>>(tcase);
  AddCheckTest<PropertySpecs<kCase, kExpectOwnSpecs>>(tcase);
  AddCheckTest<PipelineAndDeviceName<kCase, kExpectMessage>>(tcase);
}

}  // namespace analysis_test
