#include "framebarriers.hpp"

namespace vkc {

void order_after_earlier_work(Frame& frame) {
  if (frame.after_earlier_work) return;
  frame.after_earlier_work = true;
  using Stage = vk::PipelineStageFlagBits;
  using Access = vk::AccessFlagBits;
  vk::MemoryBarrier earlier{.srcAccessMask = Access::eShaderWrite | Access::eTransferWrite,
                            .dstAccessMask = Access::eShaderRead | Access::eShaderWrite |
                                             Access::eTransferRead | Access::eTransferWrite};
  frame.cmd.pipelineBarrier(Stage::eComputeShader | Stage::eTransfer,
                            Stage::eComputeShader | Stage::eTransfer, {}, earlier, nullptr, nullptr);
}

}  // namespace vkc
