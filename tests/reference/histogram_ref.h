// CPU reference of the histogram analysis, written from the element's specification (not from
// its implementation): per-channel counts of 8-bit values in `bins` bins over a clamped region
// of interest, RGB luma in integer arithmetic rounded half up, chroma counted at chroma
// resolution over every chroma sample that covers a pixel of the region.
#pragma once

#include <gst/video/video.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "reference/luma_roi.h"

namespace histogram_ref {

// (kr*R + kg*G + kb*B + 32768) >> 16: the weighted sum rounded half up, 0..255.
uint8_t RgbLuma(const reference::Weights& weights, uint8_t r, uint8_t g, uint8_t b);

// The bin of an 8-bit value: value * bins / 256 (integer division), for bins 1..256.
guint BinOf(uint8_t value, guint bins);
// The bin of a `depth`-bit code value: value * bins / 2^depth.
guint BinOf(uint32_t value, int depth, guint bins);

// The formats histogram is specified for (RGB, BGR, the 4-byte RGB family, GRAY8, I420, NV12,
// Y444).
bool IsSupported(GstVideoFormat format);
bool IsRgb(GstVideoFormat format);
// The formats deeper than 8 bits: GRAY16_LE, P010_10LE, P016_LE, I420_10LE, I420_12LE, I422_10LE,
// Y444_10LE, Y444_16LE, RGBA64_LE, BGR10A2_LE (code values counted at their own depth; RGB luma
// at R's depth).
bool IsDeep(GstVideoFormat format);

// The histograms a message carries, each in a field named after it.
enum class Channel { kRed, kGreen, kBlue, kLuma, kAlpha, kU, kV };
inline constexpr Channel kAllChannels[] = {Channel::kRed,   Channel::kGreen, Channel::kBlue, Channel::kLuma,
                                           Channel::kAlpha, Channel::kU,     Channel::kV};

// "red", "green", "blue", "luma", "alpha", "u", "v".
const char* FieldName(Channel channel);

// The channels of `format`, in the order of kAllChannels: red, green, blue, luma (+ alpha for
// RGBA, BGRA, ARGB, ABGR); luma for GRAY8; luma, u, v for I420, NV12 and Y444.
std::vector<Channel> ChannelsOf(GstVideoFormat format);

// A frame's planes wherever they are: plane p's row y starts at planes[p] + y * strides[p].
// Plane order is GStreamer's for each format (I420: Y, U, V; NV12: Y, interleaved UV; Y444: Y,
// U, V); unused entries are ignored.
struct FrameView {
  GstVideoFormat format;
  int width;
  int height;
  const uint8_t* planes[3];
  int strides[3];  // any value, not only multiples of 4
};

// The chroma samples of a plane subsampled by sx, sy that cover at least one pixel of `luma`:
// [x0 / sx, ceil(x1 / sx)) x [y0 / sy, ceil(y1 / sy)).
reference::Rect ChromaRect(const reference::Rect& luma, int sx, int sy);

// Everything that changes the analysis.
struct Params {
  reference::Matrix matrix = reference::Matrix::kBt709;
  guint bins = 256;
  reference::Roi roi;
};

struct ChannelHistogram {
  Channel channel;
  guint64 samples;              // how many values were counted: pixels, or chroma samples
  std::vector<guint64> counts;  // `bins` entries
};

struct Result {
  guint bins;
  guint64 pixels;                          // ROI pixels at luma resolution
  std::vector<ChannelHistogram> channels;  // ChannelsOf(format), in that order
  const ChannelHistogram* Find(Channel channel) const;
};

// The analysis of `view` with `params`; nullopt when the clamped ROI is empty.
std::optional<Result> Analyze(const FrameView& view, const Params& params);

}  // namespace histogram_ref
