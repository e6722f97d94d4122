#include "light_ref.h"

#include <algorithm>
#include <cmath>

#include "reference/deep_layout.h"

namespace light_ref {
namespace {

// ST 2084's constants.
constexpr double kM1 = 2610.0 / 16384.0, kM2 = 2523.0 / 4096.0 * 128.0;
constexpr double kC1 = 3424.0 / 4096.0, kC2 = 2413.0 / 4096.0 * 32.0, kC3 = 2392.0 / 4096.0 * 32.0;

// A code value of `depth` bits as a signal: luma and R, G, B 0..1 (black and white at 16 and 235
// scaled to the depth, limited; 0 and 2^d - 1, full), chroma -0.5..0.5 around 2^(d-1).
double Signal(uint32_t code, int depth, bool chroma, bool full_range) {
  const double unit = std::ldexp(1.0, depth - 8);
  if (chroma)
    return (code - std::ldexp(1.0, depth - 1)) / (full_range ? std::ldexp(1.0, depth) - 1 : 224 * unit);
  if (full_range) return code / (std::ldexp(1.0, depth) - 1);
  return (code - 16 * unit) / (219 * unit);
}

}  // namespace

double PqEotf(double signal) {
  const double p = std::pow(signal, 1.0 / kM2);
  return 10000.0 * std::pow(std::max(p - kC1, 0.0) / (kC2 - kC3 * p), 1.0 / kM1);
}

double PqInverseEotf(double light) {
  const double y = std::pow(light / 10000.0, kM1);
  return std::pow((kC1 + kC2 * y) / (1.0 + kC3 * y), kM2);
}

double HlgSceneLight(double signal) {
  const double a = 0.17883277, b = 1.0 - 4.0 * a, c = 0.5 - a * std::log(4.0 * a);
  return signal <= 0.5 ? signal * signal / 3.0 : (std::exp((signal - c) / a) + b) / 12.0;
}

double PixelLight(Transfer transfer, double r, double g, double b) {
  if (transfer == Transfer::kPq) return PqEotf(std::max({r, g, b}));
  const double rs = HlgSceneLight(r), gs = HlgSceneLight(g), bs = HlgSceneLight(b);
  const double ys = 0.2627 * rs + 0.6780 * gs + 0.0593 * bs;
  return ys > 0 ? 1000.0 * std::pow(ys, 0.2) * std::max({rs, gs, bs}) : 0.0;
}

Light Measure(const Params& params, const GstVideoInfo& info, const uint8_t* data,
              const reference::Rect& rect) {
  const reference::DeepLayout* layout = reference::FindDeepLayout(params.format);
  g_assert(layout != nullptr);
  auto code = [&](int c, int x, int y) {
    const reference::DeepComponent& at = layout->c[c];
    const bool sub = !layout->rgb && c > 0;
    return reference::DeepSample(data + info.offset[at.plane], info.stride[at.plane], at,
                                 sub ? x / layout->sx : x, sub ? y / layout->sy : y);
  };
  Light light;
  double sum = 0;
  for (int y = rect.y0; y < rect.y1; ++y) {
    for (int x = rect.x0; x < rect.x1; ++x) {
      double rgb[3];
      if (layout->rgb) {
        for (int c = 0; c < 3; ++c)
          rgb[c] = Signal(code(c, x, y), layout->c[c].depth, false, params.full_range);
      } else {
        const int depth = layout->c[0].depth;
        const double luma = Signal(code(0, x, y), depth, false, params.full_range);
        double cb = 0, cr = 0;  // gray: no chroma
        if (layout->components == 3) {
          cb = Signal(code(1, x, y), depth, true, params.full_range);
          cr = Signal(code(2, x, y), depth, true, params.full_range);
        }
        const double kg = 1.0 - params.kr - params.kb;
        rgb[0] = luma + 2 * (1 - params.kr) * cr;
        rgb[2] = luma + 2 * (1 - params.kb) * cb;
        rgb[1] = (luma - params.kr * rgb[0] - params.kb * rgb[2]) / kg;
      }
      for (double& v : rgb) v = std::clamp(v, 0.0, 1.0);
      const double l = PixelLight(params.transfer, rgb[0], rgb[1], rgb[2]);
      light.max = std::max(light.max, l);
      sum += l;
    }
  }
  light.average = rect.Empty() ? 0 : sum / double(rect.Area());
  return light;
}

}  // namespace light_ref
