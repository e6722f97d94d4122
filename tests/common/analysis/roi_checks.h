// The empty-ROI checks of every analysis element: a ROI that clamps to nothing is a settings
// error from the element, whether the pipeline starts with it (EmptyRoiAtStart, a test written
// once) or it is set while playing (each suite's test, made of the checks below).
#pragma once

#include <gst/check/gstcheck.h>

#include <string>
#include <vector>

#include "analysis_stream.h"
#include "common/bus_wait.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "message_log.h"
#include "posted_error.h"
#include "test_frame.h"

namespace analysis_test {

// Fails unless `errors` starts with a GST_LIBRARY_ERROR_SETTINGS error posted by `source`
// (an `element_name` element).
void ExpectSettingsError(const std::vector<PostedError>& errors, const std::string& source,
                         const char* element_name, const std::string& where);

// Runs `description` and returns the errors posted, after it stopped; `*message_count`: the
// element's messages that `Log` saw.
template <typename Log>
std::vector<PostedError> RunPipelineErrors(const std::string& description, size_t* message_count,
                                           int timeout_ms) {
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  Log log(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  fail_unless(log.WaitForErrorOrEos(timeout_ms), "%s: neither EOS nor an error", description.c_str());
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  *message_count = log.Count();
  return log.Errors();
}

// A pipeline (of the case's `empty_roi_caps_format` frames) starting with a ROI that clamps to
// nothing stops with a settings error and posts no analysis.
template <const auto& kCase>
struct EmptyRoiAtStart {
  static constexpr const char* kName = "test_empty_roi_at_start";
  static void Run() {
    constexpr int kTimeoutMs = 30000;
    vktest::RequirePhysicalDevice();
    for (const char* roi : {"roi-x=32", "roi-y=16 roi-height=4", "roi-x=10 roi-y=1000 roi-width=1"}) {
      const std::string description = std::string("videotestsrc num-buffers=3 ! video/x-raw,format=") +
                                      kCase.empty_roi_caps_format + ",width=32,height=16 ! " + kCase.element +
                                      " name=analyse " + roi + " ! fakesink";
      size_t messages = 0;
      ExpectSettingsError(RunPipelineErrors<MessageLog<kCase>>(description, &messages, kTimeoutMs), "analyse",
                          kCase.element, description);
      fail_unless(messages == 0, "%s: %zu %s messages for an empty ROI", description.c_str(), messages,
                  kCase.element);
    }
  }
};

// Pushes `frame` into `stream`, whose ROI now clamps to nothing: the push fails (not as a flush)
// and the element posts a settings error.
template <const auto& kCase>
void ExpectEmptyRoiPushFails(AnalysisStream<kCase>& stream, const TestFrame& frame, const std::string& name) {
  const GstFlowReturn flow = stream.Push(frame);
  fail_unless(flow < GST_FLOW_OK && flow != GST_FLOW_FLUSHING,
              "%s: pushing a frame with an empty ROI returned %s", vktest::WithSeed(name).c_str(),
              gst_flow_get_name(flow));
  ExpectSettingsError(stream.log().Errors(), GST_OBJECT_NAME(stream.element()), kCase.element, name);
}

// The stream's log holds one message for each of the 3 good frames pushed first, each matching
// its frame.
template <const auto& kCase>
void ExpectGoodFramesMessages(const AnalysisStream<kCase>& stream, const std::string& name) {
  const auto messages = stream.log().Messages();
  fail_unless(messages.size() == 3, "%s: %zu %s messages for 3 good frames", vktest::WithSeed(name).c_str(),
              messages.size(), kCase.element);
  for (size_t i = 0; i < messages.size(); ++i) {
    kCase.expect_message_matches(messages[i], stream.pushed()[i],
                                 name + ": " + stream.pushed()[i].description);
  }
}

}  // namespace analysis_test
