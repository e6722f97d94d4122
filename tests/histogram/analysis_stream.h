// Drives one histogram element through a GstHarness: input caps follow the frames pushed, every
// buffer that comes out is compared with what went in right away, the reference histograms of
// each frame are computed from the very buffer pushed, and the element's messages are logged
// from its own bus.
#pragma once

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/upstream_allocation.h"
#include "frames.h"
#include "message_log.h"
#include "reference/histogram_ref.h"

namespace histogram_test {

struct PushedFrame {
  std::string description;  // "RGBA 97x61 system stride=row+7 offset=5 frame#3 bins=..."
  GstVideoFormat format;
  GstClockTime pts;
  GstClockTime duration;
  GstSegment segment;  // in force when the frame was pushed
  histogram_ref::Params params;
  bool post_messages;                             // the property when the frame was pushed
  std::optional<histogram_ref::Result> expected;  // nullopt: the ROI is empty for this frame
  GstFlowReturn flow;
  std::string output_problem;  // why the output is not the input, bit for bit ("" if it is)

  // Whether the specification requires a message for this frame.
  bool WantsMessage() const { return post_messages && expected.has_value() && flow == GST_FLOW_OK; }
};

class AnalysisStream {
 public:
  static constexpr GstClockTime kFrameDuration = GST_SECOND / 30;

  // A new histogram element with `params` (and post-messages), in a harness, PLAYING.
  explicit AnalysisStream(const histogram_ref::Params& params, bool post_messages = true);
  ~AnalysisStream();
  AnalysisStream(const AnalysisStream&) = delete;
  AnalysisStream& operator=(const AnalysisStream&) = delete;

  // Change the element's properties while it plays; they apply from the next frame.
  void SetParams(const histogram_ref::Params& params);
  void SetPostMessages(bool post_messages);

  // Sends `segment` (TIME) before the next frame; frames are then timestamped from its start.
  void SetSegment(const GstSegment& segment);

  // Sends new caps when format or size change, then the frame in a buffer built as `placement`
  // says, timestamped in sequence. Returns the flow.
  GstFlowReturn Push(const TestFrame& frame, const Placement& placement = {});

  // Sends EOS; true once it came out of the element.
  bool EndOfStream();

  // FLUSH_START, FLUSH_STOP and a new segment, as a seeking upstream does.
  void Flush();
  // The two halves of Flush(), for flushing while another thread pushes: FLUSH_START may come
  // from any thread, FLUSH_STOP (and the segment) once the pushing thread stopped.
  void FlushStart();
  void FlushStop();

  const std::vector<PushedFrame>& pushed() const { return pushed_; }
  const MessageLog& log() const { return *log_; }
  GstElement* element() const { return harness_->element; }
  // "proposed-pool" or "proposed-allocator": what kProposed placements really used.
  std::string ProposedKind() const;

 private:
  void SendCaps(const TestFrame& frame);
  void SendSegment();
  GstBuffer* NewBuffer(const TestFrame& frame, const Placement& placement);
  std::string CheckOutput(const std::vector<uint8_t>& input_bytes, const PushedFrame& pushed);

  GstHarness* harness_ = nullptr;
  GstBus* bus_ = nullptr;
  std::unique_ptr<MessageLog> log_;
  std::unique_ptr<vktest::UpstreamAllocation> allocation_;
  GstVideoInfo info_;
  bool have_caps_ = false;
  GstSegment segment_;
  bool segment_pending_ = true;
  GstClockTime next_pts_;
  histogram_ref::Params params_;
  bool post_messages_;
  std::vector<PushedFrame> pushed_;
};

// "bins=64 matrix=bt709 roi=0,0,0x0", for failure messages.
std::string DescribeParams(const histogram_ref::Params& params);

// Sets the element's properties from `params`.
void ApplyParams(GstElement* element, const histogram_ref::Params& params);

}  // namespace histogram_test
