// Where a frame is staged between host and device memory: the per-slot buffers that hold a
// frame's copies (vkc::SlotCopies), and the copies at the two ends of a chain in device memory,
// which run on the device's copy queues (vkc::ChainEnds).
#pragma once

#include <gst/video/video.h>

#include <memory>
#include <vector>

#include "frame.hpp"
#include "recentpeak.hpp"
#include "vk/submit.hpp"

namespace vkc {

// Buffers of each ring slot, made on demand, reused once the slot's previous frame has completed:
// a host-visible staging buffer for CPU copies (InputBinding), and device-local copies of a frame's
// input and output. A slot without a copy takes one from a slot whose frame has completed before
// it makes one, so an element holds as many copies as it has frames really in flight (one in a
// live stream), not one per slot of its ring; what a burst made (more frames in flight for a
// moment) is freed once it is past (RecentPeak).
class SlotCopies {
 public:
  SlotCopies(std::shared_ptr<Device> device, const CommandRing& ring);

  // The slot's staging buffer, for InputBinding::bind().
  std::unique_ptr<Buffer>& staging(uint32_t slot) { return staging_[slot]; }
  // `layout`'s planes [0, n_planes), moved into the slot's input copy with the same strides.
  FrameLayout input_copy(uint32_t slot, const GstVideoInfo& info, const FrameLayout& layout, guint n_planes);
  // The slot's input copy, at least `bytes` long: a frame gathered from several memories.
  vk::Buffer input_copy(uint32_t slot, vk::DeviceSize bytes);
  // `layout` moved into the slot's output copy with the same strides. A new copy is zeroed by a
  // fill recorded into `cmd`, so that its row padding, which no kernel writes, reads the same in
  // every run; a barrier after it orders the fill before the kernels.
  FrameLayout output_copy(uint32_t slot, Commands cmd, const GstVideoInfo& info, const FrameLayout& layout);

 private:
  // Device copies of one kind (input or output): the slots' own, and spares from slots whose frames
  // have completed, kept as many as were in use at once lately.
  struct Copies {
    explicit Copies(size_t slots) : by_slot(slots) {}
    std::vector<std::unique_ptr<Buffer>> by_slot;
    std::vector<std::unique_ptr<Buffer>> spare;
    RecentPeak in_use;
  };
  // A copy of at least `bytes` for `slot`: a spare, or new. Copies of slots whose frames have
  // completed become spares first, and spares beyond what was in use at once lately are freed. With
  // giving back on, a spare in a block that is not nearly full is freed and made again in a fuller one
  // (MemoryBlocks::worth_moving()): a stream's copies live as long as it does, and left where a
  // burst put them they would keep blocks from emptying.
  Buffer& slot_buffer(uint32_t slot, Copies& copies, vk::DeviceSize bytes, const char* name, bool& created);
  FrameLayout moved(uint32_t slot, Copies& copies, const char* name, const GstVideoInfo& info,
                    const FrameLayout& layout, guint n_planes, bool& created);

  std::shared_ptr<Device> device_;
  const CommandRing& ring_;
  std::vector<std::unique_ptr<Buffer>> staging_;  // by slot
  Copies inputs_;
  Copies outputs_;
};

// The ends of a chain in device memory cross the bus by transfers on the device's copy queues
// (CommandRing::begin_upload(), begin_download()): the copy engines then move one frame while the
// kernels run on another, where the compute queue alone would run each frame's crossing and
// kernels one after the other. At the head (input in host memory, output in device memory) the
// input is uploaded into the slot's input copy before the kernels run; at the tail (input in device
// memory, output in host memory) the kernels write the slot's output copy, downloaded after them.
class ChainEnds {
 public:
  // Before the kernels: a new output copy is filled, with its own barrier.
  ChainEnds(CommandRing& ring, SlotCopies& copies, const GstVideoInfo& in_info, const GstVideoInfo& out_info,
            Frame& frame);
  // After the start barrier, if any: the head's upload (on a copy queue, which the frame's compute work
  // waits for); frame.in is then the input copy.
  void upload();
  // After the kernels: the tail's download, whose writes the CPU sees once the fence signals.
  // frame.out is the output buffer's own layout again.
  void download();

 private:
  CommandRing& ring_;
  SlotCopies& copies_;
  const GstVideoInfo& in_info_;
  const GstVideoInfo& out_info_;
  Frame& frame_;
  const FrameLayout host_out_;
  bool upload_ = false;
  bool download_ = false;
};

}  // namespace vkc
