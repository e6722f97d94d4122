// CPU reference of the lumamax analysis, written from the element's specification (not from its
// implementation): integer luma L per pixel, brightest/darkest pixel with raster-order ties, mean
// luma and greedy peak selection over a clamped region of interest.
#pragma once

#include <gst/video/video.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace lumamax_ref {

// The `matrix` property. Only RGB formats use it; YUV and GRAY8 luma is the Y byte.
enum class Matrix { kBt601, kBt709, kBt2020 };

// The property's nick ("bt601", "bt709", "bt2020").
const char* Nick(Matrix matrix);

// Integer weights: kr = round(Kr * 65536), kb = round(Kb * 65536), kg = 65536 - kr - kb, so that
// a grey pixel of level v has L = v * 65536 under every matrix.
struct Weights {
  int64_t kr;
  int64_t kg;
  int64_t kb;
};

Weights WeightsOf(Matrix matrix);

// The formats lumamax is specified for (RGB, BGR, the 4-byte RGB family, GRAY8, I420, NV12, Y444).
bool IsSupported(GstVideoFormat format);
bool IsRgb(GstVideoFormat format);

// The plane that holds luma information: the packed RGB plane, or the Y/gray plane. In every
// supported format that is plane 0, so chroma planes never matter to the analysis.
struct View {
  GstVideoFormat format;
  int width;
  int height;
  int stride;  // bytes from one row to the next (any value, not only multiples of 4)
  const uint8_t* data;
};

// L of pixel (x, y): Y * 65536, or kr*R + kg*G + kb*B (alpha and x bytes ignored).
int64_t LumaValue(const View& view, Matrix matrix, int x, int y);

// luma = L / (255 * 65536), in 0..1.
double LumaOf(int64_t value);

// The roi-* properties (0 width/height: up to the frame edge).
struct Roi {
  guint x = 0;
  guint y = 0;
  guint width = 0;
  guint height = 0;
};

// The ROI clamped to the frame, as [x0, x1) x [y0, y1) in frame coordinates.
struct Rect {
  int x0;
  int y0;
  int x1;
  int y1;
  bool Empty() const { return x1 <= x0 || y1 <= y0; }
};

Rect ClampRoi(const Roi& roi, int width, int height);

// Everything that changes the analysis.
struct Params {
  Matrix matrix = Matrix::kBt709;
  Roi roi;
  guint count = 1;
  guint min_distance = 0;
};

struct Pixel {
  int x;
  int y;
  int64_t value;  // L
  double luma;    // LumaOf(value)
};

struct Result {
  Pixel max;
  Pixel min;
  double mean_luma;
  std::vector<Pixel> peaks;  // brightest first; peaks[0] is `max`
};

// The analysis of `view` with `params`; nullopt when the clamped ROI is empty.
std::optional<Result> Analyze(const View& view, const Params& params);

// Greedy peak selection: `pixels` in any order are sorted by L descending, ties by raster order
// (y, then x) ascending; a pixel is accepted when its squared distance to every accepted one is
// at least max(min_distance, 1)^2; selection stops after `count` accepted.
std::vector<Pixel> GreedyPeaks(std::vector<Pixel> pixels, guint count, guint min_distance);

}  // namespace lumamax_ref
