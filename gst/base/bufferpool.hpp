// The buffer pools of our frames: GstVideoBufferPool that allocates each buffer when it is first
// needed, never ahead, and (when asked) lets go of buffers the stream no longer needs. A pool's minimum (what
// the ALLOCATION query says the element may hold: its ring of frames plus what downstream holds, and what
// upstream sets in the config of a pool we offer) is then a bound that lets a stream that runs ahead
// keep every slot busy, not memory held from the start: a live stream with a frame or two in flight
// holds a frame or two. Growing is cheap: frames are placed in the device's memory blocks
// (vk/memory_blocks.hpp), not allocated from the driver one by one, which stalled every stream when
// pools grew under load.
//
// A pool keeps (docs/design.md, "What a stream holds") as many buffers as were in use at once over the last
// one to two seconds (RecentPeak): a pool that grew while every stream of the process started at once, or
// while the GPU fell behind for a moment, gives the extra frames back once the stream runs steadily again,
// instead of holding them for its life; one whose bursts come back soon after a give-back remembers longer
// windows. It also frees a released buffer whose memory sits in a block that is not nearly full while a
// fuller block has room
// (`worth_moving`): the buffer made in its place goes to the fuller block, and the emptied block goes back to
// the driver. Neither happens to a buffer whose memory is dear to make again (`dear_to_free`: a frame another
// GPU has imported, whose import pins its pages).
#pragma once

#include <gst/gst.h>

// Whether freeing `memory` and allocating it again would place it better (giving back only).
using GstVkComputeWorthMoving = bool (*)(GstMemory* memory);
// Whether freeing `memory` would cost more than keeping it: the pool keeps it (giving back only).
using GstVkComputeDearToFree = bool (*)(GstMemory* memory);

// A video buffer pool whose buffers are allocated from `allocator` when first acquired, with
// GstVideoMeta, and no maximum.
GstBufferPool* gst_vkcompute_buffer_pool_new(GstAllocator* allocator, GstCaps* caps, guint size,
                                             guint min_buffers,
                                             GstVkComputeWorthMoving worth_moving = nullptr,
                                             GstVkComputeDearToFree dear_to_free = nullptr);
