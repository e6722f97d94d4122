#include "rgb_frame.h"

namespace rgb2yuv_test {

rgb2yuv_ref::RgbView RgbFrame::View() const {
  return rgb2yuv_ref::RgbView{format, width, height, row_bytes, pixels.data()};
}

RgbFrame RandomRgbFrame(GstVideoFormat format, int width, int height, std::mt19937& rng) {
  const int bytes_per_pixel = rgb2yuv_ref::BytesPerPixel(format);
  RgbFrame frame;
  frame.format = format;
  frame.width = width;
  frame.height = height;
  frame.row_bytes = width * bytes_per_pixel;
  frame.pixels.resize(static_cast<size_t>(frame.row_bytes) * height);

  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> percent(0, 99);
  for (size_t pixel = 0; pixel < frame.pixels.size(); pixel += bytes_per_pixel) {
    const bool corner = percent(rng) < 15;
    for (int i = 0; i < bytes_per_pixel; ++i) {
      frame.pixels[pixel + i] = static_cast<uint8_t>(corner ? (byte(rng) & 1) * 255 : byte(rng));
    }
  }
  return frame;
}

}  // namespace rgb2yuv_test
