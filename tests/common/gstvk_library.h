// What the tests of gst/gstvk share: GStreamer's Vulkan library, loaded (a test fails without it:
// the suite's machines have it), and the release it is of.
#pragma once

#include <string>

#include "common/runtime_test.h"
#include "gstvk/library.hpp"

#include <cstdio>

namespace gstvk_test {

// How long a test on GStreamer's Vulkan device waits for a frame or the end of its stream: longer
// than the frame timeout its suite gives the plugin (GST_VKCOMPUTE_FRAME_TIMEOUT_MS=120000,
// tests/meson.build), since GStreamer's instance turns the GPU-assisted checks on and lavapipe's
// first frames then take seconds each; so a frame that never completes ends as the plugin's error,
// not as the wait's. (At 30 s, two of these suites gave up on a busy 2-core machine while the plugin
// was still within its timeout.)
constexpr GstClockTime kFrameWait = 150 * GST_SECOND;

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

// A weak reference's notify: sets the gint it is given to 1 when the object's last reference goes,
// on whichever thread lets go of it.
inline void Gone(gpointer gone, GObject*) {
  g_atomic_int_set(static_cast<gint*>(gone), 1);
}

// Whether Gone() has fired, waiting for it up to a minute: frames still on the GPU when their
// pipeline stopped keep the device until that work ends (the reaper lets go of them then), and on
// lavapipe a stream's first frames under the validation layer's GPU-assisted checks (GStreamer's
// instance turns them on from 1.24) take seconds with a cold shader cache. Prints the wait.
inline bool WaitGone(const gint* gone, const char* what) {
  const gint64 start = g_get_monotonic_time();
  while (!g_atomic_int_get(gone) && g_get_monotonic_time() - start < 60 * G_USEC_PER_SEC) g_usleep(10'000);
  const double waited = double(g_get_monotonic_time() - start) / G_USEC_PER_SEC;
  if (waited >= 0.01) std::printf("%s: the device went %.2f s after the pipeline\n", what, waited);
  return g_atomic_int_get(gone) != 0;
}

}  // namespace gstvk_test
