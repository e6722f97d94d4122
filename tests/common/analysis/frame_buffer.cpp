#include "frame_buffer.h"

#include <gst/check/gstcheck.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <vector>

#include "common/packed_buffer.h"

namespace analysis_test {
namespace {

// `info` with the placement's layout: stride = row bytes + padding, plane 0 at the offset, each
// further plane after an odd gap. Sets the total size.
GstVideoInfo CustomLayout(const GstVideoInfo& info, const vktest::InputPlacement& placement) {
  GstVideoInfo custom = info;
  gsize at = placement.offset;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
    custom.stride[p] = RowBytes(info, p) + placement.stride_padding;
    custom.offset[p] = at;
    at += static_cast<gsize>(custom.stride[p]) * PlaneRows(info, p) + 2 * placement.stride_padding + 1;
  }
  custom.size = at;
  return custom;
}

void AddVideoMeta(GstBuffer* buffer, const GstVideoInfo& layout) {
  // The meta API takes non-const arrays.
  gsize offsets[GST_VIDEO_MAX_PLANES];
  gint strides[GST_VIDEO_MAX_PLANES];
  std::copy(std::begin(layout.offset), std::end(layout.offset), offsets);
  std::copy(std::begin(layout.stride), std::end(layout.stride), strides);
  gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(&layout),
                                 GST_VIDEO_INFO_WIDTH(&layout), GST_VIDEO_INFO_HEIGHT(&layout),
                                 GST_VIDEO_INFO_N_PLANES(&layout), offsets, strides);
}

}  // namespace

int RowBytes(const GstVideoInfo& info, guint plane) {
  int bytes = 0;
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c) {
    if (GST_VIDEO_INFO_COMP_PLANE(&info, c) != plane) continue;
    bytes = std::max(bytes, GST_VIDEO_INFO_COMP_WIDTH(&info, c) * GST_VIDEO_INFO_COMP_PSTRIDE(&info, c));
  }
  return bytes;
}

int PlaneRows(const GstVideoInfo& info, guint plane) {
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c) {
    if (GST_VIDEO_INFO_COMP_PLANE(&info, c) == plane) return GST_VIDEO_INFO_COMP_HEIGHT(&info, c);
  }
  g_assert_not_reached();
  return 0;
}

GstBuffer* NewSystemBuffer(const TestFrame& frame, const vktest::InputPlacement& placement) {
  g_assert(placement.memory == vktest::MemoryKind::kSystem || placement.memory == vktest::MemoryKind::kSplit);
  const GstVideoInfo layout = CustomLayout(frame.info, placement);

  // Lay the frame out in one block first: the pattern, then every plane row by row.
  std::vector<uint8_t> bytes(layout.size);
  for (gsize i = 0; i < bytes.size(); ++i) bytes[i] = (i & 1) ? 0xff : 0x00;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&layout); ++p) {
    for (int row = 0; row < PlaneRows(layout, p); ++row) {
      std::memcpy(&bytes[layout.offset[p] + static_cast<gsize>(row) * layout.stride[p]],
                  &frame.bytes[frame.info.offset[p] + static_cast<gsize>(row) * frame.info.stride[p]],
                  RowBytes(layout, p));
    }
  }

  GstBuffer* buffer = gst_buffer_new();
  if (placement.memory == vktest::MemoryKind::kSystem) {
    gst_buffer_append_memory(buffer, vktest::NewSystemMemory(bytes.data(), bytes.size()));
  } else {
    // Inside the middle row of plane 0 (never at its start), so no single block holds that row.
    const int rows = PlaneRows(layout, 0);
    const gsize split = layout.offset[0] + static_cast<gsize>(rows / 2) * layout.stride[0] +
                        std::max(1, RowBytes(layout, 0) / 2);
    g_assert(split < bytes.size());
    gst_buffer_append_memory(buffer, vktest::NewSystemMemory(bytes.data(), split));
    gst_buffer_append_memory(buffer, vktest::NewSystemMemory(bytes.data() + split, bytes.size() - split));
  }
  AddVideoMeta(buffer, layout);
  return buffer;
}

void WriteFrame(const TestFrame& frame, GstBuffer* buffer) {
  GstVideoFrame mapped;
  GstVideoInfo info = frame.info;
  fail_unless(gst_video_frame_map(&mapped, &info, buffer, GST_MAP_WRITE),
              "cannot map an input buffer for writing");
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&mapped); ++p) {
    auto* plane = static_cast<uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&mapped, p));
    const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&mapped, p);
    for (int row = 0; row < PlaneRows(frame.info, p); ++row) {
      std::memcpy(plane + static_cast<gsize>(row) * stride,
                  &frame.bytes[frame.info.offset[p] + static_cast<gsize>(row) * frame.info.stride[p]],
                  RowBytes(frame.info, p));
    }
  }
  gst_video_frame_unmap(&mapped);
}

}  // namespace analysis_test
