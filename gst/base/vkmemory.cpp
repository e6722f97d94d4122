#include "vkmemory.hpp"

#include <mutex>

#include "bufferpool.hpp"
#include "vk/batch.hpp"
#include "vk/reaper.hpp"
#include "vk/submit.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_vkcompute_memory_debug);
#define GST_CAT_DEFAULT gst_vkcompute_memory_debug

namespace {

// A CPU map of device-local memory waits at most this long for the GPU to copy the frame.
constexpr uint64_t kMapTimeoutNs = 10'000'000'000ull;

// What a device-local root memory keeps beside its buffer.
struct DeviceSide {
  // Where the GPU's last write to the buffer ends, set when the writer submitted it (or still
  // holds it in its batch): readers order their work after it.
  std::mutex point_lock;
  std::shared_ptr<const vkc::SubmitPoint> written;  // point_lock
  vkc::WriteOrder order;                            // point_lock
  // What the CPU sees of the buffer: a host-visible copy, made at each map.
  std::mutex map_lock;  // one copy at a time into `staging`
  std::unique_ptr<vkc::Buffer> staging;
};

struct VkComputeMemory {
  GstMemory mem;
  // The root memory owns both; shared sub-memories borrow them and keep the root alive through
  // mem.parent.
  vkc::Buffer* buffer;
  DeviceSide* device_side;  // device-local memory only
};

struct VkComputeAllocator {
  GstAllocator parent;
  std::shared_ptr<vkc::Device>* device;
  std::shared_ptr<vkc::TransferCounts>* counts;  // device-local kind: CPU maps count as downloads
  bool device_local;
};

struct VkComputeAllocatorClass {
  GstAllocatorClass parent_class;
};

GType vkcompute_allocator_get_type();
G_DEFINE_TYPE(VkComputeAllocator, vkcompute_allocator, GST_TYPE_ALLOCATOR)

VkComputeAllocator* allocator_of(GstMemory* memory) {
  return reinterpret_cast<VkComputeAllocator*>(memory->allocator);
}

VkComputeMemory* root_of(GstMemory* memory) {
  return reinterpret_cast<VkComputeMemory*>(memory->parent ? memory->parent : memory);
}

// The same, and waits for it.
template <typename Commands>
bool run_now(const std::shared_ptr<vkc::Device>& device, const char* name, Commands commands) {
  return vkc::submit_commands(device, name, commands)->wait(0, kMapTimeoutNs) == vkc::Completion::kDone;
}

// Copies a whole buffer into another of the same device, and waits.
bool copy_now(const std::shared_ptr<vkc::Device>& device, const vkc::Buffer& from, const vkc::Buffer& to) {
  return run_now(device, "vkcompute map", [&](vkc::Commands cmd) {
    cmd.copyBuffer(from.handle(), to.handle(), vk::BufferCopy{0, 0, from.size()});
  });
}

VkComputeMemory* memory_wrap(GstAllocator* allocator, GstMemory* parent, vkc::Buffer* buffer,
                             DeviceSide* side, gsize maxsize, gsize align, gsize offset, gsize size) {
  auto* mem = g_new0(VkComputeMemory, 1);
  gst_memory_init(GST_MEMORY_CAST(mem), GstMemoryFlags(0), allocator, parent, maxsize, align, offset, size);
  mem->buffer = buffer;
  mem->device_side = side;
  return mem;
}

GstMemory* allocator_alloc(GstAllocator* allocator, gsize size, GstAllocationParams* params) {
  auto* self = reinterpret_cast<VkComputeAllocator*>(allocator);
  gsize align = params->align | gst_memory_alignment;
  gsize maxsize = params->prefix + size + params->padding + align;
  std::unique_ptr<vkc::Buffer> buffer;
  std::shared_ptr<const vkc::SubmitPoint> zero_fill;
  try {
    buffer = self->device_local ? vkc::Buffer::create_device(*self->device, maxsize, "vkcompute device frame")
                                : vkc::Buffer::create_host(*self->device, maxsize, "vkcompute frame");
    // Zeroed like host memory (vk/memory.hpp): row padding that no kernel writes reads the same in
    // every run, wherever the frame is copied or mapped later. Without waiting: only work on the
    // compute queue touches device frames (kernels, and the copies of CPU maps), and it is all
    // submitted after this; the fill is the memory's first write (its point, set below), which
    // the first kernels to touch it wait for with a barrier (framebarriers.hpp). A wait here waited
    // for every stream's frames queued on the GPU: a pool that grew under load stalled its stream for
    // the whole backlog.
    if (self->device_local) {
      const vkc::Buffer& zeroed = *buffer;
      std::unique_ptr<vkc::CommandRing> fill = vkc::submit_commands(
          *self->device, "vkcompute zero frame",
          [&](vkc::Commands cmd) { cmd.fillBuffer(zeroed.handle(), 0, VK_WHOLE_SIZE, 0); });
      zero_fill = fill->compute_point(0);
      vkc::release_after_gpu(std::move(fill), nullptr);
    }
  } catch (const std::exception& e) {
    GST_ERROR_OBJECT(allocator, "cannot allocate %" G_GSIZE_FORMAT " bytes of %s Vulkan memory: %s", maxsize,
                     self->device_local ? "device-local" : "host-visible", e.what());
    return nullptr;
  }
  // Place the data start on the requested alignment after the prefix (device buffers start
  // aligned far beyond any alignment GStreamer asks for).
  uintptr_t base = uintptr_t(buffer->mapped());
  gsize offset = ((base + params->prefix + align) & ~uintptr_t(align)) - base;
  auto* mem = memory_wrap(allocator, nullptr, buffer.release(),
                          self->device_local ? new DeviceSide() : nullptr, maxsize, align, offset, size);
  if (zero_fill) gst_vkcompute_memory_set_written(GST_MEMORY_CAST(mem), std::move(zero_fill));
  return GST_MEMORY_CAST(mem);
}

// What a device-local root memory owns, freed once the queue has finished every command
// submitted before: a frame pushed at submit may be dropped downstream while the GPU still writes
// it, or a pool freed while another element's kernel still reads one of its buffers.
struct DeviceLeftovers {
  std::unique_ptr<vkc::Buffer> buffer;
  std::unique_ptr<DeviceSide> device_side;
};

void allocator_free(GstAllocator* allocator, GstMemory* memory) {
  auto* mem = reinterpret_cast<VkComputeMemory*>(memory);
  auto* self = reinterpret_cast<VkComputeAllocator*>(allocator);
  if (!memory->parent) {
    if (self->device_local) {
      // The release below follows the work submitted before it: a write to the frame that a
      // thread's batch still holds goes first (the frame was dropped unread).
      if (mem->device_side->written) vkc::batch::submit(*mem->device_side->written);
      auto leftovers = std::make_shared<DeviceLeftovers>(DeviceLeftovers{
          std::unique_ptr<vkc::Buffer>(mem->buffer), std::unique_ptr<DeviceSide>(mem->device_side)});
      // Whatever thread lets go of it (a stopping pipeline's, the completion service's) neither
      // submits nor waits: the reaper frees it once the queue is past the work before (one empty
      // submission for the device's memory let go meanwhile), so a pipeline set to NULL never
      // waits for other pipelines' frames on the queue.
      vkc::release_after_queue(*self->device, std::move(leftovers));
    } else {
      delete mem->buffer;
    }
  }
  g_free(mem);
}

// The point of the GPU's last write to device-local `memory` of ours, or null.
std::shared_ptr<const vkc::SubmitPoint> written_point(GstMemory* memory) {
  if (!gst_memory_is_type(memory, GST_VKCOMPUTE_DEVICE_MEMORY_TYPE)) return nullptr;
  DeviceSide& side = *root_of(memory)->device_side;
  std::lock_guard<std::mutex> guard(side.point_lock);
  return side.written;
}

gpointer memory_map_full(GstMemory* memory, GstMapInfo* info, gsize) {
  auto* mem = reinterpret_cast<VkComputeMemory*>(memory);
  auto* allocator = allocator_of(memory);
  // Host-visible memory is coherent and persistently mapped: nothing to flush or invalidate.
  if (!allocator->device_local) return mem->buffer->mapped();
  DeviceSide& view = *root_of(memory)->device_side;
  // A write that another thread's batch still holds is sent first; the copy then follows it in the
  // compute queue (run_now() sends this thread's own batch).
  if (vkc::order_after_write(memory, **allocator->device, kMapTimeoutNs) != vkc::Completion::kDone) {
    GST_ERROR_OBJECT(allocator, "the GPU did not finish writing a frame for a CPU map");
    return nullptr;
  }
  std::lock_guard<std::mutex> guard(view.map_lock);
  try {
    if (!view.staging)
      view.staging =
          vkc::Buffer::create_host(*allocator->device, mem->buffer->size(), "vkcompute mapped frame");
    // Write-only maps read back too: GStreamer keeps a memory's contents across a write map.
    if (!copy_now(*allocator->device, *mem->buffer, *view.staging)) {
      GST_ERROR_OBJECT(allocator, "the GPU did not finish copying a frame for a CPU map");
      return nullptr;
    }
  } catch (const std::exception& e) {
    GST_ERROR_OBJECT(allocator, "cannot map device-local memory: %s", e.what());
    return nullptr;
  }
  (*allocator->counts)->downloads++;
  GST_LOG_OBJECT(allocator, "read back %" G_GSIZE_FORMAT " bytes for a CPU map (flags 0x%x)",
                 gsize(mem->buffer->size()), info->flags);
  return view.staging->mapped();
}

void memory_unmap_full(GstMemory* memory, GstMapInfo* info) {
  auto* mem = reinterpret_cast<VkComputeMemory*>(memory);
  auto* allocator = allocator_of(memory);
  if (!allocator->device_local || !(info->flags & GST_MAP_WRITE)) return;
  DeviceSide& view = *root_of(memory)->device_side;
  std::lock_guard<std::mutex> guard(view.map_lock);
  try {
    if (!copy_now(*allocator->device, *view.staging, *mem->buffer))
      GST_ERROR_OBJECT(allocator, "the GPU did not finish copying a frame written by the CPU back");
    (*allocator->counts)->uploads++;
  } catch (const std::exception& e) {
    GST_ERROR_OBJECT(allocator, "cannot copy a frame written by the CPU back to the device: %s", e.what());
  }
}

GstMemory* memory_share(GstMemory* memory, gssize offset, gssize size) {
  auto* root = root_of(memory);
  if (size == -1) size = gssize(memory->size) - offset;
  auto* sub = memory_wrap(memory->allocator, GST_MEMORY_CAST(root), root->buffer, root->device_side,
                          memory->maxsize, memory->align, memory->offset + offset, size);
  GST_MINI_OBJECT_FLAG_SET(sub, GST_MINI_OBJECT_FLAG_LOCK_READONLY);
  return GST_MEMORY_CAST(sub);
}

void vkcompute_allocator_finalize(GObject* object) {
  auto* self = reinterpret_cast<VkComputeAllocator*>(object);
  delete self->device;
  delete self->counts;
  G_OBJECT_CLASS(vkcompute_allocator_parent_class)->finalize(object);
}

void vkcompute_allocator_class_init(VkComputeAllocatorClass* klass) {
  GST_ALLOCATOR_CLASS(klass)->alloc = allocator_alloc;
  GST_ALLOCATOR_CLASS(klass)->free = allocator_free;
  G_OBJECT_CLASS(klass)->finalize = vkcompute_allocator_finalize;
  GST_DEBUG_CATEGORY_INIT(gst_vkcompute_memory_debug, "vkcomputememory", 0, "vkcompute Vulkan memory");
}

void vkcompute_allocator_init(VkComputeAllocator* self) {
  GstAllocator* allocator = GST_ALLOCATOR_CAST(self);
  allocator->mem_map_full = memory_map_full;
  allocator->mem_unmap_full = memory_unmap_full;
  allocator->mem_share = memory_share;
  self->device = new std::shared_ptr<vkc::Device>();
  self->counts = new std::shared_ptr<vkc::TransferCounts>();
}

GstAllocator* allocator_new(std::shared_ptr<vkc::Device> device, std::shared_ptr<vkc::TransferCounts> counts,
                            bool device_local) {
  auto* self = static_cast<VkComputeAllocator*>(g_object_new(vkcompute_allocator_get_type(), nullptr));
  *self->device = std::move(device);
  *self->counts = std::move(counts);
  self->device_local = device_local;
  GST_ALLOCATOR_CAST(self)->mem_type =
      device_local ? GST_VKCOMPUTE_DEVICE_MEMORY_TYPE : GST_VKCOMPUTE_MEMORY_TYPE;
  gst_object_ref_sink(self);
  return GST_ALLOCATOR_CAST(self);
}

}  // namespace

void gst_vkcompute_memory_set_written(GstMemory* mem, std::shared_ptr<const vkc::SubmitPoint> point,
                                      vkc::WriteOrder order) {
  g_return_if_fail(gst_memory_is_type(mem, GST_VKCOMPUTE_DEVICE_MEMORY_TYPE));
  DeviceSide& side = *root_of(mem)->device_side;
  std::lock_guard<std::mutex> guard(side.point_lock);
  side.written = std::move(point);
  side.order = order;
}

vkc::Completion vkc::order_after_write(GstMemory* mem, const Device& device, uint64_t timeout_ns) {
  std::shared_ptr<const vkc::SubmitPoint> written = written_point(mem);
  if (!written) return vkc::Completion::kDone;
  vkc::batch::submit(*written);
  // Submitted (or in this thread's batch, which sends it before anything of the thread's own that
  // is not deferred behind it): the compute queue keeps the order, and the reader's barrier after
  // earlier work makes the writes visible.
  if (&written->timeline == &device.timeline(vkc::QueueRole::kCompute)) return vkc::Completion::kDone;
  // On another queue, or another device: the CPU waits, as a map must anyway.
  vkc::batch::flush();
  return vkc::wait_points(written->timeline.device(), {written.get()}, timeout_ns);
}

bool vkc::write_may_be_running(GstMemory* mem, const Device& device, WriteOrder* order) {
  if (!gst_memory_is_type(mem, GST_VKCOMPUTE_DEVICE_MEMORY_TYPE)) return false;
  std::shared_ptr<const vkc::SubmitPoint> written;
  {
    DeviceSide& side = *root_of(mem)->device_side;
    std::lock_guard<std::mutex> guard(side.point_lock);
    written = side.written;
    if (order) *order = side.order;
  }
  if (!written || &written->timeline != &device.timeline(vkc::QueueRole::kCompute)) return false;
  const uint64_t value = written->value.load(std::memory_order_acquire);
  return value == 0 || value > written->timeline.seen();
}

GstAllocator* gst_vkcompute_allocator_new(std::shared_ptr<vkc::Device> device) {
  return allocator_new(std::move(device), nullptr, false);
}

GstAllocator* gst_vkcompute_device_allocator_new(std::shared_ptr<vkc::Device> device,
                                                 std::shared_ptr<vkc::TransferCounts> counts) {
  return allocator_new(std::move(device), std::move(counts), true);
}

const vkc::Buffer* gst_vkcompute_memory_get_buffer(GstMemory* mem, const vkc::Device& device,
                                                   bool* device_local) {
  const bool local = gst_memory_is_type(mem, GST_VKCOMPUTE_DEVICE_MEMORY_TYPE);
  if (!local && !gst_memory_is_type(mem, GST_VKCOMPUTE_MEMORY_TYPE)) return nullptr;
  const vkc::Buffer* buffer = reinterpret_cast<VkComputeMemory*>(mem)->buffer;
  if (&buffer->device() != &device) return nullptr;
  if (device_local) *device_local = local;
  return buffer;
}

bool gst_vkcompute_memory_imported_elsewhere(GstMemory* mem) {
  return GST_MINI_OBJECT_FLAG_IS_SET(mem, GST_VKCOMPUTE_MEMORY_FLAG_IMPORTED);
}

bool gst_vkcompute_memory_worth_moving(GstMemory* mem) {
  if (!gst_memory_is_type(mem, GST_VKCOMPUTE_DEVICE_MEMORY_TYPE) &&
      !gst_memory_is_type(mem, GST_VKCOMPUTE_MEMORY_TYPE))
    return false;
  return root_of(mem)->buffer->worth_moving();
}
