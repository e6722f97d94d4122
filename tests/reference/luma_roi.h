// What the analysis elements' specifications share, written once for every reference: the
// `matrix` property's integer luma weights and the roi-* properties clamped to the frame. The
// references and their tests name them here (reference::Matrix), not through each reference.
#pragma once

#include <glib.h>

#include <cstdint>

namespace reference {

// The weights' fixed-point unit: a grey pixel of level v has L = v * kOne under every matrix.
inline constexpr int64_t kOne = 65536;

// The `matrix` property. Only the luma of RGB formats depends on it.
enum class Matrix { kBt601, kBt709, kBt2020 };

// The property's nick ("bt601", "bt709", "bt2020").
const char* Nick(Matrix matrix);

// kr = round(Kr * 65536), kb = round(Kb * 65536), kg = 65536 - kr - kb.
struct Weights {
  int64_t kr;
  int64_t kg;
  int64_t kb;
};

Weights WeightsOf(Matrix matrix);

// The roi-* properties (0 width/height: up to the frame edge).
struct Roi {
  guint x = 0;
  guint y = 0;
  guint width = 0;
  guint height = 0;
};

// A region [x0, x1) x [y0, y1).
struct Rect {
  int x0;
  int y0;
  int x1;
  int y1;
  bool Empty() const { return x1 <= x0 || y1 <= y0; }
  guint64 Area() const { return Empty() ? 0 : guint64(x1 - x0) * guint64(y1 - y0); }
};

// The ROI clamped to a width x height frame, in frame (luma) coordinates.
Rect ClampRoi(const Roi& roi, int width, int height);

}  // namespace reference
