// A ring of command buffers and fences: frame n records into slot n % depth, so up to `depth`
// frames are in flight on the GPU at once.
#pragma once

#include <memory>
#include <vector>

#include "device.hpp"

namespace vkc {

class CommandRing {
 public:
  CommandRing(std::shared_ptr<Device> device, uint32_t depth, const char* name);
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
  // its commands; negative when the queue has no timestamps.
  double gpu_time_ns(uint32_t slot) const;

 private:
  struct Slot {
    vk::raii::CommandBuffer cmd = nullptr;
    vk::raii::Fence fence = nullptr;
    bool submitted = false;
  };

  std::shared_ptr<Device> device_;
  vk::raii::CommandPool pool_ = nullptr;      // declared before slots_: destroyed after them
  vk::raii::QueryPool timestamps_ = nullptr;  // two per slot; null without timestamp support
  double timestamp_period_ns_ = 0;
  std::vector<Slot> slots_;
};

}  // namespace vkc
