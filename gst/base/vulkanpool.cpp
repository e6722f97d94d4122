#include "vulkanpool.hpp"

#include <gst/video/video.h>

#include "outputpool.hpp"

namespace vkc {

bool decide_vulkan_image_pool(GstElement* element, GstQuery* query, gstvk::ElementContext& context,
                              guint frames_in_flight, std::string& error) {
  GstCaps* caps = nullptr;
  GstVideoInfo info;
  if (!allocation_caps(query, caps, info, error)) return false;
  const gstvk::GstVulkanLibrary* library = gstvk::gst_vulkan_library(error);
  if (!library) return false;
  guint min_buffers = 0;
  GstBufferPool* pool = proposed_pool(query, "GstVulkanImageBufferPool", min_buffers);
  if (!pool) {
    GstVulkanDevice* device = context.device_downstream(element);
    if (!device) {
      error = "the elements downstream have no GStreamer Vulkan device";
      return false;
    }
    pool = library->image_buffer_pool_new(device);
    gst_object_unref(device);
  }
  // From 1.24 the images' use is set: transfers in (ours) and out (vulkandownload), sampling (the
  // converters and the sink). Before, the pool's own images take transfers both ways.
  const auto usage = [library](GstStructure* config) {
    if (library->image_buffer_pool_config_set_allocation_params)
      library->image_buffer_pool_config_set_allocation_params(
          config,
          VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
          VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, VK_IMAGE_LAYOUT_UNDEFINED, 0);
  };
  return set_output_pool(query, pool, caps, info, min_buffers + frames_in_flight,
                         "GStreamer's Vulkan image pool", error, usage);
}

}  // namespace vkc
