// Float64 CPU reference of the rgb2yuv conversion, written from the element's specification and
// not from its implementation, so that both can be compared sample by sample.
#pragma once

#include <gst/video/video.h>

#include <cstdint>
#include <vector>

#include "common/yuv_planes.h"
#include "reference/rgb_layout.h"

namespace rgb2yuv_ref {

// A packed RGB image as the element reads it (one plane, `stride` bytes per row).
struct RgbView {
  GstVideoFormat format;
  int width;
  int height;
  int stride;
  const uint8_t* data;
};

// The layout of one of the ten 8-bit input formats; aborts for any other format.
const reference::RgbLayout& LayoutOf(GstVideoFormat format);

// Bytes of one pixel of any input format: the ten 8-bit ones, RGBA64_LE, BGR10A2_LE, RGB10A2_LE.
int BytesPerPixel(GstVideoFormat format);

// Channel values of one pixel on a 0..255 scale (a deep format's code value v of depth d is
// v * 255 / (2^d - 1), unrounded); alpha is 255 when the format has none.
struct Rgba {
  double r;
  double g;
  double b;
  double a;
};

Rgba ReadPixel(const RgbView& image, int x, int y);

// Where a subsampled chroma sample sits relative to the luma samples.
enum class ChromaSiting {
  kCentered,             // "jpeg", unset or unknown: box average of the 2 (x 2) pixels
  kHorizontallyCosited,  // "mpeg2": [1,2,1]/4 around even columns, rows averaged
};

struct Params {
  double kr;
  double kb;
  bool full_range;
  ChromaSiting siting;
};

// Kr/Kb of BT.601, BT.709 or BT.2020; aborts for other matrices (the element supports no other).
Params MakeParams(GstVideoColorMatrix matrix, GstVideoColorRange range, ChromaSiting siting);

// Parameters selected by output caps: the colorimetry GstVideoInfo resolved (defaults included)
// and the chroma siting, where only "mpeg2" (horizontally cosited) changes the filter.
Params ParamsFromVideoInfo(const GstVideoInfo& output_info);

// Unrounded Y, U, V in code values of `depth` bits for one colour with channels on a 0..255
// scale. Limited range at depth d is the 8-bit range times 2^(d-8) (BT.2100: 10-bit Y 64..940, C
// 64..960); full range is 0..2^d-1 with chroma centred on 2^(d-1), as GStreamer's range offsets.
struct YuvValue {
  double y;
  double u;
  double v;
};

YuvValue RgbToYuv(const Params& params, double r, double g, double b, int depth = 8);

// Round half up, then clamp to 0..255 (or 0..2^depth-1).
uint8_t Quantize(double value);
uint16_t Quantize(double value, int depth);

// The RGB colour a chroma sample is computed from: the siting's filter applied to R, G and B of
// the pixels it covers, with missing columns/rows (odd sizes, left edge) replicated from the
// nearest existing one. w_sub/h_sub are the format's log2 subsampling factors.
Rgba FilteredChromaSource(const RgbView& image, int chroma_x, int chroma_y, int w_sub, int h_sub,
                          ChromaSiting siting);

// The expected output samples of `image` converted to `output_format`.
vktest::YuvPlanes Convert(const RgbView& image, GstVideoFormat output_format, const Params& params);

// The expected output buffer content laid out as `output_info` describes (bytes that hold no
// sample are zero), for plane-by-plane use.
std::vector<uint8_t> ConvertToLayout(const RgbView& image, const GstVideoInfo& output_info,
                                     const Params& params);

}  // namespace rgb2yuv_ref
