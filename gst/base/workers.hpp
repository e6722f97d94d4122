// vkc::Workers: threads that run the tasks handed to them: a few, and one more for each task that
// blocks or runs long.
//
// Tasks are short (a message posted, a buffer pushed into a queue) unless one blocks (a push into a
// downstream that waits for its clock, a full queue, a paused pipeline). The first kEager threads
// start as soon as a task finds no idle thread; beyond those, a task that has waited kStuck for a
// thread gets a new one (check(), which its owner calls at the times it returns), unless a busy
// thread is runnable: then the tasks wait for a CPU, not for a thread, and another thread would only
// queue for the same cores (on a machine kept busy by a software Vulkan device, the pool grew to 18
// threads that way). So a task that blocks holds one thread and delays the others by kStuck at most,
// and the threads grow with the tasks blocked in their thread (a push into a downstream that waits),
// never with the number of elements or with the load on the CPU. Threads idle for a while go away,
// down to one. No GObject in here.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include <sys/types.h>

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
  // Starts a thread when the oldest task not started has waited kStuck, no busy thread is runnable,
  // and `owner_awaited` is false: threads wait for a lock the caller holds, which the busy threads
  // (ending their tasks) may be among, and they go on as soon as it lets go. After kMaxVetoes looks
  // in a row kept from it so, it starts one anyway. Returns when to call again
  // (Clock::time_point::max(): when a task has been added).
  Clock::time_point check(bool owner_awaited = false);

  // Threads alive now (running a task or idle), for tests and the bench.
  size_t threads() const;

 private:
  void serve();
  // Starts a thread. With the lock held.
  void start_thread();
  // Whether one of `threads` (kernel thread IDs) is running or waits for a CPU, rather than sleeping
  // in a wait of its task. Where the kernel does not say (no /proc), none is.
  static bool any_runnable(const std::vector<pid_t>& threads);

  static constexpr size_t kEager = 2;
  static constexpr std::chrono::microseconds kStuck{1000};
  // Looks in a row that may keep a thread from starting (check()), at most.
  static constexpr int kMaxVetoes = 8;
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
  std::vector<pid_t> busy_;       // lock: the kernel thread IDs of the threads running a task
  int vetoes_ = 0;                // lock: looks in a row that started no thread for a waiting task
  bool ending_ = false;           // lock
};

}  // namespace vkc
