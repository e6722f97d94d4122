// What the tests of gst/gstvk share: GStreamer's Vulkan library, loaded (a test fails without it:
// the suite's machines have it), and the release it is of.
#pragma once

#include <string>

#include "common/runtime_test.h"
#include "gstvk/library.hpp"

namespace gstvk_test {

inline const vkc::gstvk::GstVulkanLibrary& Library() {
  std::string why;
  const vkc::gstvk::GstVulkanLibrary* library = vkc::gstvk::gst_vulkan_library(why);
  fail_unless(library != nullptr, "GStreamer's Vulkan library: %s", why.c_str());
  return *library;
}

// GStreamer's minor version: its Vulkan library is of the same release.
inline guint GstMinor() {
  guint major, minor, micro, nano;
  gst_version(&major, &minor, &micro, &nano);
  return minor;
}

// A device of GStreamer's on physical device `index`, made as an application makes one to share (on
// an instance of the Vulkan version GST_VULKAN_INSTANCE_API_VERSION asks for, when set).
inline GstVulkanDevice* ApplicationDevice(guint index = 0) {
  const vkc::gstvk::GstVulkanLibrary& library = Library();
  GError* error = nullptr;
  GstVulkanInstance* instance = library.instance_new();
  fail_unless(library.instance_open(instance, &error), "instance: %s", error ? error->message : "?");
  GstVulkanDevice* device = library.device_new_with_index(instance, index);
  fail_unless(library.device_open(device, &error), "device: %s", error ? error->message : "?");
  gst_object_unref(instance);  // the device holds it
  return device;
}

// Sets `object` on `element` as the application does: a context of `type` ("gst.vulkan.device",
// "gst.vulkan.instance"), filled as gst_context_set_vulkan_device() and _instance() fill theirs.
inline void SetApplicationContext(GstElement* element, const char* type, gpointer object) {
  GstContext* context = gst_context_new(type, TRUE);
  gst_structure_set(gst_context_writable_structure(context), type, G_OBJECT_TYPE(object), object, nullptr);
  gst_element_set_context(element, context);
  gst_context_unref(context);
}

inline void SetApplicationDevice(GstElement* element, GstVulkanDevice* device) {
  SetApplicationContext(element, "gst.vulkan.device", device);
}

// The gst-vulkan-device property of the element named `element` in `pipeline` (compared only: the
// reference is dropped).
inline const void* RunsOn(GstElement* pipeline, const char* element) {
  GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), element);
  GstObject* device = nullptr;
  g_object_get(e, "gst-vulkan-device", &device, nullptr);
  gst_object_unref(e);
  if (device) gst_object_unref(device);
  return device;
}

// A weak reference's notify: sets the bool it is given when the object's last reference goes.
inline void Gone(gpointer gone, GObject*) {
  *static_cast<bool*>(gone) = true;
}

}  // namespace gstvk_test
