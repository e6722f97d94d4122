// GStreamer's Vulkan library (libgstvulkan-1.0, of gst-plugins-bad), loaded at run time: the
// functions of it that our elements call to share the instance, device and queue of GStreamer's
// Vulkan elements (the contexts "gst.vulkan.instance", "gst.vulkan.device", "gst.vulkan.queue") and
// to read and make frames in its memory (memory:VulkanImage, memory:VulkanBuffer). Not linked at
// build time: its headers come only with libgstreamer-plugins-bad1.0-dev (on Debian 12, 237 packages
// with OpenCV's among them), and a process without the library has no such frames to exchange, so
// interop is then simply off.
#pragma once

#include <vulkan/vulkan.h>

#include <gst/gst.h>

#include <string>

// GStreamer's types, declared as its own headers declare them, so that a file that includes both
// (tests/test_gstvk_abi.cpp) still compiles. Only pointers to them are held; the few fields we read
// are in gstvk/abi.hpp.
typedef struct _GstVulkanDisplay GstVulkanDisplay;
typedef struct _GstVulkanInstance GstVulkanInstance;
typedef struct _GstVulkanPhysicalDevice GstVulkanPhysicalDevice;
typedef struct _GstVulkanDevice GstVulkanDevice;
typedef struct _GstVulkanQueue GstVulkanQueue;

namespace vkc::gstvk {

// The functions used, as gst/vulkan/*.h of GStreamer 1.22 declare them (all there since 1.18),
// unless marked. Objects returned are new references, as there.
struct GstVulkanLibrary {
  // Contexts: answered and taken as GStreamer's Vulkan elements do (gstvkutils.h, gstvkdevice.h,
  // gstvkqueue.h).
  gboolean (*handle_set_context)(GstElement* element, GstContext* context, GstVulkanDisplay** display,
                                 GstVulkanInstance** instance);
  gboolean (*handle_context_query)(GstElement* element, GstQuery* query, GstVulkanDisplay* display,
                                   GstVulkanInstance* instance, GstVulkanDevice* device);
  gboolean (*queue_handle_context_query)(GstElement* element, GstQuery* query, GstVulkanQueue* queue);
  gboolean (*ensure_element_data)(GstElement* element, GstVulkanDisplay** display,
                                  GstVulkanInstance** instance);
  gboolean (*device_run_context_query)(GstElement* element, GstVulkanDevice** device);
  gboolean (*queue_run_context_query)(GstElement* element, GstVulkanQueue** queue);
  gboolean (*context_get_vulkan_device)(GstContext* context, GstVulkanDevice** device);
  gboolean (*context_get_vulkan_queue)(GstContext* context, GstVulkanQueue** queue);

  // Instances, devices and queues.
  GstVulkanInstance* (*instance_new)();
  gboolean (*instance_open)(GstVulkanInstance* instance, GError** error);
  gboolean (*instance_check_version)(GstVulkanInstance* instance, guint major, guint minor, guint patch);
  GstVulkanDevice* (*device_new_with_index)(GstVulkanInstance* instance, guint device_index);
  gboolean (*device_enable_extension)(GstVulkanDevice* device, const gchar* name);
  gboolean (*device_open)(GstVulkanDevice* device, GError** error);
  gboolean (*device_is_extension_enabled)(GstVulkanDevice* device, const gchar* name);
  VkPhysicalDevice (*device_get_physical_device)(GstVulkanDevice* device);
  GstVulkanQueue* (*device_get_queue)(GstVulkanDevice* device, guint32 family, guint32 index);
  void (*queue_submit_lock)(GstVulkanQueue* queue);
  void (*queue_submit_unlock)(GstVulkanQueue* queue);

  // Memory (gstvkimagememory.h, gstvkbuffermemory.h, gstvkimagebufferpool.h). The allocators exist
  // once their init_once() has run.
  void (*image_memory_init_once)();
  void (*buffer_memory_init_once)();
  gboolean (*is_image_memory)(GstMemory* memory);
  gboolean (*is_buffer_memory)(GstMemory* memory);
  GstMemory* (*image_memory_alloc)(GstVulkanDevice* device, VkFormat format, gsize width, gsize height,
                                   VkImageTiling tiling, VkImageUsageFlags usage,
                                   VkMemoryPropertyFlags properties);
  GstMemory* (*buffer_memory_alloc)(GstVulkanDevice* device, gsize size, VkBufferUsageFlags usage,
                                    VkMemoryPropertyFlags properties);
  GstBufferPool* (*image_buffer_pool_new)(GstVulkanDevice* device);

  // GStreamer 1.24 and later; null before.
  // Whether the instance asks for Vulkan `major`.`minor`.`patch` or later (what its devices offer).
  gboolean (*instance_check_api_version)(GstVulkanInstance* instance, guint major, guint minor, guint patch);
  GstVulkanQueue* (*device_select_queue)(GstVulkanDevice* device, VkQueueFlagBits flags);
  void (*image_buffer_pool_config_set_allocation_params)(GstStructure* config, VkImageUsageFlags usage,
                                                         VkMemoryPropertyFlags properties,
                                                         VkImageLayout initial_layout,
                                                         guint64 initial_access);

  // Whether gst_vulkan_operation_new exists: GstVulkanOperation came with GStreamer 1.24, and with
  // it the 64-bit barrier flags and the timeline semaphore of each memory (gstvk/abi.hpp).
  bool has_operation = false;
};

// The library, loaded once per process; null with `why` set when it is not installed, lacks a
// function, keeps its memory's state in a layout we do not know, or was turned off. Whether it loads
// is logged once, at INFO: without it interop is off, which is no fault of the pipeline.
const GstVulkanLibrary* gst_vulkan_library(std::string& why);

// Whether GStreamer's Vulkan library is in the process already: every element that makes its frames
// or contexts (its vulkan plugin's, an application's) links it, so until then there is nothing to
// take, and it is not loaded for pipelines of other elements.
bool in_process();

// Whether frames and contexts of GStreamer's Vulkan elements can be taken at all; `why` when not.
inline bool available(std::string& why) {
  return gst_vulkan_library(why) != nullptr;
}

// Each of GStreamer's Vulkan instances our elements meet (through a context or a frame's device): the
// first time, the reaper's exit handler is registered again, to run before the exit handlers of the
// drivers that instance loaded (vk/reaper.hpp, after_other_instance()).
void met_instance(GstVulkanInstance* instance);

// Turns interop off for the rest of the process, with one warning that gives `why`: the library's
// memory does not read as gstvk/abi.hpp declares it (check_layout()). Later calls keep the first
// reason.
void turn_off(const std::string& why);

}  // namespace vkc::gstvk
