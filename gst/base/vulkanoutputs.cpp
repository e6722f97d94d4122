#include "vulkanoutputs.hpp"

namespace vkc {

bool VulkanOutputs::bind(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info,
                         const VulkanBridge::QueueOf& queue_of, FrameLayout& layout, std::string& error) {
  // A pool of another device after a renegotiation: its frames in flight were drained first.
  if (!bridge_ || !bridge_->serves(buffer)) {
    bridge_.reset();
    bridge_ = VulkanBridge::make(buffer, queue_of, uint32_t(targets_.size()), error);
    if (!bridge_) return false;
    const bool on_gpu = bridge_->same_device(*device_);
    if (on_gpu != on_gpu_)
      for (auto& target : targets_) target.reset();  // of the other kind
    on_gpu_ = on_gpu;
  }
  gsize offsets[GST_VIDEO_MAX_PLANES] = {}, strides[GST_VIDEO_MAX_PLANES] = {}, bytes = 0;
  if (!bridge_->bind_output(slot, buffer, info, on_gpu_, offsets, strides, bytes, error)) return false;
  std::unique_ptr<Buffer>& target = targets_[slot];
  if (!target || target->size() < bytes) {
    target.reset();
    target = on_gpu_ ? Buffer::create_device(device_, bytes, "vkcompute output for GStreamer's Vulkan images")
                     : Buffer::create_host(device_, bytes, "vkcompute output for GStreamer's Vulkan images");
  }
  layout = FrameLayout{};
  layout.buffer = target->handle();
  layout.device_local = on_gpu_;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
    layout.offset[p] = uint32_t(offsets[p]);
    layout.stride[p] = uint32_t(strides[p]);
  }
  return true;
}

void VulkanOutputs::record_write(uint32_t slot, Commands cmd, CommandRing& ring) {
  std::vector<std::pair<VkSemaphore, uint64_t>> waits, signals;
  bridge_->record_write(slot, cmd, targets_[slot]->handle(), waits, signals);
  for (const auto& [semaphore, value] : waits) ring.wait_before(slot, vk::Semaphore(semaphore), value);
  for (const auto& [semaphore, value] : signals) ring.signal_after(slot, vk::Semaphore(semaphore), value);
}

bool VulkanOutputs::copy_out(uint32_t slot, std::string& error) {
  if (!bridge_ || !targets_[slot]) {
    error = "no output bound to slot " + std::to_string(slot);
    return false;
  }
  return bridge_->copy_out(slot, targets_[slot]->mapped(), error);
}

}  // namespace vkc
