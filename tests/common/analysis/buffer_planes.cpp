#include "buffer_planes.h"

#include <gst/check/gstcheck.h>

#include "frame_buffer.h"

namespace analysis_test {

BufferPlanes ReadBufferPlanes(GstBuffer* buffer, const GstVideoInfo& info) {
  // Not gst_video_frame_map(): with a GstVideoMeta it maps only the memory block holding a
  // plane's first byte, so a plane split over two blocks would be read past its end. The
  // buffer's bytes are copied out instead and each plane located as the meta (or `info`) says.
  BufferPlanes planes;
  planes.bytes.resize(gst_buffer_get_size(buffer));
  gst_buffer_extract(buffer, 0, planes.bytes.data(), planes.bytes.size());
  const GstVideoMeta* meta = gst_buffer_get_video_meta(buffer);
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
    planes.offset[p] = meta != nullptr ? meta->offset[p] : GST_VIDEO_INFO_PLANE_OFFSET(&info, p);
    planes.stride[p] = meta != nullptr ? meta->stride[p] : GST_VIDEO_INFO_PLANE_STRIDE(&info, p);
    const gsize end = planes.offset[p] + static_cast<gsize>(planes.stride[p]) * (PlaneRows(info, p) - 1) +
                      RowBytes(info, p);
    fail_unless(end <= planes.bytes.size(), "test bug: plane %u does not fit into its buffer", p);
  }
  return planes;
}

}  // namespace analysis_test
