#include "frames.h"

#include <algorithm>
#include <numeric>

namespace lumamax_test {
namespace {

using analysis_test::Component;

// Components whose bytes make up L: R, G, B for RGB formats, Y otherwise (component 0).
int LumaComponents(const TestFrame& frame) {
  return lumamax_ref::IsRgb(frame.format()) ? 3 : 1;
}

}  // namespace

lumamax_ref::View ViewOf(const TestFrame& frame) {
  return lumamax_ref::View{frame.format(), frame.width(), frame.height(),
                           GST_VIDEO_INFO_PLANE_STRIDE(&frame.info, 0),
                           frame.bytes.data() + GST_VIDEO_INFO_PLANE_OFFSET(&frame.info, 0)};
}

void SetGrey(TestFrame& frame, int x, int y, uint8_t level) {
  for (int c = 0; c < LumaComponents(frame); ++c) Component(frame, c, x, y) = level;
}

void SetRgb(TestFrame& frame, int x, int y, uint8_t r, uint8_t g, uint8_t b) {
  g_assert(lumamax_ref::IsRgb(frame.format()));
  // GStreamer numbers the components of every RGB format R, G, B (then A).
  Component(frame, GST_VIDEO_COMP_R, x, y) = r;
  Component(frame, GST_VIDEO_COMP_G, x, y) = g;
  Component(frame, GST_VIDEO_COMP_B, x, y) = b;
}

void FillRandom(TestFrame& frame, std::mt19937& rng, int low, int high) {
  std::uniform_int_distribution<int> any(0, 255);
  for (uint8_t& byte : frame.bytes) byte = static_cast<uint8_t>(any(rng));
  std::uniform_int_distribution<int> luma(low, high);
  for (int y = 0; y < frame.height(); ++y) {
    for (int x = 0; x < frame.width(); ++x) {
      for (int c = 0; c < LumaComponents(frame); ++c) {
        Component(frame, c, x, y) = static_cast<uint8_t>(luma(rng));
      }
    }
  }
}

Planted PlantExtremes(TestFrame& frame, std::mt19937& rng) {
  const int pixels = frame.width() * frame.height();
  Planted planted;
  if (pixels < 6) return planted;
  std::vector<int> order(pixels);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  auto at = [&](int k) { return Position{order[k] % frame.width(), order[k] / frame.width()}; };
  const uint8_t levels[6] = {255, 255, 250, 0, 0, 5};
  for (int k = 0; k < 6; ++k) SetGrey(frame, at(k).x, at(k).y, levels[k]);
  // Of each tied pair, the one with the smaller raster index must win.
  planted.brightest = at(order[0] < order[1] ? 0 : 1);
  planted.darkest = at(order[3] < order[4] ? 3 : 4);
  planted.done = true;
  return planted;
}

TestFrame RandomFrame(GstVideoFormat format, int width, int height, std::mt19937& rng, Planted* planted) {
  TestFrame frame = NewTestFrame(format, width, height);
  FillRandom(frame, rng, 16, 239);
  const Planted where = PlantExtremes(frame, rng);
  if (planted != nullptr) *planted = where;
  return frame;
}

}  // namespace lumamax_test
