#include "framebarriers.hpp"

namespace vkc {

void record_after_earlier_work(Commands cmd) {
  using Stage = vk::PipelineStageFlagBits;
  using Access = vk::AccessFlagBits;
  vk::MemoryBarrier earlier{.srcAccessMask = Access::eShaderWrite | Access::eTransferWrite,
                            .dstAccessMask = Access::eShaderRead | Access::eShaderWrite |
                                             Access::eTransferRead | Access::eTransferWrite};
  cmd.pipelineBarrier(Stage::eComputeShader | Stage::eTransfer, Stage::eComputeShader | Stage::eTransfer, {},
                      earlier, nullptr, nullptr);
}

void record_to_host(Commands cmd) {
  vk::MemoryBarrier to_host{
      .srcAccessMask = vk::AccessFlagBits::eShaderWrite | vk::AccessFlagBits::eTransferWrite,
      .dstAccessMask = vk::AccessFlagBits::eHostRead};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer,
                      vk::PipelineStageFlagBits::eHost, {}, to_host, nullptr, nullptr);
}

}  // namespace vkc
