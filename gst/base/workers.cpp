#include "workers.hpp"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
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

Workers::Clock::time_point Workers::check(bool owner_awaited) {
  std::unique_lock<std::mutex> guard(lock_);
  if (ending_ || idle_ >= tasks_.size()) return Clock::time_point::max();
  const Clock::time_point now = Clock::now();
  if (now - tasks_.front().since < kStuck) return tasks_.front().since + kStuck;
  // Either way the next look is a kStuck from now: the new thread takes a task, or a busy one gets
  // its CPU or the owner's lock back and ends its task.
  // A veto holds for kMaxVetoes looks in a row at most: a task queued behind busy threads that stay
  // runnable, or behind a lock that stays awaited, still gets a thread within that many kStuck.
  bool vetoed = owner_awaited;
  if (!vetoed) {
    const std::vector<pid_t> busy = busy_;
    guard.unlock();
    vetoed = any_runnable(busy);
    guard.lock();
  }
  if (vetoed && ++vetoes_ < kMaxVetoes) return now + kStuck;
  vetoes_ = 0;
  if (!ending_ && idle_ < tasks_.size()) start_thread();
  return now + kStuck;
}

bool Workers::any_runnable(const std::vector<pid_t>& threads) {
  for (const pid_t thread : threads) {
    // /proc/self/task/<tid>/stat: "<tid> (<name>) <state> ...", the name in parentheses may hold
    // spaces and parentheses itself, so the state follows the last ')'.
    char path[64];
    std::snprintf(path, sizeof path, "/proc/self/task/%d/stat", int(thread));
    FILE* file = std::fopen(path, "re");
    if (file == nullptr) continue;
    char text[256];
    const size_t length = std::fread(text, 1, sizeof text - 1, file);
    std::fclose(file);
    text[length] = '\0';
    const char* close = std::strrchr(text, ')');
    if (close != nullptr && close[1] == ' ' && close[2] == 'R') return true;
  }
  return false;
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
  const pid_t self = pid_t(syscall(SYS_gettid));
  std::unique_lock<std::mutex> guard(lock_);
  for (;;) {
    if (!tasks_.empty()) {
      std::function<void()> task = std::move(tasks_.front().run);
      tasks_.pop_front();
      busy_.push_back(self);
      guard.unlock();
      task();
      task = nullptr;  // what it captured goes before the lock is taken again
      guard.lock();
      busy_.erase(std::find(busy_.begin(), busy_.end(), self));
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
