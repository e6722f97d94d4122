// Random packed RGB input frames for rgb2yuv.
#pragma once

#include <gst/video/video.h>

#include <cstdint>
#include <random>
#include <vector>

#include "reference/rgb2yuv_ref.h"

namespace rgb2yuv_test {

// Tightly packed pixels (row_bytes per row); buffers lay them out with any stride/offset.
struct RgbFrame {
  GstVideoFormat format = GST_VIDEO_FORMAT_UNKNOWN;
  int width = 0;
  int height = 0;
  int row_bytes = 0;
  std::vector<uint8_t> pixels;

  rgb2yuv_ref::RgbView View() const;
};

// Random bytes, with a share of pixels set to corners of the RGB cube (0 or 255 per channel,
// alpha included) so that black, white, saturated colours and clamping are always exercised.
RgbFrame RandomRgbFrame(GstVideoFormat format, int width, int height, std::mt19937& rng);

}  // namespace rgb2yuv_test
