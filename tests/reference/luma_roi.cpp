#include "luma_roi.h"

#include <algorithm>
#include <cmath>

namespace reference {

const char* Nick(Matrix matrix) {
  switch (matrix) {
    case Matrix::kBt601: return "bt601";
    case Matrix::kBt709: return "bt709";
    case Matrix::kBt2020: return "bt2020";
  }
  return "?";
}

Weights WeightsOf(Matrix matrix) {
  double kr = 0, kb = 0;
  switch (matrix) {
    case Matrix::kBt601: kr = 0.299, kb = 0.114; break;
    case Matrix::kBt709: kr = 0.2126, kb = 0.0722; break;
    case Matrix::kBt2020: kr = 0.2627, kb = 0.0593; break;
  }
  const int64_t r = std::llround(kr * kOne);
  const int64_t b = std::llround(kb * kOne);
  return Weights{r, kOne - r - b, b};
}

Rect ClampRoi(const Roi& roi, int width, int height) {
  // 64-bit sums: roi-x + roi-width may exceed guint.
  const int64_t w = width, h = height;
  Rect rect;
  rect.x0 = static_cast<int>(std::min<int64_t>(roi.x, w));
  rect.y0 = static_cast<int>(std::min<int64_t>(roi.y, h));
  rect.x1 = static_cast<int>(roi.width != 0 ? std::min<int64_t>(int64_t{roi.x} + roi.width, w) : w);
  rect.y1 = static_cast<int>(roi.height != 0 ? std::min<int64_t>(int64_t{roi.y} + roi.height, h) : h);
  return rect;
}

}  // namespace reference
