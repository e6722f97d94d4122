#include "elementcontext.hpp"

#include <cstring>

#include "gstvk/abi.hpp"
#include "vk/device.hpp"

GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_runtime_debug);
#define GST_CAT_DEFAULT gst_vkcompute_runtime_debug

namespace vkc::gstvk {

namespace {

constexpr const char* kDeviceContext = "gst.vulkan.device";
constexpr const char* kQueueContext = "gst.vulkan.queue";

// Device extensions that GStreamer never enables and that frames exchanged with our elements use
// where the GPU has them: host memory imported (frames of system memory read in place), memory and
// semaphores shared with CUDA, and the GPU's clock read beside the CPU's (GPU end times).
constexpr const char* kWantedExtensions[] = {
    VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME,
    VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME,
    VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME,
    VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME,
};

// Whether `physical` (of GStreamer's instance) is the GPU that `ours` runs on: the same device of
// the same driver. lavapipe listed twice matches twice; the caller prefers the same index.
bool same_gpu(VkPhysicalDevice physical, const Device& ours) {
  VkPhysicalDeviceProperties theirs{};
  vkGetPhysicalDeviceProperties(physical, &theirs);
  const vk::PhysicalDeviceProperties& mine = ours.properties();
  return theirs.vendorID == mine.vendorID && theirs.deviceID == mine.deviceID &&
         theirs.driverVersion == mine.driverVersion &&
         std::strncmp(theirs.deviceName, mine.deviceName, VK_MAX_PHYSICAL_DEVICE_NAME_SIZE) == 0 &&
         std::memcmp(theirs.pipelineCacheUUID, mine.pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

// Whether `type` is one of the contexts of GStreamer's Vulkan elements: only those load the library
// (a process whose pipelines have none of those elements never does).
bool vulkan_context_type(const gchar* type) {
  return type && g_str_has_prefix(type, "gst.vulkan.");
}

// The context of `type` that the element linked to `element`'s pad `pad_name` answers a CONTEXT
// query with (a new reference), or null.
GstContext* peer_context(GstElement* element, const char* pad_name, const char* type) {
  GstContext* context = nullptr;
  GstPad* pad = gst_element_get_static_pad(element, pad_name);
  GstQuery* query = gst_query_new_context(type);
  if (pad && gst_pad_peer_query(pad, query)) {
    gst_query_parse_context(query, &context);
    if (context) gst_context_ref(context);
  }
  gst_query_unref(query);
  if (pad) gst_object_unref(pad);
  return context;
}

// The device that the application set on `element` (a "gst.vulkan.device" context: GStreamer's
// helpers take only instances), a new reference, or null.
GstVulkanDevice* application_device(GstElement* element, const GstVulkanLibrary& library) {
  GstContext* set = gst_element_get_context(element, kDeviceContext);
  if (!set) return nullptr;
  GstVulkanDevice* device = nullptr;
  library.context_get_vulkan_device(set, &device);
  gst_context_unref(set);
  return device;
}

}  // namespace

ElementContext::~ElementContext() {
  stop();
  if (instance_) gst_object_unref(instance_);
}

void ElementContext::set(GstElement* element, GstContext* context) {
  if (!vulkan_context_type(gst_context_get_context_type(context))) return;
  std::string why;
  const GstVulkanLibrary* library = gst_vulkan_library(why);
  if (!library) return;
  std::lock_guard<std::recursive_mutex> lock(lock_);
  library->handle_set_context(element, context, nullptr, &instance_);
}

bool ElementContext::answer(GstElement* element, GstQuery* query) {
  const gchar* type = nullptr;
  if (GST_QUERY_TYPE(query) != GST_QUERY_CONTEXT || !gst_query_parse_context_type(query, &type) ||
      !vulkan_context_type(type))
    return false;
  std::string why;
  const GstVulkanLibrary* library = gst_vulkan_library(why);
  if (!library) return false;
  std::lock_guard<std::recursive_mutex> lock(lock_);
  // Before the start, the device the application set: GStreamer's elements downstream, which start
  // first and take no device from the application themselves, would otherwise make one of their own.
  GstVulkanDevice* device = device_ ? static_cast<GstVulkanDevice*>(gst_object_ref(device_))
                                    : application_device(element, *library);
  const bool answered =
      (instance_ || device) && library->handle_context_query(element, query, nullptr, instance_, device);
  if (device) gst_object_unref(device);
  return answered || (queue_ && library->queue_handle_context_query(element, query, queue_));
}

void ElementContext::start(GstElement* element, const Device& ours, bool vulkan_near) {
  // No instance made and nothing posted without a reason; nothing to share without the library in
  // the process (in_process()).
  GstContext* set = gst_element_get_context(element, kDeviceContext);
  if (set) gst_context_unref(set);
  if ((!set && !vulkan_near) || !in_process()) return;
  std::string why;
  const GstVulkanLibrary* library = gst_vulkan_library(why);
  if (!library) return;
  std::lock_guard<std::recursive_mutex> lock(lock_);
  if ((device_ = application_device(element, *library)))
    GST_INFO_OBJECT(element, "GStreamer's Vulkan device %p, set by the application", device_);
  if (!device_ && library->device_run_context_query(element, &device_))
    GST_INFO_OBJECT(element, "GStreamer's Vulkan device %p, of an element around", device_);
  // GStreamer 1.22 opens its devices with no Vulkan feature (no timeline semaphores): a device made
  // there could never be shared, so the elements around make their own.
  if (!device_ && barrier_layout(*library) == BarrierLayout::kFlags64) {
    if (!library->ensure_element_data(element, nullptr, &instance_)) return;
    met_instance(instance_);
    device_ = make_device(element, *library, ours);
  }
  if (!device_) return;
  met_instance(fields(device_).instance);
  if (library->queue_run_context_query(element, &queue_)) {
    GST_DEBUG_OBJECT(element, "GStreamer's Vulkan queue %p, of an element around", queue_);
    // Of another device: an element around made its own before the application's reached it.
    if (fields(queue_).device != device_) gst_clear_object(&queue_);
  }
  if (!queue_ && library->device_select_queue)
    queue_ = library->device_select_queue(device_, VK_QUEUE_COMPUTE_BIT);
}

GstVulkanDevice* ElementContext::make_device(GstElement* element, const GstVulkanLibrary& library,
                                             const Device& ours) {
  const InstanceFields& instance = fields(instance_);
  int index = -1;
  for (guint32 i = 0; i < instance.n_physical_devices; ++i)
    if (same_gpu(instance.physical_devices[i], ours) && (index < 0 || int(i) == ours.index())) index = int(i);
  if (index < 0) {
    GST_INFO_OBJECT(element, "GStreamer's Vulkan instance does not list %s: no device of its made",
                    ours.name().c_str());
    return nullptr;
  }
  GstVulkanDevice* device = library.device_new_with_index(instance_, guint(index));
  if (!device) return nullptr;
  for (const char* extension : kWantedExtensions)
    if (!library.device_enable_extension(device, extension))
      GST_DEBUG_OBJECT(element, "GStreamer's Vulkan device %d: no %s", index, extension);
  GError* error = nullptr;
  if (!library.device_open(device, &error)) {
    GST_WARNING_OBJECT(element, "GStreamer's Vulkan device %d (%s) did not open: %s", index,
                       ours.name().c_str(), error ? error->message : "no reason given");
    g_clear_error(&error);
    gst_object_unref(device);
    return nullptr;
  }
  GST_INFO_OBJECT(element, "made GStreamer's Vulkan device %p on %s (index %d of its instance)", device,
                  ours.name().c_str(), index);
  return device;
}

void ElementContext::stop() {
  std::lock_guard<std::recursive_mutex> lock(lock_);
  if (queue_) gst_object_unref(queue_);
  if (device_) gst_object_unref(device_);
  queue_ = nullptr;
  device_ = nullptr;
}

GstVulkanQueue* ElementContext::queue_of(GstElement* element, GstVulkanDevice* device, GstPadDirection side) {
  std::string why;
  const GstVulkanLibrary* library = gst_vulkan_library(why);
  if (!library) return nullptr;
  std::lock_guard<std::recursive_mutex> lock(lock_);
  // On that side only: an element on the other may hold a queue object of its own on the same device,
  // whose lock the frame's maker does not take.
  GstVulkanQueue* theirs = nullptr;
  if (GstContext* context = peer_context(element, side == GST_PAD_SINK ? "sink" : "src", kQueueContext)) {
    library->context_get_vulkan_queue(context, &theirs);
    gst_context_unref(context);
  }
  if (theirs && fields(theirs).device != device) gst_clear_object(&theirs);
  if (!theirs)
    return queue_ && fields(queue_).device == device ? static_cast<GstVulkanQueue*>(gst_object_ref(queue_))
                                                     : nullptr;
  if (!device_ || device_ == device) {
    if (!device_) device_ = static_cast<GstVulkanDevice*>(gst_object_ref(device));
    if (queue_ != theirs) {
      if (queue_) gst_object_unref(queue_);
      queue_ = static_cast<GstVulkanQueue*>(gst_object_ref(theirs));
      GST_DEBUG_OBJECT(element, "GStreamer's Vulkan queue %p, of the elements %s", queue_,
                       side == GST_PAD_SINK ? "upstream" : "downstream");
    }
  }
  return theirs;
}

GstVulkanDevice* ElementContext::device_downstream(GstElement* element) {
  std::string why;
  const GstVulkanLibrary* library = gst_vulkan_library(why);
  if (!library) return nullptr;
  std::lock_guard<std::recursive_mutex> lock(lock_);
  if (!device_) {
    if (GstContext* context = peer_context(element, "src", kDeviceContext)) {
      library->context_get_vulkan_device(context, &device_);
      gst_context_unref(context);
    }
    if (device_)
      GST_DEBUG_OBJECT(element, "GStreamer's Vulkan device %p, of the elements downstream", device_);
  }
  return device_ ? static_cast<GstVulkanDevice*>(gst_object_ref(device_)) : nullptr;
}

GstVulkanDevice* ElementContext::device() {
  std::lock_guard<std::recursive_mutex> lock(lock_);
  return device_;
}

GstVulkanQueue* ElementContext::queue() {
  std::lock_guard<std::recursive_mutex> lock(lock_);
  return queue_;
}

}  // namespace vkc::gstvk
