#include "bufferpool.hpp"

#include <gst/video/video.h>

namespace {

struct VkComputeBufferPool {
  GstVideoBufferPool parent;
};

struct VkComputeBufferPoolClass {
  GstVideoBufferPoolClass parent_class;
};

G_DEFINE_TYPE(VkComputeBufferPool, vkcompute_buffer_pool, GST_TYPE_VIDEO_BUFFER_POOL)

// GstBufferPool's start allocates the config's minimum at once; acquire allocates when the pool is
// empty anyway (below its maximum, if it has one), so starting needs nothing.
gboolean start_empty(GstBufferPool*) {
  return TRUE;
}

void vkcompute_buffer_pool_class_init(VkComputeBufferPoolClass* klass) {
  GST_BUFFER_POOL_CLASS(klass)->start = start_empty;
}

void vkcompute_buffer_pool_init(VkComputeBufferPool*) {}

}  // namespace

GstBufferPool* gst_vkcompute_buffer_pool_new(GstAllocator* allocator, GstCaps* caps, guint size,
                                             guint min_buffers) {
  auto* pool = GST_BUFFER_POOL(g_object_new(vkcompute_buffer_pool_get_type(), nullptr));
  gst_object_ref_sink(pool);
  GstStructure* config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, caps, size, min_buffers, 0);
  gst_buffer_pool_config_set_allocator(config, allocator, nullptr);
  gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config(pool, config)) {
    gst_object_unref(pool);
    return nullptr;
  }
  return pool;
}
