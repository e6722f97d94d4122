// What an element does when the link after it changes while PLAYING, between a frame's negotiation
// and its push: a tee's branch added, the element downstream replaced behind a blocking probe.
// Frames in device memory are what make this matter: the new peer is handed the caps of the moment,
// in device memory, which a stock element there may accept at first and refuse later (queue !
// videoconvert: in the queue's thread, where the branch stays refused). docs/design.md, "Links that
// change while PLAYING", says how the three parts below fit.
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/gst.h>

#include <atomic>

namespace vkc {

// Pushes refused as not negotiated because downstream changed: the frame is dropped and the stream
// goes on, as GstBaseSrc does in its own loop, and the next frame negotiates again.
class RefusedPushes {
 public:
  // More consecutive refusals than `limit` are an error: downstream refuses what negotiation chose.
  explicit RefusedPushes(unsigned limit) : limit_(limit) {}

  // The flow of a push on `src`. A push refused as not negotiated while a reconfigure is pending
  // on `src`, or while the peer no longer accepts its caps, dropped a frame that carried caps
  // downstream changed away from: `src` is marked for negotiation and the flow is OK.
  GstFlowReturn judge(GstObject* element, GstPad* src, GstFlowReturn flow);
  // The output after a dropped frame is a discontinuity, as GstBaseTransform marks the one after
  // a frame it drops: sets DISCONT on `*out` (made writable) once after each drop.
  void mark_discont(GstBuffer** out);
  // New caps, a flush or a start: the count of refusals starts again.
  void restart_count() { refused_ = 0; }

 private:
  const unsigned limit_;
  std::atomic<unsigned> refused_{0};  // since the last push accepted, or restart_count()
  std::atomic<bool> dropped_{false};
};

// A reconfigure that came while a frame was on its way applies before its output `*out` leaves.
// The output goes on under the new caps if they describe the same frames (every field: a
// colorimetry changes rgb2yuv's pixels) and its memory fits them (device memory maps like any
// memory, host memory is not device memory); otherwise it is dropped (*out cleared): the flow is
// then GST_BASE_TRANSFORM_FLOW_DROPPED, or NOT_NEGOTIATED when negotiation failed.
GstFlowReturn negotiate_before_push(GstBaseTransform* trans, GstBuffer** out);

// For a probe on a source pad, `info` a caps event on its way: caps in device memory on their way
// to a linked peer that does not take device memory (the pad re-sends its sticky caps to a new peer
// after a relink) become the same caps in system memory, if the peer accepts those; the pad is
// marked for negotiation. The frames already on their way are device memory, which maps like any
// memory (read back); the pad's own current caps stay as they are until the element negotiates.
void system_memory_for_new_peer(GstPad* src, GstPadProbeInfo* info, int device_index);

}  // namespace vkc
