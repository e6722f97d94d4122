// Results that kernels build with scattered writes and atomics (per-tile slots, histogram bins).
// They live in device-local memory: on a discrete GPU every atomic or scattered store into host
// memory is its own PCIe transaction, several times slower than the frame reads around them. Only
// the part the CPU reads goes to host-visible memory: written there by the kernel that finishes
// the frame (host()), or copied by one transfer at the end (record_copy()).
#pragma once

#include <memory>

#include "commands.hpp"
#include "memory.hpp"

namespace vkc {

class Readback {
 public:
  // `work_bytes` for the kernels; its first `result_bytes` are what the CPU reads.
  Readback(std::shared_ptr<Device> device, vk::DeviceSize work_bytes, vk::DeviceSize result_bytes,
           const char* name);

  // The buffer the kernels write.
  vk::Buffer work() const { return work_->handle(); }
  // The host-visible buffer the CPU reads result() from.
  vk::Buffer host() const { return host_->handle(); }
  // Records zeroing the work buffer the first time it is called: for kernels that count in it
  // (finished-workgroup counters, bins) and leave it zeroed again after each frame.
  void record_zero_once(Commands cmd);
  // Records copying the results to the host after the kernels recorded so far; the caller's
  // final barrier makes the copy visible to the CPU once the fence signals.
  void record_copy(Commands cmd) const;
  // The copied results (valid once the frame's fence has signalled).
  const uint32_t* result() const { return reinterpret_cast<const uint32_t*>(host_->mapped()); }

 private:
  std::unique_ptr<Buffer> work_;
  std::unique_ptr<Buffer> host_;
  vk::DeviceSize result_bytes_;
  bool zeroed_ = false;
};

}  // namespace vkc
