// Running an element on GStreamer's VkDevice, the one of the Vulkan elements around it (GStreamer 1.24
// and later), so that their frames and ours are on one device: the verdict on whether that device can
// run our work, and the Device of ours adopted on it (Device::adopt()).
#pragma once

#include <gst/gst.h>

#include <memory>
#include <string>

#include "gstvk/elementcontext.hpp"
#include "vk/device.hpp"

namespace vkc {

// Why our elements cannot run on GStreamer's device `theirs` with its queue `queue` (null: none held),
// as a clause that follows "GStreamer's Vulkan device X cannot be shared: "; empty when they can. An
// element whose `device` property is `index` (-1: unset) runs on that GPU only, and frames from a CUDA
// context upstream (`cuda_upstream`) need memory of our own device (exported to CUDA).
std::string why_not_shareable(GstVulkanDevice* theirs, GstVulkanQueue* queue, gint index, bool cuda_upstream);

// The Device of ours on the GStreamer device that `context` holds, when there is one and it can be
// shared (why_not_shareable()), else null with `why_not` set (empty when no device of GStreamer's is
// held: nothing to share).
std::shared_ptr<Device> share_gst_device(GstElement* element, gstvk::ElementContext& context, gint index,
                                         std::string& why_not);

// The queue object of GStreamer's whose lock an adopted `device` takes around its submissions
// (share_gst_device()): whatever else of ours submits on that VkQueue takes the same lock. Valid while
// the device lives; null for a device of our own.
GstVulkanQueue* shared_gst_queue(const Device& device);

// "NAME (GPU)" for GStreamer's device `device`, for messages.
std::string describe_gst_device(GstVulkanDevice* device);

}  // namespace vkc
