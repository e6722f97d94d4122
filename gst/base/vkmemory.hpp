// GstMemory backed by host-visible Vulkan buffers: upstream elements write frames straight into
// memory the GPU reads, and downstream elements read results where the GPU wrote them.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <memory>

#include "vk/memory.hpp"

#define GST_VKCOMPUTE_MEMORY_TYPE "VkComputeMemory"

// An allocator of host-visible Vulkan memory on `device` (a new GstAllocator reference).
GstAllocator* gst_vkcompute_allocator_new(std::shared_ptr<vkc::Device> device);

// The Vulkan buffer behind `mem` when it came from an allocator of ours on `device`, else null.
// The memory's data starts at byte mem->offset of that buffer.
const vkc::Buffer* gst_vkcompute_memory_get_buffer(GstMemory* mem, const vkc::Device& device);

// A video buffer pool whose buffers are allocated from `allocator`, with GstVideoMeta.
GstBufferPool* gst_vkcompute_buffer_pool_new(GstAllocator* allocator, GstCaps* caps, guint size,
                                             guint min_buffers);
