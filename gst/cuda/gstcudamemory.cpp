#include "gstcudamemory.hpp"

#include <dlfcn.h>

#include <string>

namespace vkc::cuda {

namespace {

// The head of GstCudaMemory (gst/cuda/gstcudamemory.h, the same in 1.22 and 1.24): its GstMemory,
// then the public GstCudaContext of the memory.
struct CudaMemoryHead {
  GstMemory mem;
  GObject* context;
};

using GetHandle = gpointer (*)(gpointer context);  // gst_cuda_context_get_handle()

// gst_cuda_context_get_handle() of the GStreamer CUDA library the process has loaded (the one that
// made the memory), or null.
GetHandle get_handle() {
  static const GetHandle function = []() -> GetHandle {
    void* library = dlopen("libgstcuda-1.0.so.0", RTLD_LAZY | RTLD_NOLOAD);
    return library ? reinterpret_cast<GetHandle>(dlsym(library, "gst_cuda_context_get_handle")) : nullptr;
  }();
  return function;
}

}  // namespace

bool is_cuda_frame(GstBuffer* buffer) {
  return gst_buffer_n_memory(buffer) == 1 &&
         gst_memory_is_type(gst_buffer_peek_memory(buffer, 0), kMemoryType);
}

void* context_of(GstMemory* memory, std::string& error) {
  GObject* context = reinterpret_cast<CudaMemoryHead*>(memory)->context;
  if (!context || g_strcmp0(G_OBJECT_TYPE_NAME(context), "GstCudaContext") != 0) {
    error = "the CUDA memory names no CUDA context";
    return nullptr;
  }
  GetHandle handle = get_handle();
  if (!handle) {
    error = "GStreamer's CUDA library (libgstcuda-1.0.so.0) is not loaded, though its memory is here";
    return nullptr;
  }
  return handle(context);
}

}  // namespace vkc::cuda
