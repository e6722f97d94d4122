#include "cudapool.hpp"

#include <gst/video/video.h>

#include "cuda/gstcudalibrary.hpp"
#include "outputpool.hpp"

namespace vkc {

namespace {

// Whether `pool` is one of GStreamer's CUDA pools (its type is registered by the CUDA library).
bool is_cuda_pool(GstBufferPool* pool) {
  return pool && g_strcmp0(G_OBJECT_TYPE_NAME(pool), "GstCudaBufferPool") == 0;
}

}  // namespace

bool decide_cuda_pool(GstElement* element, GstQuery* query, cuda::ElementContext& context, int ordinal,
                      guint frames_in_flight, std::string& error) {
  GstCaps* caps = nullptr;
  GstVideoInfo info;
  if (!allocation_caps(query, caps, info, error)) return false;
  const cuda::GstCudaLibrary* library = cuda::gst_cuda_library(error);
  if (!library) return false;
  GstBufferPool* pool = nullptr;
  guint min_buffers = 0;
  if (gst_query_get_n_allocation_pools(query) > 0)
    gst_query_parse_nth_allocation_pool(query, 0, &pool, nullptr, &min_buffers, nullptr);
  if (!is_cuda_pool(pool)) {
    if (pool) gst_object_unref(pool);
    gpointer cuda_context = context.ensure(element, ordinal, error);
    if (!cuda_context) return false;
    pool = library->buffer_pool_new(cuda_context);
  }
  return set_output_pool(query, pool, caps, info, min_buffers + frames_in_flight, "GStreamer's CUDA pool",
                         error);
}

}  // namespace vkc
