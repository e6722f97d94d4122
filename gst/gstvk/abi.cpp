#include "abi.hpp"

#include <type_traits>

namespace vkc::gstvk {

namespace {

template <typename MemoryInfo>
BarrierState state_of(const MemoryInfo& info) {
  BarrierState state;
  state.pipeline_stages = info.pipeline_stages;
  state.access_flags = info.access_flags;
  state.queue = info.queue;
  if constexpr (std::is_same_v<MemoryInfo, BarrierMemoryInfo64>) {
    state.semaphore = info.semaphore;
    state.semaphore_value = info.semaphore_value;
  }
  return state;
}

template <typename MemoryInfo>
bool store(const BarrierState& state, MemoryInfo& info) {
  if constexpr (std::is_same_v<MemoryInfo, BarrierMemoryInfo32>) {
    if ((state.pipeline_stages | state.access_flags) >> 32) return false;
  } else {
    info.semaphore_value = state.semaphore_value;
  }
  info.pipeline_stages = decltype(info.pipeline_stages)(state.pipeline_stages);
  info.access_flags = decltype(info.access_flags)(state.access_flags);
  return true;
}

template <typename MemoryInfo>
bool read_as(const GstVulkanLibrary& library, GstMemory* memory, BarrierState& state) {
  if (library.is_image_memory(memory)) {
    const auto& barrier = reinterpret_cast<const ImageMemoryFields<MemoryInfo>*>(memory)->barrier;
    state = state_of(barrier.parent);
    state.image_layout = barrier.image_layout;
    return true;
  }
  if (library.is_buffer_memory(memory)) {
    state = state_of(reinterpret_cast<const BufferMemoryFields<MemoryInfo>*>(memory)->barrier.parent);
    return true;
  }
  return false;
}

template <typename MemoryInfo>
bool write_as(const GstVulkanLibrary& library, GstMemory* memory, const BarrierState& state) {
  if (library.is_image_memory(memory)) {
    auto& barrier = reinterpret_cast<ImageMemoryFields<MemoryInfo>*>(memory)->barrier;
    if (!store(state, barrier.parent)) return false;
    barrier.image_layout = state.image_layout;
    return true;
  }
  if (library.is_buffer_memory(memory))
    return store(state, reinterpret_cast<BufferMemoryFields<MemoryInfo>*>(memory)->barrier.parent);
  return false;
}

// The first field of `device`'s heads that disagrees with the library or with another head, or "".
std::string device_mismatch(const GstVulkanLibrary& library, GstVulkanDevice* device) {
  const DeviceFields& dev = fields(device);
  if (!dev.device || !dev.physical_device || !dev.instance) return "GstVulkanDevice's handles";
  const PhysicalDeviceFields& physical = fields(dev.physical_device);
  if (physical.device != library.device_get_physical_device(device))
    return "GstVulkanPhysicalDevice.device against gst_vulkan_device_get_physical_device()";
  if (physical.instance != dev.instance)
    return "GstVulkanPhysicalDevice.instance against GstVulkanDevice.instance";
  const InstanceFields& instance = fields(dev.instance);
  if (!instance.instance || physical.device_index >= instance.n_physical_devices ||
      instance.physical_devices[physical.device_index] != physical.device)
    return "GstVulkanInstance.physical_devices[GstVulkanPhysicalDevice.device_index]";
  return "";
}

// What a freshly allocated memory's barrier holds in either layout: no writer yet.
template <typename MemoryInfo>
bool initial(const MemoryInfo& info, guint32 type) {
  return info.type == type && info.pipeline_stages == VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT &&
         info.access_flags == 0 && info.queue == nullptr;
}

// The first field of a 3x5 R8 image of `device` that is not where `ImageMemoryFields<MemoryInfo>`
// says, or "".
template <typename MemoryInfo>
std::string image_mismatch(const GstVulkanLibrary& library, GstVulkanDevice* device) {
  constexpr VkImageUsageFlags kUsage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  library.image_memory_init_once();
  GstMemory* memory = library.image_memory_alloc(device, VK_FORMAT_R8_UNORM, 3, 5, VK_IMAGE_TILING_OPTIMAL,
                                                 kUsage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (!memory || !library.is_image_memory(memory)) {
    if (memory) gst_memory_unref(memory);
    return "an image allocated through the library";
  }
  const auto& image = *reinterpret_cast<const ImageMemoryFields<MemoryInfo>*>(memory);
  const VkImageCreateInfo& info = image.create_info;
  const VkImageSubresourceRange& range = image.barrier.subresource_range;
  std::string mismatch;
  if (image.device != device || !image.image)
    mismatch = "GstVulkanImageMemory.device and .image";
  else if (info.sType != VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO || info.imageType != VK_IMAGE_TYPE_2D ||
           info.format != VK_FORMAT_R8_UNORM || info.extent.width != 3 || info.extent.height != 5 ||
           info.extent.depth != 1 || info.tiling != VK_IMAGE_TILING_OPTIMAL || info.usage != kUsage)
    mismatch = "GstVulkanImageMemory.create_info";
  else if (image.usage != kUsage)
    mismatch = "GstVulkanImageMemory.usage";
  else if (!initial(image.barrier.parent, kBarrierImage) ||
           image.barrier.image_layout != VK_IMAGE_LAYOUT_UNDEFINED)
    mismatch = "GstVulkanImageMemory.barrier";
  else if (range.aspectMask != VK_IMAGE_ASPECT_COLOR_BIT || range.baseMipLevel != 0 ||
           range.levelCount != 1 || range.baseArrayLayer != 0 || range.layerCount != 1)
    mismatch = "GstVulkanImageMemory.barrier.subresource_range";
  gst_memory_unref(memory);
  return mismatch;
}

// The same for a 16-byte host-visible buffer.
template <typename MemoryInfo>
std::string buffer_mismatch(const GstVulkanLibrary& library, GstVulkanDevice* device) {
  constexpr VkBufferUsageFlags kUsage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  library.buffer_memory_init_once();
  GstMemory* memory = library.buffer_memory_alloc(device, 16, kUsage, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  if (!memory || !library.is_buffer_memory(memory)) {
    if (memory) gst_memory_unref(memory);
    return "a buffer allocated through the library";
  }
  const auto& buffer = *reinterpret_cast<const BufferMemoryFields<MemoryInfo>*>(memory);
  std::string mismatch;
  if (buffer.device != device || !buffer.buffer)
    mismatch = "GstVulkanBufferMemory.device and .buffer";
  else if (buffer.usage != kUsage)
    mismatch = "GstVulkanBufferMemory.usage";
  else if (!initial(buffer.barrier.parent, kBarrierBuffer))
    mismatch = "GstVulkanBufferMemory.barrier";
  gst_memory_unref(memory);
  return mismatch;
}

template <typename MemoryInfo>
std::string memory_mismatch(const GstVulkanLibrary& library, GstVulkanDevice* device) {
  std::string mismatch = image_mismatch<MemoryInfo>(library, device);
  return mismatch.empty() ? buffer_mismatch<MemoryInfo>(library, device) : mismatch;
}

}  // namespace

BarrierLayout barrier_layout(const GstVulkanLibrary& library) {
  return library.has_operation ? BarrierLayout::kFlags64 : BarrierLayout::kFlags32;
}

bool read_image(const GstVulkanLibrary& library, GstMemory* memory, ImageHead& head) {
  if (!library.is_image_memory(memory)) return false;
  const auto& image = *reinterpret_cast<const ImageMemoryFields<BarrierMemoryInfo32>*>(memory);
  head.device = image.device;
  head.image = image.image;
  head.create_info = image.create_info;
  head.create_info.pNext = nullptr;  // GStreamer's, not ours to follow
  head.create_info.pQueueFamilyIndices = nullptr;
  head.usage = image.usage;
  return true;
}

bool read_barrier(const GstVulkanLibrary& library, GstMemory* memory, BarrierState& state) {
  return barrier_layout(library) == BarrierLayout::kFlags64
             ? read_as<BarrierMemoryInfo64>(library, memory, state)
             : read_as<BarrierMemoryInfo32>(library, memory, state);
}

bool write_barrier(const GstVulkanLibrary& library, GstMemory* memory, const BarrierState& state) {
  return barrier_layout(library) == BarrierLayout::kFlags64
             ? write_as<BarrierMemoryInfo64>(library, memory, state)
             : write_as<BarrierMemoryInfo32>(library, memory, state);
}

bool check_layout(GstVulkanDevice* device, std::string& why) {
  const GstVulkanLibrary* library = gst_vulkan_library(why);
  if (!library) return false;
  std::string mismatch = device_mismatch(*library, device);
  if (mismatch.empty())
    mismatch = barrier_layout(*library) == BarrierLayout::kFlags64
                   ? memory_mismatch<BarrierMemoryInfo64>(*library, device)
                   : memory_mismatch<BarrierMemoryInfo32>(*library, device);
  if (mismatch.empty()) return true;
  why = "GStreamer's Vulkan library does not hold " + mismatch + " where this plugin reads it";
  turn_off(why);
  return false;
}

}  // namespace vkc::gstvk
