// The lock of one VkQueue's submissions, with a way ahead for a pipeline being stopped.
//
// A pipeline's state change to READY returns once its streaming thread has left our elements, and
// that thread may be waiting to submit. On lavapipe a vkQueueSubmit runs the work itself, under
// this lock, so with many live pipelines on one device the threads queue up behind it: on the
// 2-core CI machine, 24 live chains waited 37 ms on average for it, and a stop waited up to 270 ms
// behind the other pipelines' submissions. A stopping element hurries its streaming thread
// (hurry()): that thread takes the lock as soon as it is free, before the threads that wait
// without hurry, so a stop waits for one submission at most, not for every pipeline's.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace vkc {

class QueueLock {
 public:
  void lock();
  void unlock();
  // Lets `thread`'s waits for the lock go first (on), or no longer (off).
  void hurry(std::thread::id thread, bool on);
  // Threads waiting for the lock now (for tests).
  int waiters();
  // Another library's lock of the same VkQueue (GStreamer's queue submit lock, on a device adopted
  // from it), taken after ours and let go before it. Set before the lock is first used.
  void share_with(std::function<void()> lock, std::function<void()> unlock);

 private:
  bool hurried(std::thread::id thread) const;

  std::mutex mutex_;
  std::condition_variable hurried_free_;  // for the hurried waiters
  std::condition_variable free_;          // for the others
  bool held_ = false;                     // mutex_
  int waiting_ = 0;                       // mutex_: all waiters
  int hurried_waiting_ = 0;               // mutex_: the hurried ones among them
  std::vector<std::thread::id> hurried_;  // mutex_
  std::function<void()> outer_lock_, outer_unlock_;
};

}  // namespace vkc
