// A filter's outputs in GStreamer's Vulkan image memory (memory:VulkanImage).
// - On the device the element runs on (GStreamer's, adopted: deviceshare.hpp): the kernels write a
//   device buffer of ours, and the frame's own commands copy it into the images after them
//   (VulkanBridge::record_write()), with GStreamer's timeline protocol; the frame leaves at submission,
//   as one in device memory of ours does. No host memory, no CPU copy.
// - On a GstVulkanDevice the element does not run on (vulkanbridge.hpp): the frame is downloaded, as
//   for system memory, into a host-visible buffer of ours laid out as the bridge's host memory of the
//   slot; once the frame is done the CPU copies it there, and GStreamer's device copies it into the
//   images of GStreamer's pool (VulkanBridge::copy_out()), on the queue of the elements downstream,
//   under its submit lock.
#pragma once

#include <gst/video/video.h>

#include <memory>
#include <string>
#include <vector>

#include "frame.hpp"
#include "vk/memory.hpp"
#include "vk/submit.hpp"
#include "vulkanbridge.hpp"

namespace vkc {

class Device;

class VulkanOutputs {
 public:
  VulkanOutputs(std::shared_ptr<Device> device, uint32_t slots)
      : device_(std::move(device)), targets_(slots) {}

  // Binds `buffer` (images of GStreamer's pool, an image per plane of `info`) as `slot`'s output, whose
  // previous frame has completed: `layout` is then where the frame's kernels or download write (device
  // memory when the images are on the device we run on: on_gpu()). `queue_of` gives the queue of the
  // elements downstream (VulkanBridge::make()). False with `error` naming the fault.
  bool bind(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info, const VulkanBridge::QueueOf& queue_of,
            FrameLayout& layout, std::string& error);
  // Whether the last bind() was of images on the device we run on.
  bool on_gpu() const { return on_gpu_; }
  // On that device: records into the frame's commands `cmd` of `ring`'s `slot`, after its kernels, the
  // copy of its output into the images (and the timeline points to wait for and signal).
  void record_write(uint32_t slot, Commands cmd, CommandRing& ring);
  // Else, once the frame is done: its bytes into the images bound to `slot`. Waits for GStreamer's copy.
  bool copy_out(uint32_t slot, std::string& error);

 private:
  std::shared_ptr<Device> device_;
  std::unique_ptr<VulkanBridge> bridge_;
  bool on_gpu_ = false;
  // By slot: ours, host-visible (through host memory) or device-local (on the GPU), as on_gpu_ says.
  std::vector<std::unique_ptr<Buffer>> targets_;
};

}  // namespace vkc
