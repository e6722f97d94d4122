#include "filterproperties.hpp"

#include "vk/device.hpp"

namespace vkc {

void install_filter_properties(GObjectClass* gobject_class) {
  g_object_class_install_property(
      gobject_class, kDevice,
      g_param_spec_int(
          "device", "Device",
          "Vulkan physical device index to run on. -1 chooses automatically: the index in the "
          "environment variable GST_VKCOMPUTE_DEVICE when it is set; else the device of the nearest "
          "element of ours upstream that has one (its frames come in that device's memory), else "
          "downstream (a chain stays on one device); else the best kind of device (a discrete GPU, "
          "then an integrated one, a virtual one, a CPU implementation such as lavapipe) and, among "
          "several of that kind, the one running the fewest streams of ours, so that new pipelines "
          "spread over the GPUs of the host. Read when the element starts; refused with a warning in "
          "PAUSED and PLAYING. An automatic choice that lands on a CPU implementation posts a "
          "warning at each start.",
          -1, G_MAXINT, -1,
          GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY)));
  g_object_class_install_property(
      gobject_class, kDeviceName,
      g_param_spec_string("device-name", "Device name",
                          "Name of the Vulkan device in use (NULL until the element has started)", nullptr,
                          GParamFlags(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property(
      gobject_class, kDeviceIndex,
      g_param_spec_int("device-index", "Device index",
                       "Index of the Vulkan device in use, as the device property counts (-1 until the "
                       "element has started): the device an automatic choice took",
                       -1, G_MAXINT, -1, GParamFlags(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property(
      gobject_class, kGstVulkanDevice,
      g_param_spec_object(
          "gst-vulkan-device", "GStreamer Vulkan device",
          "The GstVulkanDevice of GStreamer's Vulkan elements that the element runs on, sharing their "
          "VkDevice "
          "(GStreamer 1.24 and later, where such an element is next to it or the application sets a "
          "gst.vulkan.device context on it); NULL when it runs on a device of its own, and until it has "
          "started",
          GST_TYPE_OBJECT, GParamFlags(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property(
      gobject_class, kGpuTime,
      g_param_spec_double(
          "gpu-time", "GPU time",
          "Mean GPU time per frame in microseconds, from Vulkan timestamp queries around the "
          "commands of one frame in 64, over the most recent 8 such frames (0 before the first "
          "449 frames complete, or when the device has no timestamps)",
          0, G_MAXDOUBLE, 0, GParamFlags(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property(
      gobject_class, kUploads,
      g_param_spec_uint64("uploads", "Uploads",
                          "Frames whose input the element read from host memory since it last started (the "
                          "frame crossed to the GPU: kernels reading it in place or a copy), or that the CPU "
                          "wrote into device memory of the element through a map. 0 for frames that arrive "
                          "in device memory (memory:VkComputeDevice) from an element of ours",
                          0, G_MAXUINT64, 0, GParamFlags(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property(
      gobject_class, kDownloads,
      g_param_spec_uint64("downloads", "Downloads",
                          "Frames the element wrote into host memory since it last started (outputs in "
                          "system memory), plus each CPU map of a frame it output in device memory (a read "
                          "back). 0 for outputs in device memory that stay on the GPU, and for frames an "
                          "analysis element passes through",
                          0, G_MAXUINT64, 0, GParamFlags(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
}

gint FilterPropertyValues::known_device() const {
  if (running) return opened_id;
  return device_index >= 0 ? device_index : Device::default_index();
}

void FilterPropertyValues::set(GObject* object, guint prop_id, const GValue* value, GParamSpec* pspec) {
  switch (prop_id) {
    case kDevice: {
      // The device is opened at start; a running element cannot move its frames to another one.
      GST_OBJECT_LOCK(object);
      const gint kept = device_index;
      const bool running = GST_STATE(object) > GST_STATE_READY;
      if (!running) device_index = g_value_get_int(value);
      GST_OBJECT_UNLOCK(object);
      // Warned like GObject warns of out-of-range values, outside the lock.
      if (running)
        g_warning("%s: device %d ignored: the device can only change in the NULL or READY state, keeping %d",
                  GST_OBJECT_NAME(object), g_value_get_int(value), kept);
      break;
    }
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
  }
}

void FilterPropertyValues::get(GObject* object, guint prop_id, GValue* value, GParamSpec* pspec) {
  GST_OBJECT_LOCK(object);
  switch (prop_id) {
    case kDevice: g_value_set_int(value, device_index); break;
    case kDeviceName: g_value_set_string(value, device_name.empty() ? nullptr : device_name.c_str()); break;
    case kDeviceIndex: g_value_set_int(value, opened_index); break;
    case kGstVulkanDevice: g_value_set_object(value, gst_vulkan_device); break;
    case kGpuTime: g_value_set_double(value, gpu_time_us); break;
    case kUploads: g_value_set_uint64(value, counts->uploads); break;
    case kDownloads: g_value_set_uint64(value, counts->downloads); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
  }
  GST_OBJECT_UNLOCK(object);
}

}  // namespace vkc
