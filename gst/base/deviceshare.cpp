#include "deviceshare.hpp"

#include "cuda/gstcudamemory.hpp"
#include "gstvk/abi.hpp"

GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_filter_debug);
#define GST_CAT_DEFAULT gst_vkcompute_filter_debug

namespace vkc {
namespace {

std::string version_text(uint32_t version) {
  return std::to_string(VK_VERSION_MAJOR(version)) + "." + std::to_string(VK_VERSION_MINOR(version));
}

// GStreamer's references to the device and queue our adopted Device runs on, held as long as it lives.
struct GstReferences {
  GstReferences(GstVulkanDevice* device, GstVulkanQueue* queue)
      : device(static_cast<GstVulkanDevice*>(gst_object_ref(device))),
        queue(static_cast<GstVulkanQueue*>(gst_object_ref(queue))) {}
  GstReferences(const GstReferences&) = delete;
  GstReferences& operator=(const GstReferences&) = delete;
  GstVulkanDevice* device;
  GstVulkanQueue* queue;
  ~GstReferences() {
    gst_object_unref(queue);
    gst_object_unref(device);
  }
};

}  // namespace

GstVulkanQueue* shared_gst_queue(const Device& device) {
  const ForeignDevice* foreign = device.foreign();
  return foreign ? static_cast<const GstReferences*>(foreign->owner.get())->queue : nullptr;
}

std::string describe_gst_device(GstVulkanDevice* device) {
  const gstvk::PhysicalDeviceFields& physical = gstvk::fields(gstvk::fields(device).physical_device);
  return std::string(GST_OBJECT_NAME(device)) + " (" + physical.properties.deviceName + ")";
}

std::string why_not_shareable(GstVulkanDevice* theirs, GstVulkanQueue* queue, gint index,
                              bool cuda_upstream) {
  std::string why;
  const gstvk::GstVulkanLibrary* library = gstvk::gst_vulkan_library(why);
  if (!library) return why;
  if (gstvk::barrier_layout(*library) == gstvk::BarrierLayout::kFlags32)
    return "GStreamer 1.22 opens its Vulkan devices with no Vulkan feature, and our elements need timeline "
           "semaphores";
  if (!gstvk::check_layout(theirs, why)) return why;
  const gstvk::DeviceFields& device = gstvk::fields(theirs);
  const gstvk::PhysicalDeviceFields& physical = gstvk::fields(device.physical_device);
  if (!library->instance_check_api_version || !library->instance_check_api_version(device.instance, 1, 2, 0))
    return "its Vulkan instance asks for a Vulkan older than 1.2, which our elements need (timeline "
           "semaphores; GST_VULKAN_INSTANCE_API_VERSION may lower it)";
  if (physical.properties.apiVersion < VK_API_VERSION_1_2)
    return "the GPU supports Vulkan " + version_text(physical.properties.apiVersion) + "; 1.2 is needed";
  if (index >= 0 && guint(index) != physical.device_index)
    return "the element's device property names device " + std::to_string(index) +
           ", and GStreamer's is device " + std::to_string(physical.device_index);
  if (cuda_upstream)
    return "the frames come from a CUDA context upstream, which needs memory of the element's own device";
  if (!queue) return "it gives no queue to submit on";
  const gstvk::QueueFields& fields = gstvk::fields(queue);
  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical.device, &families, nullptr);
  std::vector<VkQueueFamilyProperties> properties(families);
  vkGetPhysicalDeviceQueueFamilyProperties(physical.device, &families, properties.data());
  if (fields.family >= families || !(properties[fields.family].queueFlags & VK_QUEUE_COMPUTE_BIT))
    return "its queue (family " + std::to_string(fields.family) + ") runs no compute work";
  return {};
}

std::shared_ptr<Device> share_gst_device(GstElement* element, gstvk::ElementContext& context, gint index,
                                         std::string& why_not) {
  why_not.clear();
  GstVulkanDevice* theirs = context.device();
  if (!theirs) return nullptr;
  GstVulkanQueue* queue = context.queue();
  why_not = why_not_shareable(theirs, queue, index, cuda::upstream_cuda_device(element) >= 0);
  if (!why_not.empty()) return nullptr;
  std::string why;
  const gstvk::GstVulkanLibrary& library = *gstvk::gst_vulkan_library(why);
  const gstvk::DeviceFields& device = gstvk::fields(theirs);
  const gstvk::PhysicalDeviceFields& physical = gstvk::fields(device.physical_device);
  ForeignDevice foreign;
  foreign.instance = gstvk::fields(device.instance).instance;
  foreign.physical = physical.device;
  foreign.index = int(physical.device_index);
  foreign.device = device.device;
  foreign.queue = gstvk::fields(queue).queue;
  foreign.queue_family = gstvk::fields(queue).family;
  for (const char* name :
       {VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME,
        VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME})
    if (library.device_is_extension_enabled(theirs, name)) foreign.extensions.push_back(name);
  auto submit_lock = library.queue_submit_lock;
  auto submit_unlock = library.queue_submit_unlock;
  foreign.lock_queue = [submit_lock, queue] { submit_lock(queue); };
  foreign.unlock_queue = [submit_unlock, queue] { submit_unlock(queue); };
  foreign.owner = std::make_shared<GstReferences>(theirs, queue);
  auto adopted = Device::adopt(std::move(foreign), why);
  if (!adopted) {
    why_not = why;
    return nullptr;
  }
  GST_INFO_OBJECT(element, "runs on GStreamer's Vulkan device %s, shared with the Vulkan elements around it",
                  describe_gst_device(theirs).c_str());
  return adopted;
}

}  // namespace vkc
