#include "frames.h"

namespace histogram_test {

TestFrame RandomFrame(GstVideoFormat format, int width, int height, std::mt19937& rng) {
  TestFrame frame = analysis_test::NewTestFrame(format, width, height);
  std::uniform_int_distribution<int> byte(0, 255);
  for (uint8_t& value : frame.bytes) value = static_cast<uint8_t>(byte(rng));
  return frame;
}

histogram_ref::FrameView ViewOf(const TestFrame& frame) {
  histogram_ref::FrameView view{frame.format(), frame.width(), frame.height(), {}, {}};
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&frame.info); ++p) {
    view.planes[p] = frame.bytes.data() + GST_VIDEO_INFO_PLANE_OFFSET(&frame.info, p);
    view.strides[p] = GST_VIDEO_INFO_PLANE_STRIDE(&frame.info, p);
  }
  return view;
}

void SetSample(TestFrame& frame, int component, int x, int y, uint8_t value) {
  analysis_test::Component(frame, component, x, y) = value;
}

TestFrame SolidFrame(GstVideoFormat format, int width, int height, const Colour& colour, std::mt19937& rng) {
  TestFrame frame = RandomFrame(format, width, height, rng);
  const GstVideoInfo* info = &frame.info;
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(info); ++c) {
    for (int y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT(info, c); ++y) {
      for (int x = 0; x < GST_VIDEO_INFO_COMP_WIDTH(info, c); ++x) SetSample(frame, c, x, y, colour[c]);
    }
  }
  return frame;
}

}  // namespace histogram_test
