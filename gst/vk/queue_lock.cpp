#include "queue_lock.hpp"

#include <algorithm>

namespace vkc {

bool QueueLock::hurried(std::thread::id thread) const {
  return std::find(hurried_.begin(), hurried_.end(), thread) != hurried_.end();
}

void QueueLock::lock() {
  std::unique_lock<std::mutex> guard(mutex_);
  const std::thread::id self = std::this_thread::get_id();
  waiting_++;
  for (;;) {
    // Looked at again after every wake: hurry() wakes the waiters that it may concern.
    const bool hurry = hurried(self);
    if (!held_ && (hurry || hurried_waiting_ == 0)) break;
    if (hurry) {
      hurried_waiting_++;
      hurried_free_.wait(guard);
      hurried_waiting_--;
    } else {
      // Free, but a hurried waiter goes first: it may not have been woken yet (the last unlock
      // woke this thread before it was hurried).
      if (!held_) hurried_free_.notify_one();
      free_.wait(guard);
    }
  }
  waiting_--;
  held_ = true;
  guard.unlock();
  if (outer_lock_) outer_lock_();
}

void QueueLock::unlock() {
  if (outer_unlock_) outer_unlock_();
  std::lock_guard<std::mutex> guard(mutex_);
  held_ = false;
  if (hurried_waiting_ > 0)
    hurried_free_.notify_one();
  else if (waiting_ > 0)
    free_.notify_one();
}

void QueueLock::hurry(std::thread::id thread, bool on) {
  std::lock_guard<std::mutex> guard(mutex_);
  if (on && !hurried(thread)) hurried_.push_back(thread);
  if (!on) hurried_.erase(std::remove(hurried_.begin(), hurried_.end(), thread), hurried_.end());
  // A waiting thread that is hurried now moves ahead.
  if (on && waiting_ > 0) free_.notify_all();
}

void QueueLock::share_with(std::function<void()> lock, std::function<void()> unlock) {
  outer_lock_ = std::move(lock);
  outer_unlock_ = std::move(unlock);
}

int QueueLock::waiters() {
  std::lock_guard<std::mutex> guard(mutex_);
  return waiting_;
}

}  // namespace vkc
