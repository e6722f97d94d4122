#include "framepools.hpp"

#include "bufferpool.hpp"
#include "memorycaps.hpp"

namespace vkc {

FramePools::FramePools(std::shared_ptr<Device> device, std::shared_ptr<TransferCounts> counts,
                       guint frames_in_flight)
    : frames_in_flight_(frames_in_flight),
      host_(gst_vkcompute_allocator_new(device)),
      device_(gst_vkcompute_device_allocator_new(device, std::move(counts))) {}

FramePools::~FramePools() {
  gst_clear_object(&upstream_pool_);
  gst_clear_object(&host_);
  gst_clear_object(&device_);
}

GstAllocator* FramePools::allocator_for(GstCaps* caps) const {
  return caps_in_device_memory(caps) ? device_ : host_;
}

bool FramePools::propose(GstQuery* query, bool passthrough, GstPad* src) {
  GstCaps* caps = nullptr;
  gboolean need_pool = FALSE;
  gst_query_parse_allocation(query, &caps, &need_pool);
  GstVideoInfo info;
  if (!caps || !gst_video_info_from_caps(&info, caps)) return false;

  // Upstream keeps up to one frame per ring slot waiting in us, plus the one it is filling. Our
  // pool makes them only when they are in flight (bufferpool.hpp).
  const guint min_buffers = frames_in_flight_ + 1;
  if (passthrough) {
    // Downstream receives the same buffers: its pool, when it has one, wins (its memory may be
    // what it needs, e.g. for display); we then import or copy. Otherwise ours: zero copies.
    gst_pad_peer_query(src, query);
    GstBufferPool* downstream = nullptr;
    if (gst_query_get_n_allocation_pools(query) > 0)
      gst_query_parse_nth_allocation_pool(query, 0, &downstream, nullptr, nullptr, nullptr);
    if (downstream) {
      gst_object_unref(downstream);
      return true;
    }
    while (gst_query_get_n_allocation_pools(query) > 0) gst_query_remove_nth_allocation_pool(query, 0);
  }
  if (need_pool) {
    if (upstream_pool_) {
      GstStructure* config = gst_buffer_pool_get_config(upstream_pool_);
      GstCaps* pool_caps = nullptr;
      gst_buffer_pool_config_get_params(config, &pool_caps, nullptr, nullptr, nullptr);
      if (!pool_caps || !gst_caps_is_equal(pool_caps, caps)) gst_clear_object(&upstream_pool_);
      gst_structure_free(config);
    }
    if (!upstream_pool_)
      upstream_pool_ = gst_vkcompute_buffer_pool_new(allocator_for(caps), caps, guint(info.size), min_buffers,
                                                     gst_vkcompute_memory_worth_moving,
                                                     gst_vkcompute_memory_imported_elsewhere);
  }
  gst_query_add_allocation_pool(query, need_pool ? upstream_pool_ : nullptr, guint(info.size), min_buffers,
                                0);
  gst_query_add_allocation_param(query, allocator_for(caps), nullptr);
  if (!gst_query_find_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr))
    gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  // A crop upstream (videocrop) may leave the frame whole and say where the region is: the input
  // binding reads it there (frame.cpp). Not when the buffers pass through to downstream, whose
  // answer above says whether it reads crops.
  if (!passthrough && !gst_query_find_allocation_meta(query, GST_VIDEO_CROP_META_API_TYPE, nullptr))
    gst_query_add_allocation_meta(query, GST_VIDEO_CROP_META_API_TYPE, nullptr);
  return true;
}

bool FramePools::decide(GstQuery* query, bool device) {
  GstCaps* caps = nullptr;
  gst_query_parse_allocation(query, &caps, nullptr);
  GstVideoInfo info;
  if (!caps || !gst_video_info_from_caps(&info, caps)) return false;

  // Output always comes from our own memory, whatever pool downstream offers: host-visible memory
  // that the GPU writes and downstream reads in place, or device-local memory for another element
  // of ours. Downstream's minimum still counts.
  guint min_buffers = 0;
  guint n_pools = gst_query_get_n_allocation_pools(query);
  if (n_pools > 0) gst_query_parse_nth_allocation_pool(query, 0, nullptr, nullptr, &min_buffers, nullptr);
  min_buffers += frames_in_flight_;
  GstBufferPool* pool = gst_vkcompute_buffer_pool_new(device ? device_ : host_, caps, guint(info.size),
                                                      min_buffers, gst_vkcompute_memory_worth_moving,
                                                      gst_vkcompute_memory_imported_elsewhere);
  if (!pool) return false;
  if (n_pools > 0)
    gst_query_set_nth_allocation_pool(query, 0, pool, guint(info.size), min_buffers, 0);
  else
    gst_query_add_allocation_pool(query, pool, guint(info.size), min_buffers, 0);
  gst_object_unref(pool);
  return true;
}

GstFlowReturn FramePools::acquire(GstElement* element, GstBufferPool* pool, GstBuffer** out) {
  GstFlowReturn flow = GST_FLOW_ERROR;
  if (pool) {
    if (!gst_buffer_pool_is_active(pool)) gst_buffer_pool_set_active(pool, TRUE);
    flow = gst_buffer_pool_acquire_buffer(pool, out, nullptr);
  }
  if (flow != GST_FLOW_OK && flow != GST_FLOW_FLUSHING)
    GST_ELEMENT_ERROR(element, RESOURCE, FAILED, ("No output buffer from the element's Vulkan pool."),
                      ("%s", gst_flow_get_name(flow)));
  return flow;
}

}  // namespace vkc
