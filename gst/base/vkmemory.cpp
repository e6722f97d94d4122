#include "vkmemory.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_vkcompute_memory_debug);
#define GST_CAT_DEFAULT gst_vkcompute_memory_debug

namespace {

struct VkComputeMemory {
  GstMemory mem;
  // The root memory owns the buffer; shared sub-memories borrow it and keep the root alive
  // through mem.parent.
  vkc::Buffer* buffer;
};

struct VkComputeAllocator {
  GstAllocator parent;
  std::shared_ptr<vkc::Device>* device;
};

struct VkComputeAllocatorClass {
  GstAllocatorClass parent_class;
};

GType vkcompute_allocator_get_type();
G_DEFINE_TYPE(VkComputeAllocator, vkcompute_allocator, GST_TYPE_ALLOCATOR)

VkComputeMemory* memory_wrap(GstAllocator* allocator, GstMemory* parent, vkc::Buffer* buffer, gsize maxsize,
                             gsize align, gsize offset, gsize size) {
  auto* mem = g_new0(VkComputeMemory, 1);
  gst_memory_init(GST_MEMORY_CAST(mem), GstMemoryFlags(0), allocator, parent, maxsize, align, offset, size);
  mem->buffer = buffer;
  return mem;
}

GstMemory* allocator_alloc(GstAllocator* allocator, gsize size, GstAllocationParams* params) {
  auto* self = reinterpret_cast<VkComputeAllocator*>(allocator);
  gsize align = params->align | gst_memory_alignment;
  gsize maxsize = params->prefix + size + params->padding + align;
  std::unique_ptr<vkc::Buffer> buffer;
  try {
    buffer = vkc::Buffer::create_host(*self->device, maxsize, "vkcompute frame");
  } catch (const std::exception& e) {
    GST_ERROR_OBJECT(allocator, "cannot allocate %" G_GSIZE_FORMAT " bytes of host-visible Vulkan memory: %s",
                     maxsize, e.what());
    return nullptr;
  }
  // Place the data start on the requested alignment after the prefix.
  uintptr_t base = uintptr_t(buffer->mapped());
  gsize offset = ((base + params->prefix + align) & ~uintptr_t(align)) - base;
  auto* mem = memory_wrap(allocator, nullptr, buffer.release(), maxsize, align, offset, size);
  return GST_MEMORY_CAST(mem);
}

void allocator_free(GstAllocator*, GstMemory* memory) {
  auto* mem = reinterpret_cast<VkComputeMemory*>(memory);
  if (!memory->parent) delete mem->buffer;
  g_free(mem);
}

gpointer memory_map(GstMemory* memory, gsize, GstMapFlags) {
  // Coherent and persistently mapped: nothing to flush or invalidate.
  return reinterpret_cast<VkComputeMemory*>(memory)->buffer->mapped();
}

void memory_unmap(GstMemory*) {}

GstMemory* memory_share(GstMemory* memory, gssize offset, gssize size) {
  auto* mem = reinterpret_cast<VkComputeMemory*>(memory);
  GstMemory* root = memory->parent ? memory->parent : memory;
  if (size == -1) size = gssize(memory->size) - offset;
  auto* sub = memory_wrap(memory->allocator, root, mem->buffer, memory->maxsize, memory->align,
                          memory->offset + offset, size);
  GST_MINI_OBJECT_FLAG_SET(sub, GST_MINI_OBJECT_FLAG_LOCK_READONLY);
  return GST_MEMORY_CAST(sub);
}

void vkcompute_allocator_finalize(GObject* object) {
  delete reinterpret_cast<VkComputeAllocator*>(object)->device;
  G_OBJECT_CLASS(vkcompute_allocator_parent_class)->finalize(object);
}

void vkcompute_allocator_class_init(VkComputeAllocatorClass* klass) {
  GST_ALLOCATOR_CLASS(klass)->alloc = allocator_alloc;
  GST_ALLOCATOR_CLASS(klass)->free = allocator_free;
  G_OBJECT_CLASS(klass)->finalize = vkcompute_allocator_finalize;
  GST_DEBUG_CATEGORY_INIT(gst_vkcompute_memory_debug, "vkcomputememory", 0, "vkcompute host-visible memory");
}

void vkcompute_allocator_init(VkComputeAllocator* self) {
  GstAllocator* allocator = GST_ALLOCATOR_CAST(self);
  allocator->mem_type = GST_VKCOMPUTE_MEMORY_TYPE;
  allocator->mem_map = memory_map;
  allocator->mem_unmap = memory_unmap;
  allocator->mem_share = memory_share;
  self->device = new std::shared_ptr<vkc::Device>();
}

}  // namespace

GstAllocator* gst_vkcompute_allocator_new(std::shared_ptr<vkc::Device> device) {
  auto* self = static_cast<VkComputeAllocator*>(g_object_new(vkcompute_allocator_get_type(), nullptr));
  *self->device = std::move(device);
  gst_object_ref_sink(self);
  return GST_ALLOCATOR_CAST(self);
}

const vkc::Buffer* gst_vkcompute_memory_get_buffer(GstMemory* mem, const vkc::Device& device) {
  if (!gst_memory_is_type(mem, GST_VKCOMPUTE_MEMORY_TYPE)) return nullptr;
  const vkc::Buffer* buffer = reinterpret_cast<VkComputeMemory*>(mem)->buffer;
  return &buffer->device() == &device ? buffer : nullptr;
}

GstBufferPool* gst_vkcompute_buffer_pool_new(GstAllocator* allocator, GstCaps* caps, guint size,
                                             guint min_buffers) {
  GstBufferPool* pool = gst_video_buffer_pool_new();
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
