// The properties every element of ours has (the base class's): the device it runs on and what it
// did since it started. gst_vkcompute_filter_get/set_property() handle them by these ids.
#pragma once

#include <gst/gst.h>

#include <memory>
#include <string>

#include "vkmemory.hpp"

namespace vkc {

enum FilterProperty : guint {
  kDevice = 1,
  kDeviceName,
  kDeviceIndex,
  kGstVulkanDevice,
  kGpuTime,
  kUploads,
  kDownloads
};

// Installs them on the base class, with the texts gst-inspect-1.0 shows.
void install_filter_properties(GObjectClass* gobject_class);

// Their values in one element (the element's object lock, which set() and get() take).
struct FilterPropertyValues {
  gint device_index = -1;
  // The device opened at the last start; `running` from then to the stop.
  std::string device_name;
  gint opened_index = -1;
  gint opened_id = -1;  // Device::id(), in the elements' device query
  // GStreamer's GstVulkanDevice the element runs on (a reference), else null (deviceshare.hpp).
  GstObject* gst_vulkan_device = nullptr;
  bool running = false;
  double gpu_time_us = 0;  // the mean of the latest window of timed frames
  // `uploads` and `downloads` since the last start, counted by the stream; the device allocator
  // counts CPU maps.
  std::shared_ptr<TransferCounts> counts = std::make_shared<TransferCounts>();

  // The device the element runs on (its Device::id()), else the one its `device` or
  // GST_VKCOMPUTE_DEVICE sets; -1 when it will choose at its start.
  gint known_device() const;

  void set(GObject* object, guint id, const GValue* value, GParamSpec* pspec);
  void get(GObject* object, guint id, GValue* value, GParamSpec* pspec);
};

}  // namespace vkc
