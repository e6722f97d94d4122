// vkc::SharedScratch: device-local buffers that live only inside one frame's commands on the
// compute queue (morph's working images, the device copy of an analysis element's input), shared
// by every element instance and stream on the device that asks for the same name and size.
//
// Sharing is safe because a frame that uses them records, before its first use, the barrier that
// orders its commands after all work submitted earlier to the compute queue
// (vkc::order_after_earlier_work()): frames that use them run one after the other there, so no two
// use a scratch buffer at once, and a frame's writes to it never overtake an earlier frame's reads.
// Work on the copy queues is not ordered by that barrier: buffers that uploads or downloads touch
// stay with their ring slot (vkc::SlotCopies).
//
// One stream of 1080p frames thus holds no working images of its own: the device holds one set per
// size, however many streams use it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "vk/memory.hpp"

namespace vkc {

class SharedScratch {
 public:
  // `count` buffers of at least `bytes` each, named `name`, shared with every holder of the same
  // name, size and count on `device`. They stay while someone holds them.
  static std::shared_ptr<const SharedScratch> get(const std::shared_ptr<Device>& device, const char* name,
                                                  vk::DeviceSize bytes, uint32_t count = 1);

  vk::Buffer operator[](size_t index) const { return buffers_[index]->handle(); }
  vk::DeviceSize size() const { return buffers_.front()->size(); }

  SharedScratch(const std::shared_ptr<Device>& device, const char* name, vk::DeviceSize bytes,
                uint32_t count);

 private:
  std::vector<std::unique_ptr<Buffer>> buffers_;
};

}  // namespace vkc
