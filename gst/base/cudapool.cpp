#include "cudapool.hpp"

#include <gst/video/video.h>

#include "cuda/gstcudalibrary.hpp"

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
  gst_query_parse_allocation(query, &caps, nullptr);
  GstVideoInfo info;
  if (!caps || !gst_video_info_from_caps(&info, caps)) {
    error = "the caps are not video";
    return false;
  }
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
  min_buffers += frames_in_flight;
  GstStructure* config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, caps, guint(info.size), min_buffers, 0);
  gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  // A pool may take the settings only with changes (its own sizes and alignment): those it offers
  // then do.
  if (!gst_buffer_pool_set_config(pool, config)) {
    config = gst_buffer_pool_get_config(pool);
    const bool valid = gst_buffer_pool_config_validate_params(config, caps, guint(info.size), min_buffers, 0);
    if (!valid || !gst_buffer_pool_set_config(pool, config)) {
      if (!valid) gst_structure_free(config);
      gst_object_unref(pool);
      error = "GStreamer's CUDA pool refuses the caps";
      return false;
    }
  }
  if (gst_query_get_n_allocation_pools(query) > 0)
    gst_query_set_nth_allocation_pool(query, 0, pool, guint(info.size), min_buffers, 0);
  else
    gst_query_add_allocation_pool(query, pool, guint(info.size), min_buffers, 0);
  gst_object_unref(pool);
  return true;
}

}  // namespace vkc
