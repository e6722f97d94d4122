// The element-independent half of an analysis element's test stream (analysis_stream.h has the
// other): one element in a GstHarness with its own bus; input caps follow the frames pushed,
// buffers come in the placement asked for, and every buffer that comes out is compared with
// what went in right away (an analysis element is a passthrough).
#pragma once

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <memory>
#include <string>

#include "common/input_placement.h"
#include "common/upstream_allocation.h"
#include "frame_buffer.h"
#include "pushed_frame.h"
#include "test_frame.h"

namespace analysis_test {

class HarnessDriver {
 public:
  static constexpr GstClockTime kFrameDuration = GST_SECOND / 30;

  // A new `element_name` element with post-messages set and a bus of its own; Start() puts it
  // into a harness, so that the caller can set properties and watch the bus before it starts.
  HarnessDriver(const char* element_name, bool post_messages);
  ~HarnessDriver();
  HarnessDriver(const HarnessDriver&) = delete;
  HarnessDriver& operator=(const HarnessDriver&) = delete;

  void SetPostMessages(bool post_messages);

  // Sends `segment` (TIME) before the next frame; frames are then timestamped from its start.
  void SetSegment(const GstSegment& segment);

  // Sends a serialized custom downstream event (which must make the element post pending
  // messages).
  void PushSerializedEvent();

  // Sends EOS; true once it came out of the element.
  bool EndOfStream();

  // FLUSH_START, FLUSH_STOP and a new segment, as a seeking upstream does.
  void Flush() {
    FlushStart();
    FlushStop();
  }
  // The two halves of Flush(), for flushing while another thread pushes: FLUSH_START may come
  // from any thread, FLUSH_STOP (and the segment) once the pushing thread stopped.
  void FlushStart();
  void FlushStop();

  GstElement* element() const { return element_; }
  GstHarness* harness() const { return harness_; }
  // "proposed-pool" or "proposed-allocator": what kUpstreamPool placements really used.
  std::string ProposedKind() const;

 protected:
  // The harness starts the element (PLAYING).
  void Start();
  // Tears the harness down; the bus stays, so a log on it sees what teardown posts.
  void Stop();
  GstBus* bus() const { return bus_; }
  const GstVideoInfo& info() const { return info_; }

  // New caps when format or size change and a pending segment, then the buffer for `frame` as
  // `placement` says, timestamped in sequence. Fills `record` but for the flow, the output check
  // and the end of its description (the caller adds the element's parameters).
  GstBuffer* Prepare(const TestFrame& frame, const vktest::InputPlacement& placement, FrameRecord* record);
  // Pushes `buffer` (taking it) and checks the output; sets the record's flow and output problem.
  void Deliver(GstBuffer* buffer, FrameRecord* record);

 private:
  void SendCaps(const TestFrame& frame);
  void SendSegment();
  GstBuffer* NewBuffer(const TestFrame& frame, const vktest::InputPlacement& placement);
  std::string CheckOutput(const std::vector<uint8_t>& input_bytes, const FrameRecord& record);

  const std::string name_;  // the element's, for failure messages
  GstElement* element_ = nullptr;
  GstHarness* harness_ = nullptr;
  GstBus* bus_ = nullptr;
  std::unique_ptr<vktest::UpstreamAllocation> allocation_;
  GstVideoInfo info_;
  bool have_caps_ = false;
  GstSegment segment_;
  bool segment_pending_ = true;
  GstClockTime next_pts_;
  bool post_messages_;
  size_t frames_ = 0;  // prepared so far: the next frame's number
};

// Properties are set by name; a missing one must fail clearly rather than as a GLib warning.
void RequireProperty(GstElement* element, const char* name);
void SetUint(GstElement* element, const char* name, guint value);

}  // namespace analysis_test
