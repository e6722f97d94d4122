// vkc::StartGate: keeps what upstream sends while the element starts until the start has ended.
//
// Why: GStreamer activates the sink pad, letting events and queries through, before
// GstBaseTransform calls start(), which opens the device. An element upstream that is already
// PLAYING (a branch added to a running pipeline, synced source first) pushes its caps then, and
// set_caps() would configure kernels on no device. change_state() marks the READY to PAUSED change
// with begin() and end(); serialized events and queries from upstream wait() until it has ended,
// which also puts their caps after the negotiation reset GstBaseTransform does once start()
// returns. No GObject in here: tests/test_scheduler.cpp drives it with plain threads.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace vkc {

class StartGate {
 public:
  // The thread that runs the start, before and after it.
  void begin();
  void end();
  // Returns once no start runs, or at once on the starting thread itself (a query of its own
  // would wait for itself), or when `flushing` says the pad flushes (a start that failed, a stop).
  // `flushing` is polled: a flush does not wake the gate.
  void wait(const std::function<bool()>& flushing);

 private:
  std::mutex lock_;
  std::condition_variable changed_;
  std::thread::id starting_;  // lock: the starting thread, or none
};

}  // namespace vkc
