#include "buffer_reference.h"

#include <gst/check/gstcheck.h>

#include <algorithm>
#include <vector>

namespace histogram_test {
namespace {

// How far into the buffer `plane` reaches from its offset: to the last byte of its last row
// that holds a sample.
gsize PlaneExtent(const GstVideoInfo& info, guint plane, int stride) {
  gsize extent = 0;
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c) {
    if (GST_VIDEO_INFO_COMP_PLANE(&info, c) != plane) continue;
    const gsize last_row = static_cast<gsize>(GST_VIDEO_INFO_COMP_HEIGHT(&info, c) - 1) * stride;
    const gsize last_byte =
        GST_VIDEO_INFO_COMP_POFFSET(&info, c) +
        static_cast<gsize>(GST_VIDEO_INFO_COMP_WIDTH(&info, c) - 1) * GST_VIDEO_INFO_COMP_PSTRIDE(&info, c);
    extent = std::max(extent, last_row + last_byte + 1);
  }
  return extent;
}

}  // namespace

std::optional<histogram_ref::Result> AnalyzeBuffer(GstBuffer* buffer, const GstVideoInfo& info,
                                                   const histogram_ref::Params& params) {
  // Not gst_video_frame_map(): with a GstVideoMeta it maps only the memory block holding a
  // plane's first byte, so a plane split over two blocks would be read past its end. The
  // buffer's bytes are copied out instead and each plane located as the meta (or `info`) says.
  std::vector<uint8_t> bytes(gst_buffer_get_size(buffer));
  gst_buffer_extract(buffer, 0, bytes.data(), bytes.size());
  const GstVideoMeta* meta = gst_buffer_get_video_meta(buffer);

  histogram_ref::FrameView view{
      GST_VIDEO_INFO_FORMAT(&info), GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info), {}, {}};
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
    const gsize offset = meta != nullptr ? meta->offset[p] : GST_VIDEO_INFO_PLANE_OFFSET(&info, p);
    const int stride = meta != nullptr ? meta->stride[p] : GST_VIDEO_INFO_PLANE_STRIDE(&info, p);
    fail_unless(offset + PlaneExtent(info, p, stride) <= bytes.size(),
                "test bug: plane %u does not fit into its buffer", p);
    view.planes[p] = bytes.data() + offset;
    view.strides[p] = stride;
  }
  return histogram_ref::Analyze(view, params);
}

}  // namespace histogram_test
