// Releases what GPU work may still touch after its owner has let go of it: a frame that is still
// running when its element stops, or one that outlived the frame timeout. Freeing such memory
// earlier would let the device (or lavapipe's threads) write into freed memory; waiting for it
// would keep a state change from finishing.
#pragma once

#include <chrono>
#include <memory>

#include "submit.hpp"

namespace vkc {

// Keeps `resources` and `ring` until every submission of the ring has completed or the device
// is lost, then frees them (resources first) on a process-wide thread. Returns at once.
void release_after_gpu(std::unique_ptr<CommandRing> ring, std::shared_ptr<void> resources);

// Keeps `resources` until `device`'s compute queue has finished every command submitted to it
// before this call, then frees them on the same thread. Submits nothing on the calling thread but
// its own batch (batch.hpp), so any thread may call it, whatever it holds, and waits for nothing:
// device memory that a pool gives back, running or stopping (the reaper's thread submits one empty
// command buffer after that work for every job of the device handed over by then).
//
// An exiting process releases the reaper's jobs as the GPU finishes them (a few seconds at most)
// before the driver's own teardown: a device that only they held closes then.
void release_after_queue(std::shared_ptr<Device> device, std::shared_ptr<void> resources);

// Another library made a Vulkan instance (GStreamer's Vulkan elements): the drivers it loaded
// register their exit handlers after the reaper's, so the reaper's is registered again, to run
// before theirs (exit handlers run in the reverse order of their registration).
void after_other_instance();

// Keeps `resources` until `when`, then frees them on the same thread: work that may wait, and should
// not run on the caller's thread. A process that exits does not wait for them; they stay.
void release_at(std::chrono::steady_clock::time_point when, std::shared_ptr<void> resources);

}  // namespace vkc
