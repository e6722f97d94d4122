// vkc::Workers: threads that run the tasks handed to them: a few, and one more for each task that
// blocks or runs long.
//
// Tasks are short (a message posted, a buffer pushed into a queue) unless one blocks (a push into a
// downstream that waits for its clock, a full queue, a paused pipeline). The first kEager threads
// start as soon as a task finds no idle thread; beyond those, a task that has waited kStuck for a
// thread gets a new one (check(), which its owner calls at the times it returns). So a task that
// blocks holds one thread and delays the others by kStuck at most, and the threads grow with the
// tasks that have held their thread kStuck or longer at that moment (blocked in a push, or slow:
// the two look the same from here, and a CPU too busy to run them stretches tasks too), never with
// the number of elements. Threads idle for a while go
// away, down to one. No GObject in here.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>

namespace vkc {

class Workers {
 public:
  // `name` (at most 15 bytes) shows in top and debuggers.
  explicit Workers(std::string name);
  // Waits for the running tasks and their threads; tasks not started are dropped.
  ~Workers();
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  using Clock = std::chrono::steady_clock;

  // Runs `task` on an idle thread, or a new one while there are fewer than kEager, or else the
  // first that becomes idle (or the one check() starts). Any thread.
  void run(std::function<void()> task);
  // Starts a thread when the oldest task not started has waited kStuck. Returns when to call
  // again (Clock::time_point::max(): when a task has been added).
  Clock::time_point check();

  // Threads alive now (running a task or idle), for tests and the bench.
  size_t threads() const;

 private:
  void serve();
  // Starts a thread. With the lock held.
  void start_thread();

  static constexpr size_t kEager = 2;
  static constexpr std::chrono::microseconds kStuck{1000};
  // An idle thread goes away after this long, unless it is the last.
  static constexpr std::chrono::seconds kIdleLife{2};

  struct Task {
    std::function<void()> run;
    Clock::time_point since;
  };

  const std::string name_;
  mutable std::mutex lock_;
  std::condition_variable work_;  // a task, or the end
  std::condition_variable gone_;  // a thread left
  std::deque<Task> tasks_;        // lock: not started yet
  size_t threads_ = 0;            // lock
  size_t idle_ = 0;               // lock: threads waiting for a task
  bool ending_ = false;           // lock
};

}  // namespace vkc
