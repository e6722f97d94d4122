#include "gstcudamemory.hpp"

#include <string>

#include "gstcudalibrary.hpp"

namespace vkc::cuda {

namespace {

// The head of GstCudaMemory (gst/cuda/gstcudamemory.h, the same in 1.22 and 1.24): its GstMemory,
// then the public GstCudaContext of the memory.
struct CudaMemoryHead {
  GstMemory mem;
  GObject* context;
};

}  // namespace

bool is_cuda_frame(GstBuffer* buffer) {
  return gst_buffer_n_memory(buffer) == 1 &&
         gst_memory_is_type(gst_buffer_peek_memory(buffer, 0), kMemoryType);
}

int upstream_cuda_device(GstElement* element) {
  GstPad* sink = gst_element_get_static_pad(element, "sink");
  if (!sink) return -1;
  GstQuery* query = gst_query_new_context(kContextType);
  int device = -1;
  if (gst_pad_peer_query(sink, query)) {
    GstContext* context = nullptr;
    gst_query_parse_context(query, &context);
    guint id = 0;
    if (context && gst_structure_get_uint(gst_context_get_structure(context), "cuda-device-id", &id))
      device = int(id);
  }
  gst_query_unref(query);
  gst_object_unref(sink);
  return device;
}

void* context_of(GstMemory* memory, std::string& error, GObject** owner) {
  GObject* context = reinterpret_cast<CudaMemoryHead*>(memory)->context;
  if (!context || g_strcmp0(G_OBJECT_TYPE_NAME(context), "GstCudaContext") != 0) {
    error = "the CUDA memory names no CUDA context";
    return nullptr;
  }
  if (owner) *owner = context;
  const GstCudaLibrary* library = gst_cuda_library(error);
  return library ? library->context_get_handle(context) : nullptr;
}

void wait_for_writer(GstMemory* memory) {
  if (!GST_MEMORY_FLAG_IS_SET(memory, kTransferNeedSync)) return;
  std::string why;
  const GstCudaLibrary* library = gst_cuda_library(why);
  if (library && library->memory_sync) library->memory_sync(memory);  // clears the flag
}

}  // namespace vkc::cuda
