#include "staging.hpp"

namespace vkc {

SlotCopies::SlotCopies(std::shared_ptr<Device> device, uint32_t slots)
    : device_(std::move(device)), slots_(slots) {}

FrameLayout SlotCopies::moved(std::unique_ptr<Buffer>& buffer, const char* name, const GstVideoInfo& info,
                              const FrameLayout& layout, guint n_planes, bool& created) {
  vk::DeviceSize bytes = 0;
  FrameLayout copy = packed_from_zero(info, layout, n_planes, bytes);
  created = !buffer || buffer->size() < bytes;
  if (created) buffer = Buffer::create_device(device_, bytes, name);
  copy.buffer = buffer->handle();
  copy.device_local = true;
  return copy;
}

FrameLayout SlotCopies::input_copy(uint32_t slot, const GstVideoInfo& info, const FrameLayout& layout,
                                   guint n_planes) {
  bool created = false;
  return moved(slots_[slot].input, "vkcompute input copy", info, layout, n_planes, created);
}

vk::Buffer SlotCopies::input_copy(uint32_t slot, vk::DeviceSize bytes) {
  std::unique_ptr<Buffer>& buffer = slots_[slot].input;
  if (!buffer || buffer->size() < bytes)
    buffer = Buffer::create_device(device_, bytes, "vkcompute input copy");
  return buffer->handle();
}

FrameLayout SlotCopies::output_copy(uint32_t slot, vk::CommandBuffer cmd, const GstVideoInfo& info,
                                    const FrameLayout& layout) {
  bool created = false;
  FrameLayout copy =
      moved(slots_[slot].output, "vkcompute output copy", info, layout, GST_VIDEO_MAX_PLANES, created);
  if (created) cmd.fillBuffer(copy.buffer, 0, VK_WHOLE_SIZE, 0);
  return copy;
}

ChainEnds::ChainEnds(CommandRing& ring, SlotCopies& copies, const GstVideoInfo& in_info,
                     const GstVideoInfo& out_info, Frame& frame)
    : ring_(ring),
      copies_(copies),
      in_info_(in_info),
      out_info_(out_info),
      frame_(frame),
      host_out_(frame.out) {
  upload_ = frame.outbuf && !frame.in.device_local && frame.out.device_local;
  download_ = frame.outbuf && frame.in.device_local && !frame.out.device_local;
  if (download_) frame.out = copies_.output_copy(frame.slot, frame.cmd, out_info_, frame.out);
}

void ChainEnds::upload() {
  if (!upload_) return;
  const FrameLayout copy = copies_.input_copy(frame_.slot, in_info_, frame_.in, GST_VIDEO_MAX_PLANES);
  record_frame_transfer(ring_.begin_upload(frame_.slot), in_info_, frame_.in, copy);
  frame_.in = copy;
}

void ChainEnds::download() {
  if (!download_) return;
  vk::CommandBuffer cmd = ring_.begin_download(frame_.slot);
  record_frame_transfer(cmd, out_info_, frame_.out, host_out_);
  vk::MemoryBarrier to_host{.srcAccessMask = vk::AccessFlagBits::eTransferWrite,
                            .dstAccessMask = vk::AccessFlagBits::eHostRead};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eHost, {}, to_host,
                      nullptr, nullptr);
  frame_.out = host_out_;
}

}  // namespace vkc
