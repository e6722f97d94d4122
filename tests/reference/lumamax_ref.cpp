#include "lumamax_ref.h"

#include <algorithm>
#include <cmath>

#include "reference/deep_layout.h"
#include "reference/rgb_layout.h"

namespace lumamax_ref {
namespace {

using reference::kOne;

bool IsYPlaneFormat(GstVideoFormat format) {
  return format == GST_VIDEO_FORMAT_GRAY8 || format == GST_VIDEO_FORMAT_I420 ||
         format == GST_VIDEO_FORMAT_NV12 || format == GST_VIDEO_FORMAT_Y444;
}

using reference::FindDeepLayout;

// Plane 0 of a deep format: the formats the element takes have their R, G, B (or Y) there.
int64_t DeepValueAt(const View& view, const reference::DeepComponent& c, int x, int y) {
  return reference::DeepSample(view.data, view.stride, c, x, y);
}

// Raster order: smaller y first, then smaller x.
bool RasterBefore(const Pixel& a, const Pixel& b) {
  return a.y != b.y ? a.y < b.y : a.x < b.x;
}

}  // namespace

bool IsRgb(GstVideoFormat format) {
  return reference::FindRgbLayout(format) != nullptr;
}

bool IsSupported(GstVideoFormat format) {
  return IsRgb(format) || IsYPlaneFormat(format) || FindDeepLayout(format) != nullptr;
}

int DepthOf(GstVideoFormat format) {
  const reference::DeepLayout* deep = FindDeepLayout(format);
  return deep ? deep->c[0].depth : 8;
}

int64_t LumaValue(const View& view, reference::Matrix matrix, int x, int y) {
  g_assert(x >= 0 && x < view.width && y >= 0 && y < view.height);
  const uint8_t* row = view.data + static_cast<ptrdiff_t>(y) * view.stride;
  if (const reference::DeepLayout* deep = FindDeepLayout(view.format)) {
    if (!deep->rgb) return DeepValueAt(view, deep->c[0], x, y) * kOne;
    const reference::Weights w = reference::WeightsOf(matrix);
    return w.kr * DeepValueAt(view, deep->c[0], x, y) + w.kg * DeepValueAt(view, deep->c[1], x, y) +
           w.kb * DeepValueAt(view, deep->c[2], x, y);
  }
  if (const reference::RgbLayout* layout = reference::FindRgbLayout(view.format)) {
    const uint8_t* pixel = row + static_cast<ptrdiff_t>(x) * layout->bytes_per_pixel;
    const reference::Weights w = reference::WeightsOf(matrix);
    return w.kr * pixel[layout->r] + w.kg * pixel[layout->g] + w.kb * pixel[layout->b];
  }
  g_assert(IsYPlaneFormat(view.format));
  return row[x] * kOne;
}

double LumaOf(int64_t value, int depth) {
  return static_cast<double>(value) / (double((int64_t(1) << depth) - 1) * kOne);
}

std::vector<Pixel> GreedyPeaks(std::vector<Pixel> pixels, guint count, guint min_distance,
                               double peak_threshold) {
  std::stable_sort(pixels.begin(), pixels.end(), [](const Pixel& a, const Pixel& b) {
    if (a.value != b.value) return a.value > b.value;
    return RasterBefore(a, b);
  });
  const int64_t distance = std::max<guint>(min_distance, 1);
  const int64_t limit = distance * distance;
  std::vector<Pixel> accepted;
  for (const Pixel& candidate : pixels) {
    if (accepted.size() >= count) break;
    bool far_enough = true;
    for (const Pixel& peak : accepted) {
      const int64_t dx = candidate.x - peak.x;
      const int64_t dy = candidate.y - peak.y;
      if (dx * dx + dy * dy < limit) {
        far_enough = false;
        break;
      }
    }
    if (far_enough) accepted.push_back(candidate);
  }
  accepted.erase(std::remove_if(accepted.begin(), accepted.end(),
                                [&](const Pixel& peak) { return peak.luma < peak_threshold; }),
                 accepted.end());
  return accepted;
}

std::optional<Result> Analyze(const View& view, const Params& params) {
  const reference::Rect rect = reference::ClampRoi(params.roi, view.width, view.height);
  if (rect.Empty()) return std::nullopt;

  std::vector<Pixel> pixels;
  pixels.reserve(static_cast<size_t>(rect.x1 - rect.x0) * (rect.y1 - rect.y0));
  int64_t sum = 0;  // exact: at most 65535 * 65536 per pixel
  const int depth = DepthOf(view.format);
  for (int y = rect.y0; y < rect.y1; ++y) {
    for (int x = rect.x0; x < rect.x1; ++x) {
      const int64_t value = LumaValue(view, params.matrix, x, y);
      pixels.push_back(Pixel{x, y, value, LumaOf(value, depth)});
      sum += value;
    }
  }

  // Pixels are in raster order, so strict comparisons keep the first of equal values.
  Result result;
  result.max = pixels.front();
  result.min = pixels.front();
  for (const Pixel& pixel : pixels) {
    if (pixel.value > result.max.value) result.max = pixel;
    if (pixel.value < result.min.value) result.min = pixel;
  }
  result.mean_luma = LumaOf(sum, depth) / static_cast<double>(pixels.size());
  result.peaks = GreedyPeaks(std::move(pixels), params.count, params.min_distance, params.peak_threshold);
  return result;
}

}  // namespace lumamax_ref
