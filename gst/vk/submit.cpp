#include "submit.hpp"

#include <algorithm>

#define GST_CAT_DEFAULT gst_vkcompute_runtime_debug

namespace vkc {

CommandRing::CommandRing(std::shared_ptr<Device> device, uint32_t depth, const char* name,
                         uint32_t timestamp_interval)
    : device_(std::move(device)), timestamp_interval_(timestamp_interval) {
  const auto& dev = device_->device();
  auto families = device_->physical().getQueueFamilyProperties();
  if (timestamp_interval_ > 0 && families[device_->queue_family()].timestampValidBits > 0) {
    timestamps_ = vk::raii::QueryPool(
        dev, vk::QueryPoolCreateInfo{.queryType = vk::QueryType::eTimestamp, .queryCount = 2 * depth});
    timestamp_period_ns_ = device_->properties().limits.timestampPeriod;
  }
  slots_.resize(depth);
  for (uint32_t i = 0; i < depth; ++i) {
    slots_[i].pool = vk::raii::CommandPool(
        dev, vk::CommandPoolCreateInfo{.flags = vk::CommandPoolCreateFlagBits::eTransient,
                                       .queueFamilyIndex = device_->queue_family()});
    vk::raii::CommandBuffers buffers(dev,
                                     vk::CommandBufferAllocateInfo{.commandPool = *slots_[i].pool,
                                                                   .level = vk::CommandBufferLevel::ePrimary,
                                                                   .commandBufferCount = 1});
    slots_[i].cmd = std::move(buffers.front());
    slots_[i].fence = vk::raii::Fence(dev, vk::FenceCreateInfo{});
    device_->set_name(*slots_[i].cmd, name);
    device_->set_name(*slots_[i].fence, name);
  }
}

CommandRing::~CommandRing() {
  // Command buffers and fences must not be destroyed while the GPU still uses them: owners that
  // cannot wait hand the ring to release_after_gpu() (reaper.hpp), so nothing is pending here.
  if (wait_all(0) == Completion::kPending) GST_ERROR("command ring destroyed with work still pending");
}

vk::CommandBuffer CommandRing::begin(uint32_t slot) {
  Slot& s = slots_[slot];
  if (s.submitted) {
    device_->device().resetFences(*s.fence);
    s.submitted = false;
  }
  s.pool.reset();
  s.cmd.begin(vk::CommandBufferBeginInfo{.flags = vk::CommandBufferUsageFlagBits::eOneTimeSubmit});
  s.timed = *timestamps_ && begun_++ % timestamp_interval_ == 0;
  if (s.timed) s.cmd.resetQueryPool(*timestamps_, 2 * slot, 2);
  return *s.cmd;
}

void CommandRing::start_timing(uint32_t slot) {
  Slot& s = slots_[slot];
  if (s.timed) s.cmd.writeTimestamp(vk::PipelineStageFlagBits::eTopOfPipe, *timestamps_, 2 * slot);
}

void CommandRing::submit(uint32_t slot) {
  Slot& s = slots_[slot];
  if (s.timed) s.cmd.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *timestamps_, 2 * slot + 1);
  s.cmd.end();
  vk::CommandBuffer cmd = *s.cmd;
  device_->submit(vk::SubmitInfo{.commandBufferCount = 1, .pCommandBuffers = &cmd}, *s.fence);
  s.submitted = true;
}

bool CommandRing::done(uint32_t slot) const {
  const Slot& s = slots_[slot];
  try {
    return !s.submitted || s.fence.getStatus() == vk::Result::eSuccess;
  } catch (const vk::DeviceLostError&) {
    return true;
  }
}

Completion CommandRing::wait(uint32_t slot, uint64_t timeout_ns) const {
  const Slot& s = slots_[slot];
  if (!s.submitted) return Completion::kDone;
  return wait_fences({*s.fence}, timeout_ns);
}

Completion CommandRing::wait_all(uint64_t timeout_ns) const {
  std::vector<vk::Fence> fences;
  for (const Slot& s : slots_)
    if (s.submitted) fences.push_back(*s.fence);
  return fences.empty() ? Completion::kDone : wait_fences(fences, timeout_ns);
}

Completion CommandRing::wait_fences(const std::vector<vk::Fence>& fences, uint64_t timeout_ns) const {
  try {
    return device_->device().waitForFences(fences, VK_TRUE, timeout_ns) == vk::Result::eSuccess
               ? Completion::kDone
               : Completion::kPending;
  } catch (const vk::DeviceLostError&) {
    return Completion::kLost;
  }
}

double CommandRing::gpu_time_ns(uint32_t slot) const {
  if (!slots_[slot].timed || !slots_[slot].submitted) return -1;
  uint64_t ticks[2];
  auto result = (*device_->device())
                    .getQueryPoolResults(*timestamps_, 2 * slot, 2, sizeof(ticks), ticks, sizeof(uint64_t),
                                         vk::QueryResultFlagBits::e64, *device_->device().getDispatcher());
  if (result != vk::Result::eSuccess) return -1;
  return double(ticks[1] - ticks[0]) * timestamp_period_ns_;
}

}  // namespace vkc
