#include "workers.hpp"

#include <pthread.h>

#include <thread>
#include <utility>

namespace vkc {

Workers::Workers(std::string name) : name_(std::move(name)) {}

Workers::~Workers() {
  std::unique_lock<std::mutex> guard(lock_);
  ending_ = true;
  tasks_.clear();
  work_.notify_all();
  gone_.wait(guard, [&] { return threads_ == 0; });
}

void Workers::run(std::function<void()> task) {
  std::lock_guard<std::mutex> guard(lock_);
  if (ending_) return;
  tasks_.push_back({std::move(task), Clock::now()});
  // Every idle thread may already have been promised a task queued before this one.
  if (idle_ >= tasks_.size())
    work_.notify_one();
  else if (threads_ < kEager)
    start_thread();
}

Workers::Clock::time_point Workers::check() {
  std::lock_guard<std::mutex> guard(lock_);
  if (ending_ || idle_ >= tasks_.size()) return Clock::time_point::max();
  const Clock::time_point now = Clock::now();
  if (now - tasks_.front().since < kStuck) return tasks_.front().since + kStuck;
  start_thread();
  return now + kStuck;  // the next task's wait counts from now: the new thread takes one
}

void Workers::start_thread() {
  threads_++;
  std::thread(&Workers::serve, this).detach();
}

size_t Workers::threads() const {
  std::lock_guard<std::mutex> guard(lock_);
  return threads_;
}

void Workers::serve() {
  pthread_setname_np(pthread_self(), name_.substr(0, 15).c_str());
  std::unique_lock<std::mutex> guard(lock_);
  for (;;) {
    if (!tasks_.empty()) {
      std::function<void()> task = std::move(tasks_.front().run);
      tasks_.pop_front();
      guard.unlock();
      task();
      task = nullptr;  // what it captured goes before the lock is taken again
      guard.lock();
      continue;
    }
    if (ending_) break;
    idle_++;
    const bool woken = work_.wait_for(guard, kIdleLife, [&] { return !tasks_.empty() || ending_; });
    idle_--;
    if (!woken && threads_ > 1) break;
  }
  threads_--;
  gone_.notify_all();
}

}  // namespace vkc
