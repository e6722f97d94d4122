// A filter's outputs in GStreamer's Vulkan image memory (memory:VulkanImage) on a GstVulkanDevice that
// the element does not run on (vulkanbridge.hpp): the frame is downloaded, as for system memory, into a
// host-visible buffer of ours laid out as the bridge's host memory of the slot; once the frame is done
// the CPU copies it there, and GStreamer's device copies it into the images of GStreamer's pool
// (VulkanBridge::copy_out()), on the queue of the elements downstream, under its submit lock.
#pragma once

#include <gst/video/video.h>

#include <memory>
#include <string>
#include <vector>

#include "frame.hpp"
#include "vk/memory.hpp"
#include "vulkanbridge.hpp"

namespace vkc {

class Device;

class VulkanOutputs {
 public:
  VulkanOutputs(std::shared_ptr<Device> device, uint32_t slots)
      : device_(std::move(device)), targets_(slots) {}

  // Binds `buffer` (images of GStreamer's pool, an image per plane of `info`) as `slot`'s output, whose
  // previous frame has completed: `layout` is then where the frame's download writes. `queue_of` gives
  // the queue of the elements downstream (VulkanBridge::make()). False with `error` naming the fault.
  bool bind(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info, const VulkanBridge::QueueOf& queue_of,
            FrameLayout& layout, std::string& error);
  // Once the frame is done: its bytes into the images bound to `slot`. Waits for GStreamer's copy.
  bool copy_out(uint32_t slot, std::string& error);

 private:
  std::shared_ptr<Device> device_;
  std::unique_ptr<VulkanBridge> bridge_;
  std::vector<std::unique_ptr<Buffer>> targets_;  // by slot: host-visible, ours
};

}  // namespace vkc
