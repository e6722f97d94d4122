#include "gstcudalibrary.hpp"

#include <dlfcn.h>

#include <utility>

namespace vkc::cuda {

namespace {

struct Loaded {
  GstCudaLibrary functions{};
  std::string why;
};

Loaded load() {
  Loaded loaded;
  void* library = dlopen("libgstcuda-1.0.so.0", RTLD_LAZY);
  if (!library) {
    loaded.why = "GStreamer's CUDA library (libgstcuda-1.0.so.0, of gst-plugins-bad) is not installed";
    return loaded;
  }
  GstCudaLibrary& f = loaded.functions;
  const std::pair<void**, const char*> wanted[] = {
      {reinterpret_cast<void**>(&f.context_get_handle), "gst_cuda_context_get_handle"},
      {reinterpret_cast<void**>(&f.buffer_pool_new), "gst_cuda_buffer_pool_new"},
      {reinterpret_cast<void**>(&f.ensure_element_context), "gst_cuda_ensure_element_context"},
      {reinterpret_cast<void**>(&f.handle_set_context), "gst_cuda_handle_set_context"},
      {reinterpret_cast<void**>(&f.handle_context_query), "gst_cuda_handle_context_query"},
  };
  for (const auto& [function, name] : wanted) {
    *function = dlsym(library, name);
    if (!*function) {
      loaded.why = std::string("GStreamer's CUDA library lacks ") + name + " (1.22 or later has it)";
      return loaded;
    }
  }
  // From 1.24 on, an element that writes CUDA memory on a stream of its own may push it before that
  // work ends, marking the memory; its reader waits (gstcudamemory.hpp, wait_for_writer()).
  f.memory_sync = reinterpret_cast<void (*)(GstMemory*)>(dlsym(library, "gst_cuda_memory_sync"));
  // The library calls the driver through a table of its own, filled here (as its elements' plugins
  // do before anything else).
  auto load_library = reinterpret_cast<gboolean (*)()>(dlsym(library, "gst_cuda_load_library"));
  if (!load_library || !load_library()) {
    loaded.why = "GStreamer's CUDA library cannot load the CUDA driver";
    return loaded;
  }
  return loaded;
}

}  // namespace

const GstCudaLibrary* gst_cuda_library(std::string& why) {
  static const Loaded loaded = load();  // kept for the process, as the library stays loaded
  if (!loaded.why.empty()) {
    why = loaded.why;
    return nullptr;
  }
  return &loaded.functions;
}

}  // namespace vkc::cuda
