#include "vulkanoutputs.hpp"

namespace vkc {

bool VulkanOutputs::bind(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info,
                         const VulkanBridge::QueueOf& queue_of, FrameLayout& layout, std::string& error) {
  // A pool of another device after a renegotiation: its frames in flight were drained first.
  if (!bridge_ || !bridge_->serves(buffer)) {
    bridge_.reset();
    bridge_ = VulkanBridge::make(buffer, queue_of, uint32_t(targets_.size()), error);
    if (!bridge_) return false;
  }
  gsize offsets[GST_VIDEO_MAX_PLANES] = {}, strides[GST_VIDEO_MAX_PLANES] = {}, bytes = 0;
  if (!bridge_->bind_output(slot, buffer, info, offsets, strides, bytes, error)) return false;
  std::unique_ptr<Buffer>& target = targets_[slot];
  if (!target || target->size() < bytes) {
    target.reset();
    target = Buffer::create_host(device_, bytes, "vkcompute output for GStreamer's Vulkan images");
  }
  layout = FrameLayout{};
  layout.buffer = target->handle();
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
    layout.offset[p] = uint32_t(offsets[p]);
    layout.stride[p] = uint32_t(strides[p]);
  }
  return true;
}

bool VulkanOutputs::copy_out(uint32_t slot, std::string& error) {
  if (!bridge_ || !targets_[slot]) {
    error = "no output bound to slot " + std::to_string(slot);
    return false;
  }
  return bridge_->copy_out(slot, targets_[slot]->mapped(), error);
}

}  // namespace vkc
