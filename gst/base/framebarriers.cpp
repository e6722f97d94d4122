#include "framebarriers.hpp"

#include <atomic>
#include <utility>
#include <vector>

namespace vkc {
namespace {

// The frames this thread submitted to each device's compute queue: how many, and the last with a
// barrier after earlier work. Threads are numbered from 1, never reusing a number.
struct SubmittedFrames {
  uint64_t frames = 0;
  uint64_t last_barrier = 0;
};
std::atomic<uint64_t> g_threads{0};
thread_local const uint64_t t_thread = ++g_threads;
thread_local std::vector<std::pair<const Device*, SubmittedFrames>> t_devices;

SubmittedFrames& submitted_to(const Device& device) {
  for (auto& [d, frames] : t_devices)
    if (d == &device) return frames;
  return t_devices.emplace_back(&device, SubmittedFrames{}).second;
}

}  // namespace

bool waits_for_write(GstMemory* mem, const Device& device) {
  WriteOrder order;
  if (!write_may_be_running(mem, device, &order)) return false;
  return order.thread != t_thread || submitted_to(device).last_barrier <= order.frame;
}

WriteOrder note_submitted(const Device& device, const Frame& frame) {
  SubmittedFrames& frames = submitted_to(device);
  ++frames.frames;
  if (frame.after_earlier_work) frames.last_barrier = frames.frames;
  return {t_thread, frames.frames};
}

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
