// Records what an element sends downstream: every buffer (decoded into YuvPlanes right away, so
// that the element's output pool is never starved by held buffers) and every event, in order.
#pragma once

#include <gst/video/video.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "yuv_planes.h"

namespace vktest {

struct RecordedItem {
  bool is_buffer = false;
  GstEventType event_type = GST_EVENT_UNKNOWN;  // for events
  // For buffers:
  GstClockTime pts = GST_CLOCK_TIME_NONE;
  GstClockTime duration = GST_CLOCK_TIME_NONE;
  std::string caps;            // the pad's caps when the buffer arrived
  GstVideoInfo info;           // the same, parsed
  YuvPlanes planes;            // its samples
  std::string layout_problem;  // non-empty when the buffer's memory layout is wrong
};

class VideoOutputRecorder {
 public:
  // Watches data arriving at `pad` (a sink pad, e.g. a GstHarness's). When
  // `downstream_has_video_meta` is false, downstream did not accept GstVideoMeta, so a buffer
  // must use the default GstVideoInfo layout.
  VideoOutputRecorder(GstPad* pad, bool downstream_has_video_meta);
  ~VideoOutputRecorder();
  VideoOutputRecorder(const VideoOutputRecorder&) = delete;
  VideoOutputRecorder& operator=(const VideoOutputRecorder&) = delete;

  // A copy of everything recorded so far.
  std::vector<RecordedItem> Items() const;
  std::vector<RecordedItem> Buffers() const;
  size_t BufferCount() const;

  // Waits until an event of `type` was recorded; false after `timeout_ms`.
  bool WaitForEvent(GstEventType type, int timeout_ms) const;
  // Waits until `count` buffers were recorded; false after `timeout_ms`.
  bool WaitForBuffers(size_t count, int timeout_ms) const;

 private:
  static GstPadProbeReturn OnProbe(GstPad* pad, GstPadProbeInfo* info, gpointer user_data);
  void RecordBuffer(GstPad* pad, GstBuffer* buffer);
  void RecordEvent(GstEvent* event);

  GstPad* pad_;
  gulong probe_id_;
  bool downstream_has_video_meta_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<RecordedItem> items_;
};

}  // namespace vktest
