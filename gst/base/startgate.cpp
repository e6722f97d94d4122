#include "startgate.hpp"

#include <chrono>

namespace vkc {

namespace {
// How often a wait looks at the pad's flushing flag, which nothing signals to the gate.
constexpr auto kFlushPoll = std::chrono::milliseconds(10);
}  // namespace

void StartGate::begin() {
  std::lock_guard<std::mutex> guard(lock_);
  starting_ = std::this_thread::get_id();
}

void StartGate::end() {
  std::lock_guard<std::mutex> guard(lock_);
  starting_ = std::thread::id();
  changed_.notify_all();
}

void StartGate::wait(const std::function<bool()>& flushing) {
  std::unique_lock<std::mutex> guard(lock_);
  while (starting_ != std::thread::id() && starting_ != std::this_thread::get_id() && !flushing())
    changed_.wait_for(guard, kFlushPoll);
}

}  // namespace vkc
