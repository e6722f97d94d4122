// gst/gstvk/abi.hpp against GStreamer's own headers, where they are installed (gst-plugins-bad's
// development package; Debian 13, GStreamer 1.26): every field we declare sits at the offset, and has
// the size, of GStreamer's field of that name, for the objects' heads and for the barrier state of
// the headers' release (BarrierMemoryInfo64 from 1.24, BarrierMemoryInfo32 before). The checks are
// static_asserts, so building this file is the test; running it only says so. Where the headers are
// not installed (Debian 12), check_layout() compares the same fields with the library at run time
// (test_gstvk_library).
#include <gst/vulkan/vulkan.h>

#include <cstdio>

#include "gstvk/abi.hpp"

namespace {

namespace ours = vkc::gstvk;

#define VKC_SAME_FIELD(Ours, Theirs, field)                                \
  static_assert(offsetof(Ours, field) == offsetof(Theirs, field), #field); \
  static_assert(sizeof(Ours::field) == sizeof(Theirs::field), #field " size")

VKC_SAME_FIELD(ours::InstanceFields, GstVulkanInstance, instance);
VKC_SAME_FIELD(ours::InstanceFields, GstVulkanInstance, physical_devices);
VKC_SAME_FIELD(ours::InstanceFields, GstVulkanInstance, n_physical_devices);

VKC_SAME_FIELD(ours::PhysicalDeviceFields, GstVulkanPhysicalDevice, instance);
VKC_SAME_FIELD(ours::PhysicalDeviceFields, GstVulkanPhysicalDevice, device_index);
VKC_SAME_FIELD(ours::PhysicalDeviceFields, GstVulkanPhysicalDevice, device);
VKC_SAME_FIELD(ours::PhysicalDeviceFields, GstVulkanPhysicalDevice, properties);

VKC_SAME_FIELD(ours::DeviceFields, GstVulkanDevice, instance);
VKC_SAME_FIELD(ours::DeviceFields, GstVulkanDevice, physical_device);
VKC_SAME_FIELD(ours::DeviceFields, GstVulkanDevice, device);

VKC_SAME_FIELD(ours::QueueFields, GstVulkanQueue, device);
VKC_SAME_FIELD(ours::QueueFields, GstVulkanQueue, queue);
VKC_SAME_FIELD(ours::QueueFields, GstVulkanQueue, family);
VKC_SAME_FIELD(ours::QueueFields, GstVulkanQueue, index);

#if GST_CHECK_VERSION(1, 24, 0)
using MemoryInfo = ours::BarrierMemoryInfo64;
#else
using MemoryInfo = ours::BarrierMemoryInfo32;
#endif
static_assert(sizeof(MemoryInfo) == sizeof(GstVulkanBarrierMemoryInfo));
static_assert(sizeof(ours::BarrierType) == sizeof(GstVulkanBarrierType));
static_assert(int(ours::kBarrierBuffer) == int(GST_VULKAN_BARRIER_TYPE_BUFFER));
static_assert(int(ours::kBarrierImage) == int(GST_VULKAN_BARRIER_TYPE_IMAGE));
VKC_SAME_FIELD(MemoryInfo, GstVulkanBarrierMemoryInfo, type);
VKC_SAME_FIELD(MemoryInfo, GstVulkanBarrierMemoryInfo, flags);
VKC_SAME_FIELD(MemoryInfo, GstVulkanBarrierMemoryInfo, queue);
VKC_SAME_FIELD(MemoryInfo, GstVulkanBarrierMemoryInfo, pipeline_stages);
VKC_SAME_FIELD(MemoryInfo, GstVulkanBarrierMemoryInfo, access_flags);
#if GST_CHECK_VERSION(1, 24, 0)
VKC_SAME_FIELD(MemoryInfo, GstVulkanBarrierMemoryInfo, semaphore);
VKC_SAME_FIELD(MemoryInfo, GstVulkanBarrierMemoryInfo, semaphore_value);
#endif

using ImageBarrier = ours::BarrierImageInfo<MemoryInfo>;
static_assert(sizeof(ImageBarrier) == sizeof(GstVulkanBarrierImageInfo));
VKC_SAME_FIELD(ImageBarrier, GstVulkanBarrierImageInfo, image_layout);
VKC_SAME_FIELD(ImageBarrier, GstVulkanBarrierImageInfo, subresource_range);

using BufferBarrier = ours::BarrierBufferInfo<MemoryInfo>;
static_assert(sizeof(BufferBarrier) == sizeof(GstVulkanBarrierBufferInfo));
VKC_SAME_FIELD(BufferBarrier, GstVulkanBarrierBufferInfo, offset);
VKC_SAME_FIELD(BufferBarrier, GstVulkanBarrierBufferInfo, size);

using ImageMemory = ours::ImageMemoryFields<MemoryInfo>;
VKC_SAME_FIELD(ImageMemory, GstVulkanImageMemory, device);
VKC_SAME_FIELD(ImageMemory, GstVulkanImageMemory, image);
VKC_SAME_FIELD(ImageMemory, GstVulkanImageMemory, vk_mem);
VKC_SAME_FIELD(ImageMemory, GstVulkanImageMemory, create_info);
VKC_SAME_FIELD(ImageMemory, GstVulkanImageMemory, requirements);
VKC_SAME_FIELD(ImageMemory, GstVulkanImageMemory, format_properties);
VKC_SAME_FIELD(ImageMemory, GstVulkanImageMemory, usage);
VKC_SAME_FIELD(ImageMemory, GstVulkanImageMemory, barrier);

using BufferMemory = ours::BufferMemoryFields<MemoryInfo>;
VKC_SAME_FIELD(BufferMemory, GstVulkanBufferMemory, device);
VKC_SAME_FIELD(BufferMemory, GstVulkanBufferMemory, buffer);
VKC_SAME_FIELD(BufferMemory, GstVulkanBufferMemory, vk_mem);
VKC_SAME_FIELD(BufferMemory, GstVulkanBufferMemory, requirements);
VKC_SAME_FIELD(BufferMemory, GstVulkanBufferMemory, usage);
VKC_SAME_FIELD(BufferMemory, GstVulkanBufferMemory, barrier);

#undef VKC_SAME_FIELD

}  // namespace

int main() {
  std::printf("gst/gstvk/abi.hpp matches GStreamer %d.%d's gst/vulkan headers\n", GST_VERSION_MAJOR,
              GST_VERSION_MINOR);
  return 0;
}
