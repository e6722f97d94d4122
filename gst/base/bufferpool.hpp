// The buffer pools of our frames: GstVideoBufferPool that allocates each buffer when it is first
// needed, never ahead. A pool's minimum (what the ALLOCATION query says the element may hold, and
// what upstream sets in the config of a pool we offer) is then a bound, not memory held from the
// start: a live stream with one frame in flight holds one or two frames however deep the ring.
#pragma once

#include <gst/gst.h>

// A video buffer pool whose buffers are allocated from `allocator`, with GstVideoMeta.
GstBufferPool* gst_vkcompute_buffer_pool_new(GstAllocator* allocator, GstCaps* caps, guint size,
                                             guint min_buffers);
