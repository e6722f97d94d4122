#include "visible_bytes.h"

#include <gst/check/gstcheck.h>

namespace vktest {

std::string VisibleBytes(const GstVideoInfo& info, GstBuffer* buffer) {
  GstVideoFrame frame;
  fail_unless(gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ));
  std::string bytes;
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&frame); ++p) {
    guint rows = 0, row_bytes = 0;
    for (guint c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS(&frame); ++c) {
      if (GST_VIDEO_FORMAT_INFO_PLANE(info.finfo, c) != p) continue;
      rows = MAX(rows, guint(GST_VIDEO_FRAME_COMP_HEIGHT(&frame, c)));
      row_bytes = MAX(row_bytes,
                      guint(GST_VIDEO_FRAME_COMP_WIDTH(&frame, c) * GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, c)));
    }
    const auto* data = static_cast<const char*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p));
    const gsize stride = gsize(GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p));
    for (guint y = 0; y < rows; ++y) bytes.append(data + y * stride, row_bytes);
  }
  gst_video_frame_unmap(&frame);
  return bytes;
}

}  // namespace vktest
