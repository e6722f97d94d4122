// Timelines of a device's queues: every submission to a queue signals the queue's timeline
// semaphore (Vulkan 1.2) with the next value, so "is this work done" is one comparison with the
// value the queue has reached, for any number of submissions, elements and threads. Submissions
// to one queue signal in submission order, so a value reached means every submission to that
// queue up to it is complete.
//
// No fence to reset and no fence per batch: NVIDIA's driver spent about 0.6 ms of the streaming
// thread per frame making and destroying a fence (H200, docs/benchmarks.md), which a pool of
// fences then avoided; values cost nothing to make.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "vk.hpp"

namespace vkc {

// Where a submission stands after a wait.
enum class Completion {
  kDone,     // completed (or nothing was submitted)
  kPending,  // still running when the wait timed out: what it uses must stay alive
  kLost,     // the device was lost (VK_ERROR_DEVICE_LOST): it will never complete, and the
             // driver no longer touches what it used
};

// The values of a submission's waits (its VkTimelineSemaphoreSubmitInfo in pNext), or null when it
// waits for binary semaphores only.
const vk::TimelineSemaphoreSubmitInfo* wait_values(const vk::SubmitInfo& info);
// The same for the values `info` signals (another API's timeline semaphores), or null.
const vk::TimelineSemaphoreSubmitInfo* signal_values(const vk::SubmitInfo& info);

// One queue's timeline semaphore and the values submitted on it.
class Timeline {
 public:
  explicit Timeline(const vk::raii::Device& device);
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  // Submits `info` to `queue` (whose lock the caller holds), signalling the timeline with the next
  // value as well as what `info` signals, and `fence` when given; waits keep their values
  // (wait_values()). Returns the value.
  // `label` (an interned string: g_intern_string()) names the work, with `others` more submissions
  // merged into it, for label_of().
  uint64_t submit(vk::Queue queue, const vk::SubmitInfo& info, vk::Fence fence, const char* label = nullptr,
                  uint32_t others = 0);
  // The label of the submission that ends at `value`, among the latest kLabels ("" when unknown).
  // The caller holds the queue's lock, as for submit().
  std::string label_of(uint64_t value) const;
  // Whether the queue has reached `value`, without waiting: a read of the semaphore's counter,
  // or none when an earlier read already saw it. Throws vk::DeviceLostError.
  bool reached(uint64_t value) const;
  vk::Semaphore semaphore() const { return *semaphore_; }
  const vk::raii::Device& device() const { return device_; }
  // A wait found `value` reached.
  void saw(uint64_t value) const;
  // The highest value seen reached so far, and the last value submitted.
  uint64_t seen() const { return seen_.load(std::memory_order_relaxed); }
  const std::atomic<uint64_t>& seen_counter() const { return seen_; }
  uint64_t submitted() const { return submitted_.load(std::memory_order_relaxed); }
  // The counter's value now (a read of the semaphore). Throws vk::DeviceLostError.
  uint64_t counter() const { return semaphore_.getCounterValue(); }
  // How long the submissions between the last value seen reached and `value` (not counting the one
  // that ends at `value`) will take, at the pace the queue kept lately while it had work: 0 when it
  // has none ahead or no pace is known. Hundreds of streams on one GPU queue their frames behind
  // each other: a frame's wait is then known to last at least this long.
  uint64_t ahead_ns(uint64_t value) const;
  // How long until the queue reaches `value` (the submissions after the last value seen up to it,
  // at that pace): 0 when reached or no pace is known.
  uint64_t until_ns(uint64_t value) const;

 private:
  using Clock = std::chrono::steady_clock;
  // A read found the counter at `value`: the queue's pace from the time it moved while it had work.
  void paced(uint64_t value) const;

  const vk::raii::Device& device_;
  vk::raii::Semaphore semaphore_;
  // Recent submissions' labels by value modulo kLabels (the queue's lock).
  static constexpr size_t kLabels = 4096;
  struct Label {
    uint64_t value = 0;
    const char* text = nullptr;
    uint32_t others = 0;
  };
  std::vector<Label> labels_ = std::vector<Label>(kLabels);
  std::atomic<uint64_t> submitted_{0};     // the last value submitted (written under the queue's lock)
  mutable std::atomic<uint64_t> seen_{0};  // the highest value a read found reached
  mutable std::mutex pace_lock_;
  mutable uint64_t paced_value_ = 0;          // pace_lock_: the counter at the last read
  mutable Clock::time_point paced_at_;        // pace_lock_: when that stretch began
  mutable bool busy_ = false;                 // pace_lock_: the queue had work from paced_at_ on
  mutable std::atomic<uint64_t> step_ns_{0};  // the queue's recent time per value, while busy
};

namespace batch {
struct Pending;
}

// Where a submission's work ends: `value` on `timeline`. A submission still in its thread's batch
// (batch.hpp) has value 0 until the batch goes; `batch` is that batch, which any thread may send
// (batch::submit()).
struct SubmitPoint {
  explicit SubmitPoint(const Timeline& on, uint64_t at = 0, std::weak_ptr<batch::Pending> in = {})
      : timeline(on), value(at), batch(std::move(in)) {}
  const Timeline& timeline;
  std::atomic<uint64_t> value;
  const std::weak_ptr<batch::Pending> batch;
  bool submitted() const { return value.load(std::memory_order_acquire) != 0; }
  // Whether the work is done, without waiting (false while not submitted).
  bool reached() const;
};

// Waits up to `timeout_ns` until every point in `points` (all submitted, all on `device`) is reached.
Completion wait_points(const vk::raii::Device& device, const std::vector<const SubmitPoint*>& points,
                       uint64_t timeout_ns);

}  // namespace vkc
