#include "staging.hpp"

#include <algorithm>

namespace vkc {

SlotCopies::SlotCopies(std::shared_ptr<Device> device, const CommandRing& ring)
    : device_(std::move(device)),
      ring_(ring),
      staging_(ring.depth()),
      inputs_(ring.depth()),
      outputs_(ring.depth()) {}

Buffer& SlotCopies::slot_buffer(uint32_t slot, Copies& copies, vk::DeviceSize bytes, const char* name,
                                bool& created) {
  // This slot's frame is about to be recorded, so its previous one has completed too.
  uint32_t busy = 0;
  for (uint32_t other = 0; other < copies.by_slot.size(); ++other) {
    std::unique_ptr<Buffer>& copy = copies.by_slot[other];
    if (!copy) continue;
    if (other == slot || ring_.idle(other))
      copies.spare.push_back(std::move(copy));
    else
      ++busy;
  }
  const int64_t now_ns = g_get_monotonic_time() * 1000;
  copies.in_use.note(busy + 1, now_ns);
  auto fits = std::find_if(copies.spare.begin(), copies.spare.end(),
                           [&](const std::unique_ptr<Buffer>& spare) { return spare->size() >= bytes; });
  if (fits != copies.spare.end() && (*fits)->worth_moving()) {
    copies.spare.erase(fits);  // its frames completed: freed now, and made again below
    fits = copies.spare.end();
  }
  created = fits == copies.spare.end();
  std::unique_ptr<Buffer>& copy = copies.by_slot[slot];
  if (created) {
    copy = Buffer::create_device(device_, bytes, name);
    copies.in_use.made(now_ns);
  } else {
    copy = std::move(*fits);
    copies.spare.erase(fits);
  }
  // Spares too small for this frame, or beyond what was in use lately, go: their frames completed.
  copies.spare.erase(
      std::remove_if(copies.spare.begin(), copies.spare.end(),
                     [&](const std::unique_ptr<Buffer>& spare) { return spare->size() < bytes; }),
      copies.spare.end());
  while (!copies.spare.empty() && busy + 1 + copies.spare.size() > copies.in_use.keep()) {
    copies.spare.pop_back();
    copies.in_use.gave_back(now_ns);
  }
  return *copy;
}

FrameLayout SlotCopies::moved(uint32_t slot, Copies& copies, const char* name, const GstVideoInfo& info,
                              const FrameLayout& layout, guint n_planes, bool& created) {
  vk::DeviceSize bytes = 0;
  FrameLayout copy = packed_from_zero(info, layout, n_planes, bytes);
  copy.buffer = slot_buffer(slot, copies, bytes, name, created).handle();
  copy.device_local = true;
  return copy;
}

FrameLayout SlotCopies::input_copy(uint32_t slot, const GstVideoInfo& info, const FrameLayout& layout,
                                   guint n_planes) {
  bool created = false;
  return moved(slot, inputs_, "vkcompute input copy", info, layout, n_planes, created);
}

vk::Buffer SlotCopies::input_copy(uint32_t slot, vk::DeviceSize bytes) {
  bool created = false;
  return slot_buffer(slot, inputs_, bytes, "vkcompute input copy", created).handle();
}

FrameLayout SlotCopies::output_copy(uint32_t slot, Commands cmd, const GstVideoInfo& info,
                                    const FrameLayout& layout) {
  bool created = false;
  FrameLayout copy =
      moved(slot, outputs_, "vkcompute output copy", info, layout, GST_VIDEO_MAX_PLANES, created);
  if (created) {
    // Once per slot: the kernels, or an analysis's copy of its input, write it next.
    cmd.fillBuffer(copy.buffer, 0, VK_WHOLE_SIZE, 0);
    vk::MemoryBarrier filled{
        .srcAccessMask = vk::AccessFlagBits::eTransferWrite,
        .dstAccessMask = vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eShaderWrite |
                         vk::AccessFlagBits::eTransferRead | vk::AccessFlagBits::eTransferWrite};
    cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer,
                        vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer, {},
                        filled, nullptr, nullptr);
  }
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
  Commands cmd = ring_.begin_download(frame_.slot);
  record_frame_transfer(cmd, out_info_, frame_.out, host_out_);
  vk::MemoryBarrier to_host{.srcAccessMask = vk::AccessFlagBits::eTransferWrite,
                            .dstAccessMask = vk::AccessFlagBits::eHostRead};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eHost, {}, to_host,
                      nullptr, nullptr);
  frame_.out = host_out_;
}

}  // namespace vkc
