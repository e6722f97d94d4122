#include "library.hpp"

#include <dlfcn.h>

#include <atomic>
#include <mutex>
#include <set>

#include "vk/reaper.hpp"

GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_runtime_debug);
#define GST_CAT_DEFAULT gst_vkcompute_runtime_debug

namespace vkc::gstvk {

namespace {

struct Loaded {
  GstVulkanLibrary functions{};
  std::string why;
};

// Points `function` at `name` of `library`; `name` when the library lacks it, else null.
template <typename Function>
const char* resolve(void* library, Function& function, const char* name) {
  function = reinterpret_cast<Function>(dlsym(library, name));
  return function ? nullptr : name;
}

Loaded load() {
  Loaded loaded;
  void* library = dlopen("libgstvulkan-1.0.so.0", RTLD_LAZY);
  if (!library) {
    loaded.why =
        "GStreamer's Vulkan library (libgstvulkan-1.0.so.0, of gst-plugins-bad) is not installed: frames in "
        "memory:VulkanImage are not taken";
    return loaded;
  }
  GstVulkanLibrary& f = loaded.functions;
  const char* const missing[] = {
      resolve(library, f.handle_set_context, "gst_vulkan_handle_set_context"),
      resolve(library, f.handle_context_query, "gst_vulkan_handle_context_query"),
      resolve(library, f.queue_handle_context_query, "gst_vulkan_queue_handle_context_query"),
      resolve(library, f.ensure_element_data, "gst_vulkan_ensure_element_data"),
      resolve(library, f.device_run_context_query, "gst_vulkan_device_run_context_query"),
      resolve(library, f.queue_run_context_query, "gst_vulkan_queue_run_context_query"),
      resolve(library, f.context_get_vulkan_device, "gst_context_get_vulkan_device"),
      resolve(library, f.context_get_vulkan_queue, "gst_context_get_vulkan_queue"),
      resolve(library, f.instance_new, "gst_vulkan_instance_new"),
      resolve(library, f.instance_open, "gst_vulkan_instance_open"),
      resolve(library, f.instance_check_version, "gst_vulkan_instance_check_version"),
      resolve(library, f.device_new_with_index, "gst_vulkan_device_new_with_index"),
      resolve(library, f.device_enable_extension, "gst_vulkan_device_enable_extension"),
      resolve(library, f.device_open, "gst_vulkan_device_open"),
      resolve(library, f.device_is_extension_enabled, "gst_vulkan_device_is_extension_enabled"),
      resolve(library, f.device_get_physical_device, "gst_vulkan_device_get_physical_device"),
      resolve(library, f.device_get_queue, "gst_vulkan_device_get_queue"),
      resolve(library, f.queue_submit_lock, "gst_vulkan_queue_submit_lock"),
      resolve(library, f.queue_submit_unlock, "gst_vulkan_queue_submit_unlock"),
      resolve(library, f.image_memory_init_once, "gst_vulkan_image_memory_init_once"),
      resolve(library, f.buffer_memory_init_once, "gst_vulkan_buffer_memory_init_once"),
      resolve(library, f.is_image_memory, "gst_is_vulkan_image_memory"),
      resolve(library, f.is_buffer_memory, "gst_is_vulkan_buffer_memory"),
      resolve(library, f.image_memory_alloc, "gst_vulkan_image_memory_alloc"),
      resolve(library, f.buffer_memory_alloc, "gst_vulkan_buffer_memory_alloc"),
      resolve(library, f.image_buffer_pool_new, "gst_vulkan_image_buffer_pool_new"),
  };
  for (const char* name : missing) {
    if (name) {
      loaded.why = std::string("GStreamer's Vulkan library lacks ") + name + " (1.22 or later has it)";
      return loaded;
    }
  }
  // GStreamer's development line after 1.28 guards the memory's barrier state with a lock and moved
  // its timeline semaphore out of it: the fields gstvk/abi.hpp reads are no longer where it says.
  if (dlsym(library, "gst_vulkan_image_memory_compare_exchange_barrier_unlocked")) {
    loaded.why =
        "GStreamer's Vulkan library is newer than 1.28 and keeps its memory's barrier state in a layout this "
        "plugin does not read";
    return loaded;
  }
  resolve(library, f.instance_check_api_version, "gst_vulkan_instance_check_api_version");
  resolve(library, f.device_select_queue, "gst_vulkan_device_select_queue");
  resolve(library, f.image_buffer_pool_config_set_allocation_params,
          "gst_vulkan_image_buffer_pool_config_set_allocation_params");
  f.has_operation = dlsym(library, "gst_vulkan_operation_new") != nullptr;
  return loaded;
}

const Loaded& loaded_once() {
  static const Loaded loaded = [] {
    Loaded loaded = load();  // kept for the process, as the library stays loaded
    if (loaded.why.empty())
      GST_INFO("GStreamer's Vulkan library loaded (%s)", loaded.functions.has_operation
                                                             ? "1.24 or later: 64-bit barrier flags"
                                                             : "before 1.24: 32-bit barrier flags");
    else
      GST_INFO("%s", loaded.why.c_str());
    return loaded;
  }();
  return loaded;
}

// Why interop was turned off after loading (turn_off()), or empty. Leaked: an element's thread may
// still ask while the process exits, after static destructors would have run.
struct TurnedOff {
  std::mutex mutex;
  std::string why;  // guarded by mutex
};
TurnedOff& turned_off() {
  static auto* state = new TurnedOff();
  return *state;
}

}  // namespace

const GstVulkanLibrary* gst_vulkan_library(std::string& why) {
  const Loaded& loaded = loaded_once();
  if (!loaded.why.empty()) {
    why = loaded.why;
    return nullptr;
  }
  TurnedOff& off = turned_off();
  std::lock_guard<std::mutex> lock(off.mutex);
  if (!off.why.empty()) {
    why = off.why;
    return nullptr;
  }
  return &loaded.functions;
}

bool in_process() {
  static std::atomic<bool> found{false};
  if (found.load(std::memory_order_relaxed)) return true;
  void* library = dlopen("libgstvulkan-1.0.so.0", RTLD_LAZY | RTLD_NOLOAD);
  if (!library) return false;
  dlclose(library);  // the reference RTLD_NOLOAD took; the library stays, as its users hold it
  found = true;
  return true;
}

void met_instance(GstVulkanInstance* instance) {
  // Compared, never followed: an instance freed and another made at its address counts once (the
  // drivers stay loaded while GStreamer's global instance lives, which is the process's life).
  static std::mutex mutex;
  static std::set<const void*> met;
  std::lock_guard<std::mutex> lock(mutex);
  if (instance && met.insert(instance).second) after_other_instance();
}

void turn_off(const std::string& why) {
  TurnedOff& off = turned_off();
  std::lock_guard<std::mutex> lock(off.mutex);
  if (!off.why.empty()) return;
  off.why = why;
  GST_WARNING("frames and contexts of GStreamer's Vulkan elements are not taken: %s", why.c_str());
}

}  // namespace vkc::gstvk
