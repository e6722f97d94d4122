// The buffer pools of our frames: GstVideoBufferPool that allocates each buffer when it is first
// needed, never ahead. A pool's minimum (what the ALLOCATION query says the element may hold: its
// ring of frames plus what downstream holds, and what upstream sets in the config of a pool we offer)
// is then a bound that lets a stream that runs ahead keep every slot busy, not memory held from the
// start: a live stream with a frame or two in flight holds a frame or two. Growing is cheap: frames
// are placed in the device's memory blocks (vk/memory_blocks.hpp), not allocated from the driver
// one by one, which stalled every stream when pools grew under load.
#pragma once

#include <gst/gst.h>

// A video buffer pool whose buffers are allocated from `allocator` when first acquired, with
// GstVideoMeta, and no maximum.
GstBufferPool* gst_vkcompute_buffer_pool_new(GstAllocator* allocator, GstCaps* caps, guint size,
                                             guint min_buffers);
