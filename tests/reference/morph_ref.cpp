#include "morph_ref.h"

#include <algorithm>
#include <cmath>

namespace morph_ref {
namespace {

// One erosion or dilation; pixels outside the frame do not take part.
Channel Once(const Channel& in, const std::vector<uint8_t>& mask, int mw, int mh, bool dilate) {
  Channel out = in;
  const int c = mw / 2, r = mh / 2;
  for (int y = 0; y < in.height; ++y) {
    for (int x = 0; x < in.width; ++x) {
      bool any = false;
      uint32_t best = 0;
      for (int i = std::max(0, r - y); i < mh && y + i - r < in.height; ++i) {
        for (int j = std::max(0, c - x); j < mw && x + j - c < in.width; ++j) {
          if (!mask[size_t(i) * mw + j]) continue;
          const uint32_t v = in.At(x + j - c, y + i - r);
          best = !any ? v : dilate ? std::max(best, v) : std::min(best, v);
          any = true;
        }
      }
      // The centre is always in the mask, so `any` holds.
      out.values[size_t(y) * in.width + x] = best;
    }
  }
  return out;
}

Channel Repeat(Channel image, const MorphSpec& spec, bool dilate) {
  const std::vector<uint8_t> mask = Mask(spec.shape, spec.width, spec.height);
  for (int i = 0; i < spec.iterations; ++i) image = Once(image, mask, spec.width, spec.height, dilate);
  return image;
}

Channel Difference(const Channel& a, const Channel& b) {
  Channel out = a;
  for (size_t i = 0; i < out.values.size(); ++i)
    out.values[i] = a.values[i] - std::min(a.values[i], b.values[i]);
  return out;
}

}  // namespace

const char* OperationNick(Operation operation) {
  static const char* const kNicks[] = {"erode", "dilate", "open", "close", "gradient", "tophat", "blackhat"};
  return kNicks[operation];
}

const char* ShapeNick(Shape shape) {
  static const char* const kNicks[] = {"rect", "cross", "ellipse"};
  return kNicks[shape];
}

std::string MorphSpec::Describe() const {
  return std::string(OperationNick(operation)) + " " + ShapeNick(shape) + " " + std::to_string(width) + "x" +
         std::to_string(height) + " x" + std::to_string(iterations);
}

std::vector<uint8_t> Mask(Shape shape, int width, int height) {
  std::vector<uint8_t> mask(size_t(width) * height, 0);
  const int c = width / 2, r = height / 2;
  for (int i = 0; i < height; ++i) {
    for (int j = 0; j < width; ++j) {
      bool on = true;
      if (shape == kCross) {
        on = i == r || j == c;
      } else if (shape == kEllipse) {
        const int dy = i - r;
        const double reach = r == 0 ? 0.0 : c * std::sqrt(double(r * r - dy * dy) / (double(r) * r));
        on = std::abs(j - c) <= int(std::nearbyint(reach));
      }
      mask[size_t(i) * width + j] = on;
    }
  }
  return mask;
}

Channel Apply(const Channel& in, const MorphSpec& spec) {
  switch (spec.operation) {
    case kErode: return Repeat(in, spec, false);
    case kDilate: return Repeat(in, spec, true);
    case kOpen: return Repeat(Repeat(in, spec, false), spec, true);
    case kClose: return Repeat(Repeat(in, spec, true), spec, false);
    case kGradient: return Difference(Repeat(in, spec, true), Repeat(in, spec, false));
    case kTophat: return Difference(in, Repeat(Repeat(in, spec, false), spec, true));
    case kBlackhat: return Difference(Repeat(Repeat(in, spec, true), spec, false), in);
  }
  return in;
}

}  // namespace morph_ref
