// The buffer pools of our frames. A pool starts with kPreallocatedFrames frames (what a live stream
// has in flight: one being filled, one being worked on) and allocates more when they are all out,
// never more than the frames really in flight at once; it does not preallocate the minimum that the
// ALLOCATION query reports (the element's ring of frames plus what downstream holds), which only
// a stream that falls behind, or runs unpaced, ever uses.
#pragma once

#include <gst/gst.h>

namespace vkc {
constexpr guint kPreallocatedFrames = 2;
}  // namespace vkc

// A video buffer pool whose buffers are allocated from `allocator`, with GstVideoMeta; it starts
// with `preallocated` of them and grows without bound.
GstBufferPool* gst_vkcompute_buffer_pool_new(GstAllocator* allocator, GstCaps* caps, guint size,
                                             guint preallocated);
