// FLUSH_START from another thread while the streaming thread keeps pushing, as a seek does: the
// element may then be waiting for the GPU with frames in flight, which a flush between pushes
// never reaches.
#pragma once

#include <gst/gst.h>

#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace vktest {

struct FlushWhilePushingResult {
  bool started;       // what `wait_started` returned
  bool saw_flushing;  // a push returned GST_FLOW_FLUSHING
};

// A streaming thread pushes `frames` through `stream` round and round (100000 pushes at most)
// and stops at the first push that does not return OK. Once `wait_started()` returns, this
// thread sends FLUSH_START and joins the streaming thread; FLUSH_STOP is the caller's, after it
// has checked the result. The frames are made up front: the caller's random generator is not
// shared between threads. `Stream` is an element's test stream with Push(const Frame&) and
// FlushStart().
template <typename Stream, typename Frame, typename WaitStarted>
FlushWhilePushingResult FlushWhilePushing(Stream& stream, const std::vector<Frame>& frames,
                                          WaitStarted wait_started) {
  std::atomic<bool> saw_flushing{false};
  std::thread streaming([&] {
    for (size_t i = 0; i < 100000; ++i) {
      const GstFlowReturn flow = stream.Push(frames[i % frames.size()]);
      if (flow == GST_FLOW_FLUSHING) saw_flushing = true;
      if (flow != GST_FLOW_OK) return;  // anything but FLUSHING is for the caller to report
    }
  });
  const bool started = wait_started();
  stream.FlushStart();
  streaming.join();
  return FlushWhilePushingResult{started, saw_flushing};
}

}  // namespace vktest
