// Bytes crossing the bus on the device's copy queues while something else runs on its compute
// queue, as a chain's neighbouring frames cross while its kernels run (bench/kernel_floor.cpp).
#pragma once

#include <initializer_list>
#include <memory>
#include <vector>

#include "vk/device.hpp"
#include "vk/memory.hpp"

namespace bench {

// Copies host memory to device memory and back on the device's upload and download queues for
// as long as it lives (a few hundred milliseconds at most). Nothing when the device has no copy
// queue.
class BusTraffic {
 public:
  // `local`: copies inside device memory instead, on the same queues (no bus).
  BusTraffic(const std::shared_ptr<vkc::Device>& device, std::initializer_list<vkc::QueueRole> roles,
             bool local = false);
  ~BusTraffic();
  bool running() const { return !queues_.empty(); }

 private:
  struct Queue {
    vk::raii::CommandPool pool = nullptr;
    vk::raii::CommandBuffer cmd = nullptr;
    vk::raii::Fence fence = nullptr;
  };
  std::shared_ptr<vkc::Device> device_;
  std::unique_ptr<vkc::Buffer> host_, local_;
  std::vector<Queue> queues_;
};

}  // namespace bench
