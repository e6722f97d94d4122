// GstMemory backed by Vulkan buffers of one device, in two kinds:
// - host-visible memory ("VkComputeMemory", plain system memory in caps): upstream elements write
//   frames straight into memory the GPU reads, downstream elements read results where the GPU
//   wrote them;
// - device-local memory ("VkComputeDeviceMemory", caps feature memory:VkComputeDevice): frames
//   passed between two vkcompute elements on the same device (memorycaps.hpp), which the CPU never
//   touches.
//   Mapping it still works, for any element that gets it (a tee to a filesink): the map reads the
//   frame back from the GPU, and a write map sends it up again at unmap.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <atomic>
#include <memory>

#include "vk/memory.hpp"
#include "vk/timeline.hpp"

#define GST_VKCOMPUTE_MEMORY_TYPE "VkComputeMemory"
#define GST_VKCOMPUTE_DEVICE_MEMORY_TYPE "VkComputeDeviceMemory"

namespace vkc {
// Frames that crossed between host and device memory for an element (its `uploads` and
// `downloads` properties). Shared with its device-memory allocator, which counts the frames that
// CPU maps read back.
struct TransferCounts {
  std::atomic<guint64> uploads{0};
  std::atomic<guint64> downloads{0};
};
}  // namespace vkc

// An allocator of host-visible Vulkan memory on `device` (a new GstAllocator reference).
GstAllocator* gst_vkcompute_allocator_new(std::shared_ptr<vkc::Device> device);

// An allocator of device-local Vulkan memory on `device`; reads back by CPU maps are counted as
// downloads in `counts`.
GstAllocator* gst_vkcompute_device_allocator_new(std::shared_ptr<vkc::Device> device,
                                                 std::shared_ptr<vkc::TransferCounts> counts);

// Device-local memory carries where the GPU's last write to it ends: the element that writes a
// frame there sets the point when it submits the work (or adds it to its thread's batch), and
// every reader orders its work after it (vkc::order_after_write()). So whichever thread reads the
// frame, and whatever lies between writer and reader, the read sees the write.
//
// With the point, where the write stands among the frames its thread submitted to the device's compute
// queue (vkc::WriteOrder, framebarriers.hpp): a reader on that thread needs no barrier of its own when
// one the thread submitted since already orders the write.
namespace vkc {
struct WriteOrder {
  uint64_t thread = 0;  // 0: unknown
  uint64_t frame = 0;
};
}  // namespace vkc
void gst_vkcompute_memory_set_written(GstMemory* mem, std::shared_ptr<const vkc::SubmitPoint> point,
                                      vkc::WriteOrder order = {});

namespace vkc {
// Orders what the calling thread submits to `device`'s compute queue from now on after the GPU's
// last write to `mem` (nothing to do unless it is device-local memory of ours): a write still in
// another thread's batch is sent now (batch::submit()); one on the same compute queue is then ahead
// in the queue, and the reader's barrier after earlier work (write_may_be_running()) makes it visible. A
// write on another queue or device is waited for by the CPU, up to `timeout_ns`. kDone when ordered.
Completion order_after_write(GstMemory* mem, const Device& device, uint64_t timeout_ns);
// Whether the GPU's last write to `mem` (device-local memory of ours) was on `device`'s compute queue
// and may not be done yet: not yet submitted, or beyond what a read of the queue's timeline last
// found reached (no driver call). Work that touches `mem` then orders itself after it with a barrier
// (framebarriers.hpp); `order` (when given) gets where its writer placed it.
bool write_may_be_running(GstMemory* mem, const Device& device, WriteOrder* order = nullptr);
}  // namespace vkc

// Whether `mem`, memory of ours of either kind, sits in a memory block that is not nearly full, which a
// fuller one could take it from (vkc::Buffer::worth_moving()); false for any other memory. A pool's
// GstVkComputeWorthMoving.
bool gst_vkcompute_memory_worth_moving(GstMemory* mem);

// GstMemory flag on host memory of ours: another device imported it (vkc::InputBinding, a frame
// crossing between GPUs) and keeps the import on it for as long as it lives.
constexpr guint GST_VKCOMPUTE_MEMORY_FLAG_IMPORTED = GST_MEMORY_FLAG_LAST << 1;

// Whether another device has imported `mem`: freed, its import goes too (which unpins its pages in
// that device's driver: on NVIDIA a call into the GPU's firmware), and the frame made in its place
// is imported anew (its pages pinned again). A pool's GstVkComputeDearToFree: a pool of frames that
// cross between GPUs keeps them.
bool gst_vkcompute_memory_imported_elsewhere(GstMemory* mem);

// The Vulkan buffer behind `mem` when it came from an allocator of ours (either kind) on
// `device`, else null; `device_local` says which kind. The memory's data starts at byte
// mem->offset of that buffer.
const vkc::Buffer* gst_vkcompute_memory_get_buffer(GstMemory* mem, const vkc::Device& device,
                                                   bool* device_local = nullptr);
