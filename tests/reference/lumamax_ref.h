// CPU reference of the lumamax analysis, written from the element's specification (not from its
// implementation): integer luma L per pixel, brightest/darkest pixel with raster-order ties, mean
// luma and greedy peak selection over a clamped region of interest.
#pragma once

#include <gst/video/video.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "reference/luma_roi.h"

namespace lumamax_ref {

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
int64_t LumaValue(const View& view, reference::Matrix matrix, int x, int y);

// luma = L / ((2^depth - 1) * 65536), in 0..1: L / (255 * 65536) at 8 bits.
double LumaOf(int64_t value, int depth = 8);

// The depth of the format's values: 8, or 10, 12 or 16 for the deep formats (GRAY16_LE, P010_10LE,
// P016_LE, I420_10LE, I420_12LE, I422_10LE, Y444_10LE, Y444_16LE, RGBA64_LE, BGR10A2_LE), whose
// L is Y * 65536 or kr*R + kg*G + kb*B of their code values.
int DepthOf(GstVideoFormat format);

// Everything that changes the analysis.
struct Params {
  reference::Matrix matrix = reference::Matrix::kBt709;
  reference::Roi roi;
  guint count = 1;
  guint min_distance = 0;
  double peak_threshold = 0;  // peaks of luma below this are not reported
};

struct Pixel {
  int x;
  int y;
  int64_t value;  // L
  double luma;    // LumaOf(value, the format's depth)
};

struct Result {
  Pixel max;
  Pixel min;
  double mean_luma;
  std::vector<Pixel> peaks;  // brightest first; peaks[0] is `max` unless its luma is below the threshold
};

// The analysis of `view` with `params`; nullopt when the clamped ROI is empty.
std::optional<Result> Analyze(const View& view, const Params& params);

// Greedy peak selection: `pixels` in any order are sorted by L descending, ties by raster order
// (y, then x) ascending; a pixel is accepted when its squared distance to every accepted one is
// at least max(min_distance, 1)^2; selection stops after `count` accepted. Then the accepted
// pixels whose luma is below `peak_threshold` are dropped (peak-threshold only hides peaks: it
// does not change which are chosen).
std::vector<Pixel> GreedyPeaks(std::vector<Pixel> pixels, guint count, guint min_distance,
                               double peak_threshold = 0);

}  // namespace lumamax_ref
