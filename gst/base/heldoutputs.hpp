// vkc::HeldOutputs: outputs in host memory that an element's streaming thread holds back while it
// is inside a frame (from reserve() to its own submission), then pushes, in order.
//
// Why: a chain's last element finishes an earlier frame in reserve(), before it records the new
// one. A push there could block downstream, so the streaming thread's batch (the new frame's work
// of the elements above, vk/batch.hpp) would have to be sent first, and each frame's work would
// reach the GPU in two submissions instead of one. Held until the element's own submission has
// sent the batch, the output leaves a few microseconds later, with nothing left unsent.
// While the streaming thread holds, a frame that the completion thread finishes joins the held
// ones instead of overtaking them; the streaming thread pushes them all before it leaves the
// element. No GObject in here: tests/test_scheduler.cpp drives it with a fake push.
#pragma once

#include <gst/gst.h>

#include <deque>
#include <functional>
#include <mutex>

namespace vkc {

class HeldOutputs {
 public:
  using Push = std::function<GstFlowReturn(GstBuffer*)>;

  HeldOutputs() = default;
  ~HeldOutputs();  // drops what is still held (an element stopped while holding)
  HeldOutputs(const HeldOutputs&) = delete;
  HeldOutputs& operator=(const HeldOutputs&) = delete;

  // Streaming thread, entering a frame: outputs finished from now on are held.
  void hold();
  // Whichever thread finishes a frame: takes `out` (true) while the streaming thread holds;
  // otherwise (false) the caller pushes it.
  bool take(GstBuffer* out);
  // Streaming thread, leaving the frame: pushes every held output with `push` (which takes the
  // buffer and must not throw), in order, also those taken while it pushes, then stops holding.
  // Returns the first flow that is not OK.
  GstFlowReturn release(const Push& push);

 private:
  std::mutex lock_;
  bool holding_ = false;         // lock
  std::deque<GstBuffer*> held_;  // lock: oldest first
};

}  // namespace vkc
