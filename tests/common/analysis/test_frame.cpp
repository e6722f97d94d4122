#include "test_frame.h"

#include "common/format_names.h"

namespace analysis_test {

std::string TestFrame::Describe() const {
  return vktest::FormatAndSize(format(), width(), height());
}

TestFrame NewTestFrame(GstVideoFormat format, int width, int height) {
  TestFrame frame;
  const gboolean known = gst_video_info_set_format(&frame.info, format, width, height);
  g_assert(known);
  GST_VIDEO_INFO_FPS_N(&frame.info) = 30;
  GST_VIDEO_INFO_FPS_D(&frame.info) = 1;
  frame.bytes.assign(GST_VIDEO_INFO_SIZE(&frame.info), 0);
  return frame;
}

uint8_t& Component(TestFrame& frame, int c, int x, int y) {
  const GstVideoInfo* info = &frame.info;
  g_assert(x < GST_VIDEO_INFO_COMP_WIDTH(info, c) && y < GST_VIDEO_INFO_COMP_HEIGHT(info, c));
  const size_t at = GST_VIDEO_INFO_COMP_OFFSET(info, c) +
                    static_cast<size_t>(y) * GST_VIDEO_INFO_COMP_STRIDE(info, c) +
                    static_cast<size_t>(x) * GST_VIDEO_INFO_COMP_PSTRIDE(info, c);
  return frame.bytes[at];
}

}  // namespace analysis_test
