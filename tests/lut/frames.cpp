#include "frames.h"

#include <gst/check/gstcheck.h>

#include <cstdlib>

#include "common/format_names.h"
#include "common/test_seed.h"
#include "reference/deep_layout.h"
#include "reference/rgb_layout.h"

namespace lut_test {
namespace {

const reference::RgbLayout& LayoutOf(GstVideoFormat format) {
  const reference::RgbLayout* layout = reference::FindRgbLayout(format);
  fail_unless(layout != nullptr, "%s is not a packed RGB format", gst_video_format_to_string(format));
  return *layout;
}

}  // namespace

int Frame::bpp() const {
  if (const reference::DeepLayout* deep = reference::FindDeepLayout(format)) return deep->c[0].pixel_stride;
  return LayoutOf(format).bytes_per_pixel;
}

int Frame::depth() const {
  const reference::DeepLayout* deep = reference::FindDeepLayout(format);
  return deep ? deep->c[0].depth : 8;
}

std::array<uint32_t, 4> Frame::Codes(size_t i) const {
  const int x = int(i % width), y = int(i / width);
  if (const reference::DeepLayout* deep = reference::FindDeepLayout(format)) {
    std::array<uint32_t, 4> codes;
    for (int c = 0; c < 4; ++c)
      codes[c] = reference::DeepSample(pixels.data(), row_bytes(), deep->c[c], x, y);
    return codes;
  }
  const reference::RgbLayout& l = LayoutOf(format);
  const uint8_t* p = &pixels[i * l.bytes_per_pixel];
  return {p[l.r], p[l.g], p[l.b], l.a >= 0 ? p[l.a] : 0u};
}

std::string Frame::Describe() const {
  return vktest::FormatAndSize(format, width, height);
}

std::array<uint8_t, 3> Frame::Rgb(size_t i) const {
  const reference::RgbLayout& l = LayoutOf(format);
  const uint8_t* p = &pixels[i * l.bytes_per_pixel];
  return {p[l.r], p[l.g], p[l.b]};
}

std::vector<uint8_t> Frame::Rgb24() const {
  std::vector<uint8_t> out;
  out.reserve(size_t(width) * height * 3);
  for (size_t i = 0; i < size_t(width) * height; ++i) {
    const auto rgb = Rgb(i);
    out.insert(out.end(), rgb.begin(), rgb.end());
  }
  return out;
}

Frame RandomFrame(GstVideoFormat format, int width, int height, std::mt19937& rng) {
  Frame frame{format, width, height, {}};
  frame.pixels.resize(size_t(frame.row_bytes()) * height);
  std::uniform_int_distribution<int> byte(0, 255), corner(0, 15);
  if (const reference::DeepLayout* deep = reference::FindDeepLayout(format)) {
    for (uint8_t& b : frame.pixels) b = uint8_t(byte(rng));
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        if (corner(rng) != 0) continue;
        const int bits = byte(rng);
        for (int c = 0; c < 3; ++c) {
          const uint32_t top = (1u << deep->c[c].depth) - 1;
          reference::StoreDeepSample(frame.pixels.data(), frame.row_bytes(), deep->c[c], x, y,
                                     bits & (1 << c) ? top : 0);
        }
      }
    }
    return frame;
  }
  const reference::RgbLayout& l = LayoutOf(format);
  for (size_t i = 0; i < size_t(width) * height; ++i) {
    uint8_t* p = &frame.pixels[i * l.bytes_per_pixel];
    for (int b = 0; b < l.bytes_per_pixel; ++b) p[b] = uint8_t(byte(rng));
    if (corner(rng) == 0) {
      const int bits = byte(rng);
      p[l.r] = bits & 1 ? 255 : 0;
      p[l.g] = bits & 2 ? 255 : 0;
      p[l.b] = bits & 4 ? 255 : 0;
    }
  }
  return frame;
}

void CheckFrame(const Frame& input, const Frame& output, const ExpectedRgb& expected, int tolerance,
                const std::string& context) {
  fail_unless(output.pixels.size() == input.pixels.size(), "%s: output has %zu bytes, input %zu",
              context.c_str(), output.pixels.size(), input.pixels.size());
  const reference::RgbLayout& l = LayoutOf(input.format);
  static const char* const kNames[3] = {"R", "G", "B"};
  for (size_t i = 0; i < size_t(input.width) * input.height; ++i) {
    const auto want = expected(i);
    const auto got = output.Rgb(i);
    const auto in = input.Rgb(i);
    for (int c = 0; c < 3; ++c) {
      if (std::abs(int(got[c]) - int(want[c])) > tolerance) {
        ck_abort_msg("%s, %s: %s at x=%zu y=%zu (input %u,%u,%u): got %u, expected %u +-%d [%s]",
                     context.c_str(), input.Describe().c_str(), kNames[c], i % input.width, i / input.width,
                     in[0], in[1], in[2], got[c], want[c], tolerance, vktest::SeedDescription().c_str());
      }
    }
    for (int b = 0; b < l.bytes_per_pixel; ++b) {
      if (b == l.r || b == l.g || b == l.b) continue;
      const size_t at = i * l.bytes_per_pixel + b;
      fail_unless(output.pixels[at] == input.pixels[at],
                  "%s, %s: %s byte %d at x=%zu y=%zu changed from %u to %u [%s]", context.c_str(),
                  input.Describe().c_str(), l.a >= 0 ? "alpha" : "padding", b, i % input.width,
                  i / input.width, input.pixels[at], output.pixels[at], vktest::SeedDescription().c_str());
    }
  }
}

void CheckDeepFrame(const Frame& input, const Frame& output, const ExpectedCodes& expected, int tolerance,
                    const std::string& context) {
  fail_unless(output.pixels.size() == input.pixels.size(), "%s: output has %zu bytes, input %zu",
              context.c_str(), output.pixels.size(), input.pixels.size());
  static const char* const kNames[4] = {"R", "G", "B", "alpha"};
  for (size_t i = 0; i < size_t(input.width) * input.height; ++i) {
    const auto want = expected(i);
    const auto got = output.Codes(i);
    const auto in = input.Codes(i);
    for (int c = 0; c < 4; ++c) {
      const int64_t wanted = c < 3 ? want[c] : in[3], slack = c < 3 ? tolerance : 0;
      if (std::abs(int64_t(got[c]) - wanted) > slack) {
        ck_abort_msg("%s, %s: %s at x=%zu y=%zu (input %u,%u,%u,%u): got %u, expected %" G_GINT64_FORMAT
                     " +-%" G_GINT64_FORMAT " [%s]",
                     context.c_str(), input.Describe().c_str(), kNames[c], i % input.width, i / input.width,
                     in[0], in[1], in[2], in[3], got[c], wanted, slack, vktest::SeedDescription().c_str());
      }
    }
  }
}

}  // namespace lut_test
