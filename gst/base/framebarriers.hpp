// The barriers the base class records around each frame's work, for every element alike: before
// it, after all earlier work on the device's compute queue; after it, towards the CPU's reads. The
// frame stream records them (framestream.cpp), and so does the device-resident timing
// (residenttiming.hpp), so that what it times is a frame as a stream records it.
#pragma once

#include "vk/commands.hpp"

namespace vkc {

// Orders a frame's commands after every command submitted before on the device's compute queue,
// which every element's kernels share: a frame in device memory was written by the element
// upstream's work, and the output buffers written here may still be read by the work of the
// element downstream. Both are ahead in the queue: the input's write because binding it sent the
// batch that held it (vkc::order_after_write()), the earlier reads because their frames hold the
// buffers until they are done. So the queue's order and this barrier suffice: no CPU wait. (The copy
// queues touch only a slot's own copies and host memory, ordered by the slot's semaphores:
// vkc::ChainEnds.)
void record_after_earlier_work(Commands cmd);

// Makes the kernels' writes to host-visible memory visible to the CPU once the frame is done.
void record_to_host(Commands cmd);

}  // namespace vkc
