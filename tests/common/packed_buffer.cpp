#include "packed_buffer.h"

#include <cstring>
#include <vector>

namespace vktest {
namespace {

std::vector<uint8_t> LayOut(const uint8_t* rows, int row_bytes, int height, const Placement& placement) {
  g_assert(placement.stride >= row_bytes);
  const gsize size = placement.offset + static_cast<gsize>(placement.stride) * height;
  std::vector<uint8_t> bytes(size);
  for (gsize i = 0; i < size; ++i) bytes[i] = (i & 1) ? 0xff : 0x00;
  for (int y = 0; y < height; ++y) {
    std::memcpy(&bytes[placement.offset + static_cast<gsize>(y) * placement.stride],
                rows + static_cast<gsize>(y) * row_bytes, row_bytes);
  }
  return bytes;
}

void AddPackedVideoMeta(GstBuffer* buffer, const GstVideoInfo& info, const Placement& placement) {
  gsize offsets[GST_VIDEO_MAX_PLANES] = {placement.offset};
  gint strides[GST_VIDEO_MAX_PLANES] = {placement.stride};
  gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(&info),
                                 GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info), 1, offsets,
                                 strides);
}

}  // namespace

GstMemory* NewSystemMemory(const uint8_t* bytes, gsize size) {
  GstMemory* memory = gst_allocator_alloc(nullptr, size, nullptr);
  GstMapInfo map;
  if (!gst_memory_map(memory, &map, GST_MAP_WRITE)) g_error("cannot map new system memory");
  std::memcpy(map.data, bytes, size);
  gst_memory_unmap(memory, &map);
  return memory;
}

GstBuffer* NewSystemMemoryBuffer(const GstVideoInfo& info, const uint8_t* rows, int row_bytes,
                                 const Placement& placement) {
  const std::vector<uint8_t> bytes = LayOut(rows, row_bytes, GST_VIDEO_INFO_HEIGHT(&info), placement);
  GstBuffer* buffer = gst_buffer_new();
  gst_buffer_append_memory(buffer, NewSystemMemory(bytes.data(), bytes.size()));
  AddPackedVideoMeta(buffer, info, placement);
  return buffer;
}

GstBuffer* NewSplitMemoryBuffer(const GstVideoInfo& info, const uint8_t* rows, int row_bytes,
                                const Placement& placement) {
  const int height = GST_VIDEO_INFO_HEIGHT(&info);
  const std::vector<uint8_t> bytes = LayOut(rows, row_bytes, height, placement);
  // Inside a row (and never at its start) so that the row straddles both blocks.
  const gsize split = placement.offset + static_cast<gsize>(height / 2) * placement.stride +
                      (row_bytes > 1 ? row_bytes / 2 : 1);
  g_assert(split > 0 && split < bytes.size());
  GstBuffer* buffer = gst_buffer_new();
  gst_buffer_append_memory(buffer, NewSystemMemory(bytes.data(), split));
  gst_buffer_append_memory(buffer, NewSystemMemory(bytes.data() + split, bytes.size() - split));
  AddPackedVideoMeta(buffer, info, placement);
  return buffer;
}

void FillPackedBuffer(GstBuffer* buffer, const GstVideoInfo& info, const uint8_t* rows, int row_bytes) {
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &info, buffer, GST_MAP_WRITE)) {
    g_error("cannot map an input buffer for writing");
  }
  auto* data = static_cast<uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0));
  const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
  for (int y = 0; y < GST_VIDEO_FRAME_HEIGHT(&frame); ++y) {
    std::memcpy(data + static_cast<gsize>(y) * stride, rows + static_cast<gsize>(y) * row_bytes, row_bytes);
  }
  gst_video_frame_unmap(&frame);
}

}  // namespace vktest
