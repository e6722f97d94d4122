#include "staging.hpp"

namespace vkc {

SlotCopies::SlotCopies(std::shared_ptr<Device> device, const CommandRing& ring)
    : device_(std::move(device)), ring_(ring), slots_(ring.depth()) {}

Buffer& SlotCopies::slot_buffer(uint32_t slot, Member member, vk::DeviceSize bytes, const char* name,
                                bool& created) {
  const int64_t now_ns = g_get_monotonic_time() * 1000;
  Copy& copy = slots_[slot].*member;
  copy.used_ns = now_ns;
  created = false;
  for (uint32_t other = 0; other < slots_.size(); ++other) {
    Copy& idle = slots_[other].*member;
    if (other == slot || !idle.buffer || !ring_.idle(other)) continue;
    if (!(copy.buffer && copy.buffer->size() >= bytes) && idle.buffer->size() >= bytes)
      copy.buffer = std::move(idle.buffer);
    else if (now_ns - idle.used_ns > kIdleNs)
      idle.buffer.reset();  // its slot's frame has completed: the GPU is done with it
  }
  if (!(copy.buffer && copy.buffer->size() >= bytes)) {
    copy.buffer = Buffer::create_device(device_, bytes, name);
    created = true;
  }
  return *copy.buffer;
}

FrameLayout SlotCopies::moved(uint32_t slot, Member member, const char* name, const GstVideoInfo& info,
                              const FrameLayout& layout, guint n_planes, bool& created) {
  vk::DeviceSize bytes = 0;
  FrameLayout copy = packed_from_zero(info, layout, n_planes, bytes);
  copy.buffer = slot_buffer(slot, member, bytes, name, created).handle();
  copy.device_local = true;
  return copy;
}

FrameLayout SlotCopies::input_copy(uint32_t slot, const GstVideoInfo& info, const FrameLayout& layout,
                                   guint n_planes) {
  bool created = false;
  return moved(slot, &Slot::input, "vkcompute input copy", info, layout, n_planes, created);
}

vk::Buffer SlotCopies::input_copy(uint32_t slot, vk::DeviceSize bytes) {
  bool created = false;
  return slot_buffer(slot, &Slot::input, bytes, "vkcompute input copy", created).handle();
}

FrameLayout SlotCopies::kernel_input_copy(const GstVideoInfo& info, const FrameLayout& layout,
                                          guint n_planes) {
  vk::DeviceSize bytes = 0;
  FrameLayout copy = packed_from_zero(info, layout, n_planes, bytes);
  if (!kernel_input_ || kernel_input_->size() < bytes) {
    // Frames in flight may still read the smaller one: it goes with the rest, after the GPU.
    if (kernel_input_) outgrown_.push_back(std::move(kernel_input_));
    kernel_input_ = SharedScratch::get(device_, "vkcompute kernel input copy", bytes);
  }
  copy.buffer = (*kernel_input_)[0];
  copy.device_local = true;
  return copy;
}

FrameLayout SlotCopies::output_copy(uint32_t slot, vk::CommandBuffer cmd, const GstVideoInfo& info,
                                    const FrameLayout& layout) {
  bool created = false;
  FrameLayout copy =
      moved(slot, &Slot::output, "vkcompute output copy", info, layout, GST_VIDEO_MAX_PLANES, created);
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
