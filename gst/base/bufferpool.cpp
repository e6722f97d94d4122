#include "bufferpool.hpp"

#include <gst/video/video.h>

#include <mutex>

#include "recentpeak.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_vkcompute_pool_debug);
#define GST_CAT_DEFAULT gst_vkcompute_pool_debug

namespace {

// How many buffers a pool made and how many are out, and the most out at once lately.
class Usage {
 public:
  void made(int change) {
    std::lock_guard<std::mutex> guard(lock_);
    made_ += change;
    if (change > 0) peak_out_.made(now_ns());
  }
  // A released buffer was freed because the pool held more than it needs.
  void gave_back() {
    std::lock_guard<std::mutex> guard(lock_);
    peak_out_.gave_back(now_ns());
  }
  // `change` buffers more out (negative: back); whether the pool now holds more than it needs.
  bool out(int change) {
    std::lock_guard<std::mutex> guard(lock_);
    out_ += change;
    peak_out_.note(out_, now_ns());
    return made_ > peak_out_.keep();
  }

 private:
  static int64_t now_ns() { return g_get_monotonic_time() * 1000; }

  std::mutex lock_;
  guint made_ = 0;  // allocated and not freed: out, or waiting in the pool's queue
  guint out_ = 0;   // acquired and not yet released
  vkc::RecentPeak peak_out_;
};

struct VkComputeBufferPool {
  GstVideoBufferPool parent;
  Usage* usage;
  GstVkComputeWorthMoving worth_moving;  // may be null
  GstVkComputeDearToFree dear_to_free;   // may be null
};

struct VkComputeBufferPoolClass {
  GstVideoBufferPoolClass parent_class;
};

G_DEFINE_TYPE(VkComputeBufferPool, vkcompute_buffer_pool, GST_TYPE_VIDEO_BUFFER_POOL)

Usage& usage_of(GstBufferPool* pool) {
  return *reinterpret_cast<VkComputeBufferPool*>(pool)->usage;
}

GstBufferPoolClass* parent_class() {
  return GST_BUFFER_POOL_CLASS(vkcompute_buffer_pool_parent_class);
}

// GstBufferPool's start allocates the config's minimum at once; acquire allocates when the pool is
// empty anyway (below its maximum, if it has one), so starting needs nothing.
gboolean start_empty(GstBufferPool*) {
  return TRUE;
}

GstFlowReturn alloc_buffer(GstBufferPool* pool, GstBuffer** buffer, GstBufferPoolAcquireParams* params) {
  const GstFlowReturn ret = parent_class()->alloc_buffer(pool, buffer, params);
  if (ret == GST_FLOW_OK) usage_of(pool).made(1);
  return ret;
}

void free_buffer(GstBufferPool* pool, GstBuffer* buffer) {
  usage_of(pool).made(-1);
  parent_class()->free_buffer(pool, buffer);
}

GstFlowReturn acquire_buffer(GstBufferPool* pool, GstBuffer** buffer, GstBufferPoolAcquireParams* params) {
  const GstFlowReturn ret = parent_class()->acquire_buffer(pool, buffer, params);
  if (ret == GST_FLOW_OK) usage_of(pool).out(1);
  return ret;
}

// Whether the buffer's memory would be better placed if made again (the pool's `worth_moving`).
bool worth_moving(GstBufferPool* pool, GstBuffer* buffer) {
  auto check = reinterpret_cast<VkComputeBufferPool*>(pool)->worth_moving;
  return check && gst_buffer_n_memory(buffer) == 1 && check(gst_buffer_peek_memory(buffer, 0));
}

// Whether the buffer's memory costs more to make again than to keep (the pool's `dear_to_free`).
bool dear_to_free(GstBufferPool* pool, GstBuffer* buffer) {
  auto check = reinterpret_cast<VkComputeBufferPool*>(pool)->dear_to_free;
  if (!check) return false;
  for (guint i = 0; i < gst_buffer_n_memory(buffer); i++)
    if (check(gst_buffer_peek_memory(buffer, i))) return true;
  return false;
}

// A buffer beyond what the stream used at once lately is freed instead of queued: GstBufferPool
// discards a released buffer whose memory is tagged (GST_BUFFER_FLAG_TAG_MEMORY), counting it out.
// So is one in a memory block that is not nearly full: the pool makes another when it needs one, in a fuller
// block. A pool that stops frees everything anyway, the usual way.
void release_buffer(GstBufferPool* pool, GstBuffer* buffer) {
  const bool surplus = usage_of(pool).out(-1);
  if ((surplus || worth_moving(pool, buffer)) && !GST_BUFFER_POOL_IS_FLUSHING(pool) &&
      !dear_to_free(pool, buffer)) {
    if (surplus) usage_of(pool).gave_back();
    GST_DEBUG_OBJECT(pool, "%s",
                     surplus ? "giving back a buffer the stream has not needed lately"
                             : "freeing a buffer that a fuller memory block has room for");
    GST_BUFFER_FLAG_SET(buffer, GST_BUFFER_FLAG_TAG_MEMORY);
  }
  parent_class()->release_buffer(pool, buffer);
}

void finalize(GObject* object) {
  delete reinterpret_cast<VkComputeBufferPool*>(object)->usage;
  G_OBJECT_CLASS(vkcompute_buffer_pool_parent_class)->finalize(object);
}

void vkcompute_buffer_pool_class_init(VkComputeBufferPoolClass* klass) {
  GstBufferPoolClass* pool_class = GST_BUFFER_POOL_CLASS(klass);
  pool_class->start = start_empty;
  pool_class->alloc_buffer = alloc_buffer;
  pool_class->free_buffer = free_buffer;
  pool_class->acquire_buffer = acquire_buffer;
  pool_class->release_buffer = release_buffer;
  G_OBJECT_CLASS(klass)->finalize = finalize;
  GST_DEBUG_CATEGORY_INIT(gst_vkcompute_pool_debug, "vkcomputepool", 0, "vkcompute buffer pools");
}

void vkcompute_buffer_pool_init(VkComputeBufferPool* self) {
  self->usage = new Usage();
}

}  // namespace

GstBufferPool* gst_vkcompute_buffer_pool_new(GstAllocator* allocator, GstCaps* caps, guint size,
                                             guint min_buffers, GstVkComputeWorthMoving worth_moving,
                                             GstVkComputeDearToFree dear_to_free) {
  auto* pool = GST_BUFFER_POOL(g_object_new(vkcompute_buffer_pool_get_type(), nullptr));
  reinterpret_cast<VkComputeBufferPool*>(pool)->worth_moving = worth_moving;
  reinterpret_cast<VkComputeBufferPool*>(pool)->dear_to_free = dear_to_free;
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
