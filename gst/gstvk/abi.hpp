// The public fields of GStreamer's Vulkan objects and memory that this plugin reads, declared here
// because the library is loaded at run time, without its headers (gstvk/library.hpp says why).
// Each struct below is the head of GStreamer's struct of the name in its comment, field for field up
// to the last one we read: names and types as in gst/vulkan's public headers, which keep these heads
// the same from 1.22 to 1.28 but for the barrier state, changed once, in 1.24. tests/test_gstvk_abi
// compares them with the headers where they are installed; check_layout() compares them at run time
// with what the library wrote into a small image and buffer of its own.
#pragma once

#include <vulkan/vulkan.h>

#include <gst/gst.h>

#include <string>

#include "gstvk/library.hpp"

namespace vkc::gstvk {

// GstVulkanInstance.
struct InstanceFields {
  GstObject parent;
  VkInstance instance;
  VkPhysicalDevice* physical_devices;
  guint32 n_physical_devices;
};

// GstVulkanPhysicalDevice.
struct PhysicalDeviceFields {
  GstObject parent;
  GstVulkanInstance* instance;
  guint device_index;
  VkPhysicalDevice device;
  VkPhysicalDeviceProperties properties;
};

// GstVulkanDevice.
struct DeviceFields {
  GstObject parent;
  GstVulkanInstance* instance;
  GstVulkanPhysicalDevice* physical_device;
  VkDevice device;
};

// GstVulkanQueue.
struct QueueFields {
  GstObject parent;
  GstVulkanDevice* device;
  VkQueue queue;
  guint32 family;
  guint32 index;
};

// GstVulkanBarrierType's values that we compare with (a C enum: the size of an int).
enum BarrierType : guint32 { kBarrierBuffer = 2, kBarrierImage = 3 };

// GstVulkanBarrierMemoryInfo up to GStreamer 1.22: the stages and access of the last writer as
// VkPipelineStageFlags and VkAccessFlags.
struct BarrierMemoryInfo32 {
  guint32 type;   // BarrierType
  guint32 flags;  // GstVulkanBarrierFlags: none defined
  GstVulkanQueue* queue;
  VkPipelineStageFlags pipeline_stages;
  VkAccessFlags access_flags;
  gpointer reserved[GST_PADDING];
};

// GstVulkanBarrierMemoryInfo from GStreamer 1.24 on: 64-bit stages and access (synchronization2's
// values where the device has it), then the memory's timeline semaphore and the value its last
// writer signals (VK_NULL_HANDLE and 0 where the device has no timeline semaphores).
struct BarrierMemoryInfo64 {
  guint32 type;
  guint32 flags;
  GstVulkanQueue* queue;
  guint64 pipeline_stages;
  guint64 access_flags;
  VkSemaphore semaphore;
  guint64 semaphore_value;
  gpointer reserved[GST_PADDING];
};

// GstVulkanBarrierImageInfo and GstVulkanBarrierBufferInfo over either memory info.
template <typename MemoryInfo>
struct BarrierImageInfo {
  MemoryInfo parent;
  VkImageLayout image_layout;
  VkImageSubresourceRange subresource_range;
};
template <typename MemoryInfo>
struct BarrierBufferInfo {
  MemoryInfo parent;
  VkDeviceSize offset;
  VkDeviceSize size;
};

// GstVulkanImageMemory up to its barrier state.
template <typename MemoryInfo>
struct ImageMemoryFields {
  GstMemory parent;
  GstVulkanDevice* device;
  VkImage image;
  gpointer vk_mem;  // GstVulkanMemory*
  VkImageCreateInfo create_info;
  VkMemoryRequirements requirements;
  VkImageFormatProperties format_properties;
  VkImageUsageFlags usage;
  BarrierImageInfo<MemoryInfo> barrier;
};

// GstVulkanBufferMemory up to its barrier state.
template <typename MemoryInfo>
struct BufferMemoryFields {
  GstMemory parent;
  GstVulkanDevice* device;
  VkBuffer buffer;
  gpointer vk_mem;  // GstVulkanMemory*
  VkMemoryRequirements requirements;
  VkBufferUsageFlags usage;
  BarrierBufferInfo<MemoryInfo> barrier;
};

// The fields of GStreamer's objects. Unchecked casts, gathered here: read only what check_layout()
// found where this file says, on a device of the library that check_layout() passed.
inline const InstanceFields& fields(GstVulkanInstance* instance) {
  return *reinterpret_cast<const InstanceFields*>(instance);
}
inline const PhysicalDeviceFields& fields(GstVulkanPhysicalDevice* physical_device) {
  return *reinterpret_cast<const PhysicalDeviceFields*>(physical_device);
}
inline const DeviceFields& fields(GstVulkanDevice* device) {
  return *reinterpret_cast<const DeviceFields*>(device);
}
inline const QueueFields& fields(GstVulkanQueue* queue) {
  return *reinterpret_cast<const QueueFields*>(queue);
}

// Which barrier state the loaded library's memory carries.
enum class BarrierLayout {
  kFlags32,  // GStreamer 1.22: BarrierMemoryInfo32
  kFlags64,  // 1.24 to 1.28: BarrierMemoryInfo64
};
BarrierLayout barrier_layout(const GstVulkanLibrary& library);

// A memory's barrier state in one view for both layouts: what its last writer left (stages, access
// and, for images, the layout) and, from 1.24 on, the point of the memory's timeline it signals.
struct BarrierState {
  guint64 pipeline_stages = 0;  // 1.22's 32-bit flags widened
  guint64 access_flags = 0;
  VkImageLayout image_layout = VK_IMAGE_LAYOUT_UNDEFINED;  // images only
  // The queue whose family owns the memory, or null (GStreamer's own writers store none). Read only:
  // from 1.24 the memory holds a reference to it and drops it when freed, before it holds none.
  GstVulkanQueue* queue = nullptr;
  VkSemaphore semaphore = VK_NULL_HANDLE;  // owned by the memory; null before 1.24
  guint64 semaphore_value = 0;
};

// What a GstVulkanImageMemory is: the device and image it holds and how the image was made (the
// head before the barrier state, the same in both layouts).
struct ImageHead {
  GstVulkanDevice* device = nullptr;
  VkImage image = VK_NULL_HANDLE;
  VkImageCreateInfo create_info{};
  VkImageUsageFlags usage = 0;
};
// The head of `memory` when it is GStreamer's image memory; false for any other memory.
bool read_image(const GstVulkanLibrary& library, GstMemory* memory, ImageHead& head);

// The state of `memory`, GStreamer's image or buffer memory; false for any other memory.
bool read_barrier(const GstVulkanLibrary& library, GstMemory* memory, BarrierState& state);
// Stores `state` as the memory's new state after our work on it, as GStreamer's elements do after
// theirs; its semaphore and queue stay the memory's own. False for other memory, and on 1.22 for
// stages or access beyond 32 bits (which that layout cannot hold).
bool write_barrier(const GstVulkanLibrary& library, GstMemory* memory, const BarrierState& state);

// Whether the library's objects and memory on `device` read as this file declares them: its device,
// physical device and instance heads agree with each other and with the library's getters, and a
// 3x5 R8 image and a small buffer allocated through the library carry their create info, usage and
// initial barrier state where this file expects them. A mismatch turns interop off for the process
// (turn_off(), one warning) and returns false with `why`.
bool check_layout(GstVulkanDevice* device, std::string& why);

}  // namespace vkc::gstvk
