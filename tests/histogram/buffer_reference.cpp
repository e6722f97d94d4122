#include "buffer_reference.h"

#include "common/analysis/buffer_planes.h"

namespace histogram_test {

std::optional<histogram_ref::Result> AnalyzeBuffer(GstBuffer* buffer, const GstVideoInfo& info,
                                                   const histogram_ref::Params& params) {
  const analysis_test::BufferPlanes planes = analysis_test::ReadBufferPlanes(buffer, info);
  histogram_ref::FrameView view{
      GST_VIDEO_INFO_FORMAT(&info), GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info), {}, {}};
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
    view.planes[p] = planes.Plane(p);
    view.strides[p] = planes.stride[p];
  }
  return histogram_ref::Analyze(view, params);
}

}  // namespace histogram_test
