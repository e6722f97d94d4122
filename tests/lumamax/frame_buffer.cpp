#include "frame_buffer.h"

#include <gst/check/gstcheck.h>

#include <vector>

namespace lumamax_test {

std::optional<lumamax_ref::Result> AnalyzeBuffer(GstBuffer* buffer, const GstVideoInfo& info,
                                                 const lumamax_ref::Params& params) {
  // Not gst_video_frame_map(): with a GstVideoMeta it maps only the memory block holding the
  // plane's first byte, so a plane split over two blocks would be read past its end. The
  // buffer's bytes are copied out instead and plane 0 located as the meta (or `info`) says.
  std::vector<uint8_t> bytes(gst_buffer_get_size(buffer));
  gst_buffer_extract(buffer, 0, bytes.data(), bytes.size());
  const GstVideoMeta* meta = gst_buffer_get_video_meta(buffer);
  const gsize offset = meta != nullptr ? meta->offset[0] : GST_VIDEO_INFO_PLANE_OFFSET(&info, 0);
  const int stride = meta != nullptr ? meta->stride[0] : GST_VIDEO_INFO_PLANE_STRIDE(&info, 0);
  const int height = GST_VIDEO_INFO_HEIGHT(&info);
  fail_unless(
      offset + static_cast<gsize>(stride) * (height - 1) + analysis_test::RowBytes(info, 0) <= bytes.size(),
      "test bug: plane 0 does not fit into its buffer");
  const lumamax_ref::View view{GST_VIDEO_INFO_FORMAT(&info), GST_VIDEO_INFO_WIDTH(&info), height, stride,
                               bytes.data() + offset};
  return lumamax_ref::Analyze(view, params);
}

}  // namespace lumamax_test
