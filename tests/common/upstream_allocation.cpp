#include "upstream_allocation.h"

#include "packed_buffer.h"

namespace vktest {

UpstreamAllocation::UpstreamAllocation(GstPad* srcpad, GstCaps* caps) {
  if (!gst_video_info_from_caps(&info_, caps)) g_error("unusable caps for allocation");
  gst_allocation_params_init(&params_);

  GstQuery* query = gst_query_new_allocation(caps, TRUE);
  if (gst_pad_peer_query(srcpad, query)) {
    if (gst_query_get_n_allocation_params(query) > 0) {
      gst_query_parse_nth_allocation_param(query, 0, &allocator_, &params_);
    }
    guint size = 0, min = 0, max = 0;
    if (gst_query_get_n_allocation_pools(query) > 0) {
      gst_query_parse_nth_allocation_pool(query, 0, &pool_, &size, &min, &max);
    }
    if (pool_ != nullptr) {
      if (size < GST_VIDEO_INFO_SIZE(&info_)) size = GST_VIDEO_INFO_SIZE(&info_);
      GstStructure* config = gst_buffer_pool_get_config(pool_);
      gst_buffer_pool_config_set_params(config, caps, size, min, max);
      video_meta_ = gst_buffer_pool_has_option(pool_, GST_BUFFER_POOL_OPTION_VIDEO_META);
      if (video_meta_) gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
      // A pool may refuse a configuration once and store its own adjustment instead; accept
      // the adjustment, as GstBaseSrc-based sources do.
      if (!gst_buffer_pool_set_config(pool_, config) &&
          !gst_buffer_pool_set_config(pool_, gst_buffer_pool_get_config(pool_))) {
        g_error("the proposed pool rejects its own configuration");
      }
      if (!gst_buffer_pool_set_active(pool_, TRUE)) g_error("cannot activate the proposed pool");
    }
  }
  gst_query_unref(query);
}

UpstreamAllocation::~UpstreamAllocation() {
  if (pool_ != nullptr) {
    gst_buffer_pool_set_active(pool_, FALSE);
    gst_object_unref(pool_);
  }
  if (allocator_ != nullptr) gst_object_unref(allocator_);
}

GstBuffer* UpstreamAllocation::NewBuffer(const uint8_t* rows, int row_bytes) {
  GstBuffer* buffer = nullptr;
  if (pool_ != nullptr) {
    if (gst_buffer_pool_acquire_buffer(pool_, &buffer, nullptr) != GST_FLOW_OK) {
      g_error("cannot acquire a buffer from the proposed pool");
    }
  } else {
    buffer = gst_buffer_new_allocate(allocator_, GST_VIDEO_INFO_SIZE(&info_), &params_);
  }
  FillPackedBuffer(buffer, info_, rows, row_bytes);
  return buffer;
}

}  // namespace vktest
