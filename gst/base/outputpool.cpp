#include "outputpool.hpp"

namespace vkc {

bool allocation_caps(GstQuery* query, GstCaps*& caps, GstVideoInfo& info, std::string& error) {
  caps = nullptr;
  gst_query_parse_allocation(query, &caps, nullptr);
  if (caps && gst_video_info_from_caps(&info, caps)) return true;
  error = "the caps are not video";
  return false;
}

GstBufferPool* proposed_pool(GstQuery* query, const char* type_name, guint& min_buffers) {
  GstBufferPool* pool = nullptr;
  min_buffers = 0;
  if (gst_query_get_n_allocation_pools(query) > 0)
    gst_query_parse_nth_allocation_pool(query, 0, &pool, nullptr, &min_buffers, nullptr);
  if (pool && g_strcmp0(G_OBJECT_TYPE_NAME(pool), type_name) != 0) gst_clear_object(&pool);
  return pool;
}

bool set_output_pool(GstQuery* query, GstBufferPool* pool, GstCaps* caps, const GstVideoInfo& info,
                     guint min_buffers, const char* what, std::string& error,
                     const std::function<void(GstStructure* config)>& also) {
  GstStructure* config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, caps, guint(info.size), min_buffers, 0);
  gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (also) also(config);
  if (!gst_buffer_pool_set_config(pool, config)) {
    config = gst_buffer_pool_get_config(pool);
    const bool valid = gst_buffer_pool_config_validate_params(config, caps, guint(info.size), min_buffers, 0);
    if (!valid || !gst_buffer_pool_set_config(pool, config)) {
      if (!valid) gst_structure_free(config);
      gst_object_unref(pool);
      error = std::string(what) + " refuses the caps";
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
