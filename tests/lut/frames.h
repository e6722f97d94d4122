// Packed RGB frames for the lut tests and how their expected output is checked: the colour
// bytes against expected colours, every other byte (alpha, padding) against the input.
#pragma once

#include <gst/video/video.h>

#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "common/packed_rgb_formats.h"

namespace lut_test {

// The formats the element takes (and gives): every packed RGB format, and the deeper ones.
inline constexpr const auto& kFormats = vktest::kPackedRgbFormats;
inline constexpr GstVideoFormat kDeepFormats[] = {GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_FORMAT_BGR10A2_LE,
                                                  GST_VIDEO_FORMAT_RGB10A2_LE};

struct Frame {
  GstVideoFormat format = GST_VIDEO_FORMAT_RGB;
  int width = 0;
  int height = 0;
  std::vector<uint8_t> pixels;  // tightly packed rows

  int bpp() const;
  int row_bytes() const { return width * bpp(); }
  std::string Describe() const;  // "RGBA 97x61"
  // The colour of pixel i (r, g, b).
  std::array<uint8_t, 3> Rgb(size_t i) const;
  // All pixels as tightly packed rgb24 (what ffmpeg reads).
  std::vector<uint8_t> Rgb24() const;
  // Bits of R, G and B: 8, or 10 and 16 for the deep formats.
  int depth() const;
  // The code values of pixel i (r, g, b, a; a is 0 for formats without alpha), any format.
  std::array<uint32_t, 4> Codes(size_t i) const;
};

// Random bytes in every byte of every pixel (alpha and padding included), with a share of
// pixels at corners of the RGB cube (0 or 255 per channel).
Frame RandomFrame(GstVideoFormat format, int width, int height, std::mt19937& rng);

// Expected colour of pixel i of `input`.
using ExpectedRgb = std::function<std::array<uint8_t, 3>(size_t i)>;
using ExpectedCodes = std::function<std::array<uint32_t, 3>(size_t i)>;

// Fails the running test (naming `context` and the seed) unless every colour byte of `output` is
// within `tolerance` of `expected` and every other byte equals the input's.
void CheckFrame(const Frame& input, const Frame& output, const ExpectedRgb& expected, int tolerance,
                const std::string& context);

// The same for a deep format: R, G, B code values within `tolerance`, alpha unchanged.
void CheckDeepFrame(const Frame& input, const Frame& output, const ExpectedCodes& expected, int tolerance,
                    const std::string& context);

}  // namespace lut_test
