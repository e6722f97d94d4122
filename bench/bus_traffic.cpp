#include "bus_traffic.hpp"

namespace bench {

BusTraffic::BusTraffic(const std::shared_ptr<vkc::Device>& device,
                       std::initializer_list<vkc::QueueRole> roles, bool local)
    : device_(device) {
  if (device->queue_family(vkc::QueueRole::kUpload) == device->queue_family(vkc::QueueRole::kCompute)) return;
  constexpr vk::DeviceSize kBytes = 64ull << 20;
  host_ = vkc::Buffer::create_host(device, kBytes, "floor traffic host");
  local_ = vkc::Buffer::create_device(device, kBytes, "floor traffic device");
  for (auto role : roles) {
    Queue& q = queues_.emplace_back();
    q.pool = vk::raii::CommandPool(device->device(),
                                   vk::CommandPoolCreateInfo{.queueFamilyIndex = device->queue_family(role)});
    q.cmd = std::move(
        vk::raii::CommandBuffers(
            device->device(),
            vk::CommandBufferAllocateInfo{
                .commandPool = *q.pool, .level = vk::CommandBufferLevel::ePrimary, .commandBufferCount = 1})
            .front());
    q.fence = vk::raii::Fence(device->device(), vk::FenceCreateInfo{});
    q.cmd.begin(vk::CommandBufferBeginInfo{});
    const bool up = role == vkc::QueueRole::kUpload;
    // Quarters of the buffers: each queue its own, so they never touch the same bytes.
    constexpr vk::DeviceSize kQuarter = kBytes / 4;
    const vk::Buffer from = up && !local ? host_->handle() : local_->handle();
    const vk::Buffer to = up || local ? local_->handle() : host_->handle();
    const vk::BufferCopy quarter{.srcOffset = (local ? (up ? 2 : 3) : (up ? 0 : 1)) * kQuarter,
                                 .dstOffset = (up ? 0 : 1) * kQuarter,
                                 .size = kQuarter};
    // 4 GB across the bus each way, 128 GB inside the device: longer than the measurements.
    for (int i = 0; i < (local ? 8192 : 256); ++i) q.cmd.copyBuffer(from, to, quarter);
    q.cmd.end();
    vk::CommandBuffer cmd = *q.cmd;
    device->submit(vk::SubmitInfo{.commandBufferCount = 1, .pCommandBuffers = &cmd}, *q.fence, role);
  }
}

BusTraffic::~BusTraffic() {
  for (Queue& q : queues_) (void)device_->device().waitForFences(*q.fence, VK_TRUE, UINT64_MAX);
}

}  // namespace bench
