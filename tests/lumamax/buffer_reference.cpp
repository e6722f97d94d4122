#include "buffer_reference.h"

#include "common/analysis/buffer_planes.h"

namespace lumamax_test {

std::optional<lumamax_ref::Result> AnalyzeBuffer(GstBuffer* buffer, const GstVideoInfo& info,
                                                 const lumamax_ref::Params& params) {
  const analysis_test::BufferPlanes planes = analysis_test::ReadBufferPlanes(buffer, info);
  const lumamax_ref::View view{GST_VIDEO_INFO_FORMAT(&info), GST_VIDEO_INFO_WIDTH(&info),
                               GST_VIDEO_INFO_HEIGHT(&info), planes.stride[0], planes.Plane(0)};
  return lumamax_ref::Analyze(view, params);
}

}  // namespace lumamax_test
