#include "cudapool.hpp"

#include <gst/video/video.h>

#include "cuda/gstcudalibrary.hpp"
#include "outputpool.hpp"

namespace vkc {

bool decide_cuda_pool(GstElement* element, GstQuery* query, cuda::ElementContext& context, int ordinal,
                      guint frames_in_flight, std::string& error) {
  GstCaps* caps = nullptr;
  GstVideoInfo info;
  if (!allocation_caps(query, caps, info, error)) return false;
  const cuda::GstCudaLibrary* library = cuda::gst_cuda_library(error);
  if (!library) return false;
  guint min_buffers = 0;
  // Its type is registered by GStreamer's CUDA library.
  GstBufferPool* pool = proposed_pool(query, "GstCudaBufferPool", min_buffers);
  if (!pool) {
    gpointer cuda_context = context.ensure(element, ordinal, error);
    if (!cuda_context) return false;
    pool = library->buffer_pool_new(cuda_context);
  }
  return set_output_pool(query, pool, caps, info, min_buffers + frames_in_flight, "GStreamer's CUDA pool",
                         error);
}

}  // namespace vkc
