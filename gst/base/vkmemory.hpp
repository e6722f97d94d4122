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

// The Vulkan buffer behind `mem` when it came from an allocator of ours (either kind) on
// `device`, else null; `device_local` says which kind. The memory's data starts at byte
// mem->offset of that buffer.
const vkc::Buffer* gst_vkcompute_memory_get_buffer(GstMemory* mem, const vkc::Device& device,
                                                   bool* device_local = nullptr);
