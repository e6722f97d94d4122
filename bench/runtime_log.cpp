#include "runtime_log.hpp"

#include <gst/gst.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace bench {

namespace {

std::mutex lock;
RuntimeHeld held;  // lock

void on_log(GstDebugCategory* category, GstDebugLevel, const gchar*, const gchar*, gint, GObject*,
            GstDebugMessage* message, gpointer) {
  if (std::strcmp(gst_debug_category_get_name(category), "vkcompute") != 0) return;
  const char* text = gst_debug_message_get(message);
  if (!text) return;
  if (std::strncmp(text, "compiled kernel ", 16) == 0) {
    std::lock_guard<std::mutex> guard(lock);
    ++held.kernels_compiled;
    return;
  }
  const bool allocated = std::strncmp(text, "allocated ", 10) == 0;
  if (!allocated && std::strncmp(text, "freed ", 6) != 0) return;
  // "... Vulkan device N holds D bytes of device-local and H of host-visible memory, in AD and AH bytes
  // allocated from the driver"
  const char* holds = std::strstr(text, " holds ");
  uint64_t device_local = 0, host_visible = 0, allocated_device_local = 0, allocated_host_visible = 0;
  if (!holds ||
      std::sscanf(holds,
                  " holds %" SCNu64 " bytes of device-local and %" SCNu64
                  " of host-visible memory, in %" SCNu64 " and %" SCNu64,
                  &device_local, &host_visible, &allocated_device_local, &allocated_host_visible) != 4)
    return;
  std::lock_guard<std::mutex> guard(lock);
  held.device_local = device_local;
  held.host_visible = host_visible;
  held.allocated_device_local = allocated_device_local;
  held.allocated_host_visible = allocated_host_visible;
  ++(allocated ? held.allocations : held.frees);
}

}  // namespace

void read_runtime_log() {
  static std::once_flag once;
  std::call_once(once, [] {
    gst_debug_set_threshold_for_name("vkcompute", GST_LEVEL_DEBUG);
    // The default log function (stderr) prints the category's lines too: one per buffer made.
    gst_debug_add_log_function(on_log, nullptr, nullptr);
  });
}

RuntimeHeld runtime_held() {
  std::lock_guard<std::mutex> guard(lock);
  return held;
}

}  // namespace bench
