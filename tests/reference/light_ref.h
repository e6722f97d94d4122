// CPU reference of lumamax's HDR light statistics, written from the standards (SMPTE ST 2084,
// ITU-R BT.2100, CTA-861.3) and the element's documentation, not from its implementation: each
// pixel's R'G'B' signal from its code values (YUV through the matrix, with the chroma sample that
// covers the pixel), clamped to 0..1, then its displayed light max(R, G, B) in cd/m².
#pragma once

#include <gst/video/video.h>

#include <cstdint>

#include "reference/luma_roi.h"

namespace light_ref {

enum class Transfer { kPq, kHlg };

// ST 2084's EOTF: cd/m² (0..10 000) of a signal in 0..1, and its inverse.
double PqEotf(double signal);
double PqInverseEotf(double light);

// BT.2100 HLG: scene light (0..1) of a signal in 0..1 (the inverse OETF).
double HlgSceneLight(double signal);

// The displayed light of a pixel of R'G'B' signal (each 0..1): PQ, the EOTF of the largest; HLG,
// scene light per channel then the OOTF of a 1 000 cd/m² display (system gamma 1.2):
// 1000 * Ys^0.2 * max(R, G, B), Ys = 0.2627 R + 0.6780 G + 0.0593 B.
double PixelLight(Transfer transfer, double r, double g, double b);

// What decides a frame's light: its format (a deep one of reference::FindDeepLayout), the range of
// its code values, its YUV matrix (Kr, Kb; ignored for RGB and gray) and transfer.
struct Params {
  GstVideoFormat format;
  bool full_range;
  double kr = 0.2627, kb = 0.0593;  // BT.2020
  Transfer transfer;
};

struct Light {
  double max = 0;      // largest pixel light, cd/m²
  double average = 0;  // mean pixel light, cd/m²
};

// The light of the pixels of `rect` of a frame laid out as `info` says in `data`.
Light Measure(const Params& params, const GstVideoInfo& info, const uint8_t* data,
              const reference::Rect& rect);

}  // namespace light_ref
