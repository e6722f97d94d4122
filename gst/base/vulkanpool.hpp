// The pool of a filter's output frames in GStreamer's Vulkan image memory (caps in memory:VulkanImage,
// for GStreamer's Vulkan elements downstream: vulkandownload, vulkansink, vulkancolorconvert): the pool
// downstream offers when it is one of GStreamer's image pools, else a new one on the device of the
// elements downstream (gstvk/elementcontext.hpp). Its images are written through that device
// (vulkanoutputs.hpp), so they must take transfers in.
#pragma once

#include <gst/gst.h>

#include <string>

#include "gstvk/elementcontext.hpp"

namespace vkc {

// Sets the output pool in downstream's ALLOCATION query for VulkanImage caps: downstream's minimum
// plus `frames_in_flight` buffers. False with `error` set when GStreamer's Vulkan library or a device
// downstream is missing, or the pool refuses the caps.
bool decide_vulkan_image_pool(GstElement* element, GstQuery* query, gstvk::ElementContext& context,
                              guint frames_in_flight, std::string& error);

}  // namespace vkc
