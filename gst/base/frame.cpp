#include "frame.hpp"

#include "cudacopies.hpp"

#include <utility>

#include <vector>

#include "hostimports.hpp"
#include "vk/kernel.hpp"
#include "vkmemory.hpp"

namespace vkc {

namespace {

// How long binding a frame in device memory may wait for a write on another queue (none today:
// our kernels write device frames on the compute queue, whose order needs no wait).
constexpr uint64_t kWriteWaitNs = 10'000'000'000ull;

}  // namespace

const char* input_path_name(InputPath path) {
  switch (path) {
    case InputPath::kDevice: return "device memory (memory:VkComputeDevice)";
    case InputPath::kOwnMemory: return "own Vulkan memory";
    case InputPath::kImported: return "imported host memory";
    case InputPath::kGathered: return "several memories, gathered by GPU copies";
    case InputPath::kStaged: return "staging copy";
    case InputPath::kCuda: return "CUDA memory, copied by CUDA into device memory";
    case InputPath::kCudaCopy: return "CUDA memory, read from the copy an element of ours before made";
    case InputPath::kVulkanImage: return "GStreamer's Vulkan images on the same device, copied on the GPU";
  }
  return "?";
}

void plane_extent(const GstVideoInfo& info, guint plane, guint& rows, gsize& row_bytes) {
  const GstVideoFormatInfo* finfo = info.finfo;
  rows = 0;
  row_bytes = 0;
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS(finfo); ++c) {
    if (GST_VIDEO_FORMAT_INFO_PLANE(finfo, c) != plane) continue;
    rows = MAX(rows, guint(GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT(finfo, c, GST_VIDEO_INFO_HEIGHT(&info))));
    row_bytes =
        MAX(row_bytes, gsize(GST_VIDEO_FORMAT_INFO_SCALE_WIDTH(finfo, c, GST_VIDEO_INFO_WIDTH(&info))) *
                           GST_VIDEO_FORMAT_INFO_PSTRIDE(finfo, c));
  }
}

namespace {

// The plane's first component.
guint first_component(const GstVideoInfo& info, guint plane) {
  guint c = 0;
  while (GST_VIDEO_FORMAT_INFO_PLANE(info.finfo, c) != plane) ++c;
  return c;
}

}  // namespace

bool record_frame_transfer(Commands cmd, const GstVideoInfo& info, const FrameLayout& in,
                           const FrameLayout& out, const FramePart& part) {
  std::vector<vk::BufferCopy> regions;
  const guint end_plane = MIN(part.end_plane, GST_VIDEO_INFO_N_PLANES(&info));
  const gint y1 = gint(MIN(part.y1, guint(GST_VIDEO_INFO_HEIGHT(&info))));
  for (guint p = part.first_plane; p < end_plane; ++p) {
    guint rows;
    gsize row_bytes;
    plane_extent(info, p, rows, row_bytes);
    const guint c = first_component(info, p);  // the plane's components share its vertical subsampling
    const guint first = part.y0 >> GST_VIDEO_FORMAT_INFO_H_SUB(info.finfo, c);
    const guint end = MIN(rows, guint(GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT(info.finfo, c, y1)));
    if (first >= end) continue;
    const vk::DeviceSize from = in.offset[p] + vk::DeviceSize(first) * in.stride[p];
    const vk::DeviceSize to = out.offset[p] + vk::DeviceSize(first) * out.stride[p];
    if (in.stride[p] == out.stride[p]) {
      regions.push_back({from, to, vk::DeviceSize(in.stride[p]) * (end - first - 1) + row_bytes});
      continue;
    }
    for (guint y = 0; y < end - first; ++y)
      regions.push_back(
          {from + vk::DeviceSize(y) * in.stride[p], to + vk::DeviceSize(y) * out.stride[p], row_bytes});
  }
  if (regions.empty()) return false;
  cmd.copyBuffer(in.buffer, out.buffer, regions);
  return true;
}

void record_frame_copy(Commands cmd, const GstVideoInfo& info, const FrameLayout& in, const FrameLayout& out,
                       const FramePart& part) {
  if (record_frame_transfer(cmd, info, in, out, part)) transfer_to_compute_barrier(cmd);
}

FrameLayout packed_from_zero(const GstVideoInfo& info, const FrameLayout& layout, guint n_planes,
                             vk::DeviceSize& bytes) {
  n_planes = MIN(n_planes, GST_VIDEO_INFO_N_PLANES(&info));
  vk::DeviceSize first = G_MAXUINT64, end = 0;
  for (guint p = 0; p < n_planes; ++p) {
    guint rows;
    gsize row_bytes;
    plane_extent(info, p, rows, row_bytes);
    first = MIN(first, vk::DeviceSize(layout.offset[p]));
    end = MAX(end, layout.offset[p] + vk::DeviceSize(layout.stride[p]) * (rows - 1) + row_bytes);
  }
  FrameLayout packed;
  for (guint p = 0; p < n_planes; ++p) {
    packed.offset[p] = uint32_t(layout.offset[p] - first);
    packed.stride[p] = layout.stride[p];
  }
  bytes = end - first;
  return packed;
}

bool frame_layout(GstBuffer* buf, const GstVideoInfo& info, vk::Buffer buffer, vk::DeviceSize base,
                  FrameLayout& layout, std::string& error) {
  const GstVideoFormatInfo* finfo = info.finfo;
  const GstVideoMeta* meta = gst_buffer_get_video_meta(buf);
  // A crop (videocrop before us: we accept GstVideoCropMeta) moves each plane's start to the
  // region's first sample; `info` already has the region's size.
  const GstVideoCropMeta* crop = gst_buffer_get_video_crop_meta(buf);
  const gsize size = gst_buffer_get_size(buf);
  layout.buffer = buffer;
  for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS(finfo); ++c) {
    guint p = GST_VIDEO_FORMAT_INFO_PLANE(finfo, c);
    gsize offset = meta ? meta->offset[p] : GST_VIDEO_INFO_PLANE_OFFSET(&info, p);
    gint stride = meta ? meta->stride[p] : GST_VIDEO_INFO_PLANE_STRIDE(&info, p);
    if (crop && stride > 0)
      offset += gsize(GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT(finfo, c, crop->y)) * gsize(stride) +
                gsize(GST_VIDEO_FORMAT_INFO_SCALE_WIDTH(finfo, c, crop->x)) *
                    GST_VIDEO_FORMAT_INFO_PSTRIDE(finfo, c);
    guint rows;
    gsize row_bytes;
    plane_extent(info, p, rows, row_bytes);
    if (stride < 0 || gsize(stride) < row_bytes) {
      error = "plane " + std::to_string(p) + " has stride " + std::to_string(stride) + "; at least " +
              std::to_string(row_bytes) + " is needed";
      return false;
    }
    gsize end = offset + gsize(stride) * (rows - 1) + row_bytes;
    if (end > size) {
      error = "buffer of " + std::to_string(size) + " bytes is too small: plane " + std::to_string(p) +
              " ends at byte " + std::to_string(end);
      return false;
    }
    layout.offset[p] = uint32_t(base + offset);
    layout.stride[p] = uint32_t(stride);
  }
  return true;
}

bool InputBinding::bind_memory(const std::shared_ptr<Device>& device, GstBuffer* buf, GstMemory* mem,
                               Piece& piece, std::string& why) {
  bool device_local = false;
  if (const Buffer* own = gst_vkcompute_memory_get_buffer(mem, *device, &device_local)) {
    if (device_local) {
      why = "device memory in a buffer of several memories";
      return false;
    }
    piece = {own->handle(), mem->offset, mem->size};
    return true;
  }
  // A map of another device's device memory is a read-back copy in that device's memory, which
  // this device cannot import.
  if (!device->features().host_pointer_import || gst_memory_is_type(mem, GST_VKCOMPUTE_DEVICE_MEMORY_TYPE)) {
    why = "the device cannot import this memory";
    return false;
  }
  GstMapInfo map;
  if (!gst_memory_map(mem, &map, GST_MAP_READ)) {
    why = "the memory cannot be mapped";
    return false;
  }
  maps_.emplace_back(mem, map);
  const Buffer* imported = nullptr;
  if (gst_memory_is_type(mem, GST_ALLOCATOR_SYSMEM) || gst_memory_is_type(mem, GST_VKCOMPUTE_MEMORY_TYPE)) {
    imported = cached_host_import(device, buf, mem, map.data, why);
    own_memory_import_ |= gst_memory_is_type(mem, GST_VKCOMPUTE_MEMORY_TYPE);
  } else {
    imports_.push_back(Buffer::import_host(device, map.data, map.size, "vkcompute imported frame", why));
    imported = imports_.back().get();
  }
  if (!imported) return false;
  piece = {imported->handle(), imported->offset_of(map.data), map.size};
  return true;
}

bool InputBinding::bind(const std::shared_ptr<Device>& device, GstBuffer* buf, const GstVideoInfo& info,
                        std::unique_ptr<Buffer>& staging, FrameLayout& layout, std::string& error) {
  const guint n_memory = gst_buffer_n_memory(buf);
  if (n_memory == 1) {
    GstMemory* mem = gst_buffer_peek_memory(buf, 0);
    bool device_local = false;
    if (const Buffer* own = gst_vkcompute_memory_get_buffer(mem, *device, &device_local)) {
      path_ = device_local ? InputPath::kDevice : InputPath::kOwnMemory;
      layout.device_local = device_local;
      // The frame may come from another thread than its writer's (a queue, an application): the
      // kernels recorded next must find the write ahead of them.
      if (device_local && order_after_write(mem, *device, kWriteWaitNs) != Completion::kDone) {
        error = "the GPU work that wrote the frame did not finish";
        return false;
      }
      return frame_layout(buf, info, own->handle(), mem->offset, layout, error);
    }
  }
  std::string why;
  pieces_.resize(n_memory);
  guint bound = 0;
  while (bound < n_memory &&
         bind_memory(device, buf, gst_buffer_peek_memory(buf, bound), pieces_[bound], why))
    ++bound;
  if (bound == n_memory && n_memory == 1) {
    path_ = InputPath::kImported;
    return frame_layout(buf, info, pieces_[0].buffer, pieces_[0].offset, layout, error);
  }
  if (bound == n_memory) {
    // The kernels read the gathered copy (record_gather()), in device memory.
    path_ = InputPath::kGathered;
    layout.device_local = true;
    return frame_layout(buf, info, nullptr, 0, layout, error);
  }
  GST_CAT_DEBUG(gst_vkcompute_runtime_debug, "binding the input in place failed (%s); copying the frame",
                why.c_str());
  unbind();  // `buf` (bind_copy()'s copy among them) stays
  // Last resort: one CPU copy into the slot's staging buffer.
  path_ = InputPath::kStaged;
  gsize size = gst_buffer_get_size(buf);
  if (!staging || staging->size() < size) staging = Buffer::create_host(device, size, "vkcompute staging");
  gst_buffer_extract(buf, 0, staging->mapped(), size);
  return frame_layout(buf, info, staging->handle(), 0, layout, error);
}

void InputBinding::record_gather(Commands cmd, vk::Buffer to) const {
  vk::DeviceSize at = 0;
  for (const Piece& piece : pieces_) {
    if (piece.size > 0) cmd.copyBuffer(piece.buffer, to, vk::BufferCopy{piece.offset, at, piece.size});
    at += piece.size;
  }
}

bool InputBinding::may_unpin(GstBuffer* buf) const {
  if (!imports_.empty()) return true;
  return own_memory_import_ && buf && !buf->pool && GST_MINI_OBJECT_REFCOUNT_VALUE(buf) == 1;
}

void InputBinding::unbind() {
  imports_.clear();  // before unmapping: an import must not outlive the mapping it covers
  for (auto& [mem, map] : maps_) gst_memory_unmap(mem, &map);
  maps_.clear();
  pieces_.clear();
  own_memory_import_ = false;
}

void InputBinding::release() {
  unbind();
  cuda_copy_.reset();
  if (copy_) gst_buffer_unref(std::exchange(copy_, nullptr));
}

}  // namespace vkc
