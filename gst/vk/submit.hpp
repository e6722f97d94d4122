// A ring of command buffers and fences: frame n records into slot n % depth, so up to `depth`
// frames are in flight on the GPU at once.
#pragma once

#include <memory>
#include <vector>

#include "device.hpp"

namespace vkc {

class CommandRing {
 public:
  static constexpr uint32_t kTimestampInterval = 8;

  // Times one submission in `timestamp_interval` (see gpu_time_ns()).
  CommandRing(std::shared_ptr<Device> device, uint32_t depth, const char* name,
              uint32_t timestamp_interval = kTimestampInterval);
  ~CommandRing();

  uint32_t depth() const { return uint32_t(slots_.size()); }

  // Begins recording into `slot`, whose previous submission must have completed (see wait()).
  vk::CommandBuffer begin(uint32_t slot);
  // Ends recording and submits the slot's work; its fence signals on completion.
  void submit(uint32_t slot);
  // True once the slot's last submission has completed (or when nothing was submitted).
  bool done(uint32_t slot) const;
  // Waits for the slot's last submission; false if it did not complete within `timeout_ns`.
  bool wait(uint32_t slot, uint64_t timeout_ns) const;
  // GPU time of the slot's completed submission, in nanoseconds, from timestamp queries around
  // its commands; negative when the submission was not timed or the queue has no timestamps.
  // By default one submission in kTimestampInterval is timed: a timestamp at the end of a command
  // buffer waits for all of its work, which keeps consecutive frames from overlapping on the GPU.
  double gpu_time_ns(uint32_t slot) const;

 private:
  struct Slot {
    // A pool per slot, reset whole before each recording: cheaper in drivers than resetting one
    // command buffer of a shared pool (NVIDIA's advice). Declared before cmd: destroyed after it.
    vk::raii::CommandPool pool = nullptr;
    vk::raii::CommandBuffer cmd = nullptr;
    vk::raii::Fence fence = nullptr;
    bool submitted = false;
    bool timed = false;
  };

  std::shared_ptr<Device> device_;
  vk::raii::QueryPool timestamps_ = nullptr;  // two per slot; null without timestamp support
  double timestamp_period_ns_ = 0;
  std::vector<Slot> slots_;
  uint32_t timestamp_interval_;
  uint64_t begun_ = 0;  // submissions begun, for choosing the timed ones
};

}  // namespace vkc
