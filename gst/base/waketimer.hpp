// vkc::WakeTimer: a thread that sleeps until a moment other threads may bring forward, without
// waking it to do so (a timerfd: the kernel's timer moves, the sleeper stays asleep).
//
// The completion service sleeps until the first moment a client asked to be looked at. A
// condition variable would have to wake it each time a new frame asks for an earlier moment, only
// for it to go back to sleep until then: with hundreds of live streams, about one needless sleep
// and wake per frame. Here the thread that asks moves the timer (one system call).
#pragma once

#include <chrono>

namespace vkc {

class WakeTimer {
 public:
  using Clock = std::chrono::steady_clock;  // CLOCK_MONOTONIC, as the timer's

  WakeTimer();
  ~WakeTimer();
  WakeTimer(const WakeTimer&) = delete;
  WakeTimer& operator=(const WakeTimer&) = delete;

  // The sleeper wakes at `when` (now when it has passed), instead of any moment set before;
  // Clock::time_point::max() disarms. Callers serialize set() with a lock of their own.
  void set(Clock::time_point when);
  // Sleeps until the moment set (returns at once when it has passed; sleeps while disarmed).
  void sleep();

 private:
  int fd_;
};

}  // namespace vkc
