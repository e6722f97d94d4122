// The empty-ROI checks of every analysis element: a ROI that clamps to nothing is a settings
// error from the element, whether the pipeline starts with it or it is set while playing.
#pragma once

#include <gst/check/gstcheck.h>

#include <string>
#include <vector>

#include "common/bus_wait.h"
#include "common/test_seed.h"
#include "common/vktest.h"
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

// Pipelines of `element_name` on `caps_format` frames starting with ROIs that clamp to nothing
// stop with a settings error and post no message.
template <typename Log>
void ExpectEmptyRoiAtStartFails(const char* element_name, const char* caps_format, int timeout_ms) {
  vktest::RequirePhysicalDevice();
  for (const char* roi : {"roi-x=32", "roi-y=16 roi-height=4", "roi-x=10 roi-y=1000 roi-width=1"}) {
    const std::string description = std::string("videotestsrc num-buffers=3 ! video/x-raw,format=") +
                                    caps_format + ",width=32,height=16 ! " + element_name + " name=analyse " +
                                    roi + " ! fakesink";
    size_t messages = 0;
    ExpectSettingsError(RunPipelineErrors<Log>(description, &messages, timeout_ms), "analyse", element_name,
                        description);
    fail_unless(messages == 0, "%s: %zu %s messages for an empty ROI", description.c_str(), messages,
                element_name);
  }
}

// Pushes `frame` into `stream`, whose ROI now clamps to nothing: the push fails (not as a flush)
// and the element posts a settings error.
template <typename Stream>
void ExpectEmptyRoiPushFails(Stream& stream, const TestFrame& frame, const char* element_name,
                             const std::string& name) {
  const GstFlowReturn flow = stream.Push(frame);
  fail_unless(flow < GST_FLOW_OK && flow != GST_FLOW_FLUSHING,
              "%s: pushing a frame with an empty ROI returned %s", vktest::WithSeed(name).c_str(),
              gst_flow_get_name(flow));
  ExpectSettingsError(stream.log().Errors(), GST_OBJECT_NAME(stream.element()), element_name, name);
}

// The stream's log holds one message for each of the 3 good frames pushed first, each matching
// its frame as `expect_match(message, frame, where)` says.
template <typename Stream, typename ExpectMatch>
void ExpectGoodFramesMessages(const Stream& stream, const char* element_name, const std::string& name,
                              ExpectMatch expect_match) {
  const auto messages = stream.log().Messages();
  fail_unless(messages.size() == 3, "%s: %zu %s messages for 3 good frames", vktest::WithSeed(name).c_str(),
              messages.size(), element_name);
  for (size_t i = 0; i < messages.size(); ++i) {
    expect_match(messages[i], stream.pushed()[i], name + ": " + stream.pushed()[i].description);
  }
}

}  // namespace analysis_test
