// Releases what GPU work may still touch after its owner has let go of it: a frame that is still
// running when its element stops, or one that outlived the frame timeout. Freeing such memory
// earlier would let the device (or lavapipe's threads) write into freed memory; waiting for it
// would keep a state change from finishing.
#pragma once

#include <memory>

#include "submit.hpp"

namespace vkc {

// Keeps `resources` and `ring` until every submission of the ring has completed or the device
// is lost, then frees them (resources first) on a process-wide thread. Returns at once.
void release_after_gpu(std::unique_ptr<CommandRing> ring, std::shared_ptr<void> resources);

}  // namespace vkc
