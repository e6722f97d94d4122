// What an analysis test remembers of each frame it pushed: enough to compute the message the
// specification requires for it and to say which frame a failure is about.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <optional>
#include <string>

namespace analysis_test {

// The element-independent part, filled by HarnessDriver.
struct FrameRecord {
  std::string description;  // "RGBA 97x61 system stride=row+7 offset=5 frame#3 <params>, seed=..."
  GstVideoFormat format = GST_VIDEO_FORMAT_UNKNOWN;
  GstClockTime pts = GST_CLOCK_TIME_NONE;
  GstClockTime duration = GST_CLOCK_TIME_NONE;
  GstSegment segment;         // in force when the frame was pushed
  bool post_messages = true;  // the property when the frame was pushed
  GstFlowReturn flow = GST_FLOW_OK;
  std::string output_problem;  // why the output is not the input, bit for bit ("" if it is)
};

template <typename Params, typename Result>
struct PushedFrame : FrameRecord {
  Params params;
  std::optional<Result> expected;  // nullopt: the ROI is empty for this frame

  // Whether the specification requires a message for this frame.
  bool WantsMessage() const { return post_messages && expected.has_value() && flow == GST_FLOW_OK; }
};

}  // namespace analysis_test
