// The barrier a frame's work may need before it: after all earlier work on the device's compute
// queue, which every element's kernels share. Recorded only where the frame must wait: a barrier
// waits for everything before it on the queue, so one before every frame kept independent frames
// (a stream's, the device's other streams') from overlapping on the GPU; 16 frames of lumamax
// recorded back to back took 13.1 us each with it and 7.3 without (H200, run 192; docs/benchmarks.md).
//
// A frame waits when
// - its input in device memory may still be being written there (the element upstream's frame:
//   vkc::write_may_be_running()), or its commands copied the input into the slot themselves;
// - its output in device memory may still be being written by an earlier frame of this element
//   (a buffer that came back to the pool before the GPU was done with it);
//   in both cases unless a barrier that the same thread submitted after that write already orders it
//   (waits_for_write()): in a chain, the first analysis after morph waits for morph's frame, and the
//   analyses and rgb2yuv after it, which read the same frame, do not wait again;
// - it uses buffers shared with other frames on the device (vkc::SharedScratch: morph's working
//   images), which the operation says by calling order_after_earlier_work() itself.
// Nothing else needs it: a reader holds the buffers it reads until its work is done (so the pool
// hands them to a writer only afterwards), a ring slot is recorded again only once its earlier
// frame is done, uploads and CUDA's copies are waited for by semaphores, and the CPU's reads are
// made visible at the end of each submission (vk/host_tail.hpp).
//
// The frame stream (framestream.cpp) and the device-resident timing (residenttiming.hpp) both
// record it, so that what the timing measures is a frame as a stream records it.
#pragma once

#include "frame.hpp"
#include "vkmemory.hpp"

namespace vkc {

// Whether a frame that reads or writes `mem` must wait for the GPU's last write to it: the write may
// still run (vkc::write_may_be_running()) and no barrier after earlier work that this thread
// submitted to `device` after it orders it (a thread's submissions reach the queue in the order it
// makes them, through its batch too).
bool waits_for_write(GstMemory* mem, const Device& device);

// Notes `frame` as submitted to `device`'s compute queue by this thread (its barrier, if it
// recorded one); returns the frame's place, for the memory it writes
// (gst_vkcompute_memory_set_written()).
WriteOrder note_submitted(const Device& device, const Frame& frame);

// Orders the frame's commands recorded from now on after every command submitted before on the
// compute queue, once per frame (Frame::after_earlier_work). The input's write is ahead in the
// queue: binding it sent the batch that held it (vkc::order_after_write()).
void order_after_earlier_work(Frame& frame);

}  // namespace vkc
