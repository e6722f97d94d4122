#include "host_tail.hpp"

namespace vkc {

HostTail::HostTail(const vk::raii::Device& device, uint32_t queue_family)
    : pool_(device, vk::CommandPoolCreateInfo{.queueFamilyIndex = queue_family}) {
  cmd_ = std::move(vk::raii::CommandBuffers(
                       device, vk::CommandBufferAllocateInfo{.commandPool = *pool_,
                                                             .level = vk::CommandBufferLevel::ePrimary,
                                                             .commandBufferCount = 1})
                       .front());
  cmd_.begin(vk::CommandBufferBeginInfo{.flags = vk::CommandBufferUsageFlagBits::eSimultaneousUse});
  vk::MemoryBarrier to_host{
      .srcAccessMask = vk::AccessFlagBits::eShaderWrite | vk::AccessFlagBits::eTransferWrite,
      .dstAccessMask = vk::AccessFlagBits::eHostRead};
  cmd_.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer,
                       vk::PipelineStageFlagBits::eHost, {}, to_host, nullptr, nullptr);
  cmd_.end();
}

}  // namespace vkc
