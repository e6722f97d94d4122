#include "histogram_ref.h"

#include <algorithm>
#include <cmath>

#include "reference/deep_layout.h"
#include "reference/rgb_layout.h"

namespace histogram_ref {
namespace {

using reference::kOne;

// Where the chroma samples of a Y-plane format live, written out by hand from the format
// definitions (not read from GstVideoFormatInfo, so that a mistake there cannot hide here).
struct ChromaLayout {
  GstVideoFormat format;
  bool has_chroma;
  int sx;  // horizontal and vertical subsampling
  int sy;
  int u_plane;
  int v_plane;
  int pixel_stride;  // bytes from one chroma sample to the next in its plane
  int u_offset;      // byte of U (and V) inside one chroma sample
  int v_offset;
};

constexpr ChromaLayout kChromaLayouts[] = {
    {GST_VIDEO_FORMAT_GRAY8, false, 1, 1, 0, 0, 0, 0, 0},
    {GST_VIDEO_FORMAT_I420, true, 2, 2, 1, 2, 1, 0, 0},
    {GST_VIDEO_FORMAT_NV12, true, 2, 2, 1, 1, 2, 0, 1},  // one plane of U, V pairs
    {GST_VIDEO_FORMAT_Y444, true, 1, 1, 1, 2, 1, 0, 0},
};

using reference::DeepComponent;
using reference::DeepLayout;
using reference::FindDeepLayout;

const ChromaLayout* FindChromaLayout(GstVideoFormat format) {
  for (const ChromaLayout& layout : kChromaLayouts) {
    if (layout.format == format) return &layout;
  }
  return nullptr;
}

// The histogram of `channel` in `result`, which must have one.
ChannelHistogram& Of(Result& result, Channel channel) {
  for (ChannelHistogram& histogram : result.channels) {
    if (histogram.channel == channel) return histogram;
  }
  g_assert_not_reached();
  return result.channels.front();
}

void Count(ChannelHistogram& histogram, uint8_t value, guint bins) {
  ++histogram.counts[BinOf(value, bins)];
  ++histogram.samples;
}

const uint8_t* Row(const FrameView& view, int plane, int y) {
  return view.planes[plane] + static_cast<ptrdiff_t>(y) * view.strides[plane];
}

void CountRgb(const FrameView& view, const reference::RgbLayout& layout, const reference::Rect& rect,
              const reference::Weights& weights, Result& result) {
  ChannelHistogram& red = Of(result, Channel::kRed);
  ChannelHistogram& green = Of(result, Channel::kGreen);
  ChannelHistogram& blue = Of(result, Channel::kBlue);
  ChannelHistogram& luma = Of(result, Channel::kLuma);
  ChannelHistogram* alpha = layout.a >= 0 ? &Of(result, Channel::kAlpha) : nullptr;
  const guint bins = result.bins;
  for (int y = rect.y0; y < rect.y1; ++y) {
    for (int x = rect.x0; x < rect.x1; ++x) {
      const uint8_t* pixel = Row(view, 0, y) + static_cast<ptrdiff_t>(x) * layout.bytes_per_pixel;
      Count(red, pixel[layout.r], bins);
      Count(green, pixel[layout.g], bins);
      Count(blue, pixel[layout.b], bins);
      Count(luma, RgbLuma(weights, pixel[layout.r], pixel[layout.g], pixel[layout.b]), bins);
      if (alpha != nullptr) Count(*alpha, pixel[layout.a], bins);
    }
  }
}

uint32_t DeepValue(const FrameView& view, const DeepComponent& c, int x, int y) {
  return reference::DeepSample(view.planes[c.plane], view.strides[c.plane], c, x, y);
}

void CountDeep(const FrameView& view, const DeepLayout& layout, const reference::Rect& rect,
               const reference::Weights& weights, Result& result) {
  const guint bins = result.bins;
  auto count = [&](Channel channel, uint32_t value, int depth) {
    ChannelHistogram& histogram = Of(result, channel);
    ++histogram.counts[BinOf(value, depth, bins)];
    ++histogram.samples;
  };
  if (layout.rgb) {
    for (int y = rect.y0; y < rect.y1; ++y) {
      for (int x = rect.x0; x < rect.x1; ++x) {
        const uint32_t r = DeepValue(view, layout.c[0], x, y), g = DeepValue(view, layout.c[1], x, y),
                       b = DeepValue(view, layout.c[2], x, y);
        count(Channel::kRed, r, layout.c[0].depth);
        count(Channel::kGreen, g, layout.c[1].depth);
        count(Channel::kBlue, b, layout.c[2].depth);
        // Luma at R's depth, rounded half up as at 8 bits.
        const int64_t sum = weights.kr * r + weights.kg * g + weights.kb * b;
        count(Channel::kLuma, uint32_t((sum + kOne / 2) >> 16), layout.c[0].depth);
        count(Channel::kAlpha, DeepValue(view, layout.c[3], x, y), layout.c[3].depth);
      }
    }
    return;
  }
  const Channel channels[] = {Channel::kLuma, Channel::kU, Channel::kV};
  for (int i = 0; i < layout.components; ++i) {
    const reference::Rect area = i == 0 ? rect : ChromaRect(rect, layout.sx, layout.sy);
    for (int y = area.y0; y < area.y1; ++y) {
      for (int x = area.x0; x < area.x1; ++x)
        count(channels[i], DeepValue(view, layout.c[i], x, y), layout.c[i].depth);
    }
  }
}

void CountYuv(const FrameView& view, const ChromaLayout& layout, const reference::Rect& rect,
              Result& result) {
  ChannelHistogram& luma = Of(result, Channel::kLuma);
  for (int y = rect.y0; y < rect.y1; ++y) {
    for (int x = rect.x0; x < rect.x1; ++x) Count(luma, Row(view, 0, y)[x], result.bins);
  }
  if (!layout.has_chroma) return;
  ChannelHistogram& u = Of(result, Channel::kU);
  ChannelHistogram& v = Of(result, Channel::kV);
  const reference::Rect chroma = ChromaRect(rect, layout.sx, layout.sy);
  for (int y = chroma.y0; y < chroma.y1; ++y) {
    for (int x = chroma.x0; x < chroma.x1; ++x) {
      const ptrdiff_t at = static_cast<ptrdiff_t>(x) * layout.pixel_stride;
      Count(u, Row(view, layout.u_plane, y)[at + layout.u_offset], result.bins);
      Count(v, Row(view, layout.v_plane, y)[at + layout.v_offset], result.bins);
    }
  }
}

}  // namespace

uint8_t RgbLuma(const reference::Weights& weights, uint8_t r, uint8_t g, uint8_t b) {
  // At most 255 * 65536 + 32768, so the result fits 8 bits: weights are non-negative and sum
  // to 65536.
  const int64_t sum = weights.kr * r + weights.kg * g + weights.kb * b;
  return static_cast<uint8_t>((sum + kOne / 2) >> 16);
}

guint BinOf(uint8_t value, guint bins) {
  return BinOf(value, 8, bins);
}

guint BinOf(uint32_t value, int depth, guint bins) {
  g_assert(bins >= 1 && bins <= 65536 && value < (1u << depth));
  return guint(uint64_t(value) * bins >> depth);
}

bool IsRgb(GstVideoFormat format) {
  return reference::FindRgbLayout(format) != nullptr;
}

bool IsSupported(GstVideoFormat format) {
  return IsRgb(format) || FindChromaLayout(format) != nullptr || FindDeepLayout(format) != nullptr;
}

bool IsDeep(GstVideoFormat format) {
  return FindDeepLayout(format) != nullptr;
}

const char* FieldName(Channel channel) {
  switch (channel) {
    case Channel::kRed: return "red";
    case Channel::kGreen: return "green";
    case Channel::kBlue: return "blue";
    case Channel::kLuma: return "luma";
    case Channel::kAlpha: return "alpha";
    case Channel::kU: return "u";
    case Channel::kV: return "v";
  }
  return "?";
}

std::vector<Channel> ChannelsOf(GstVideoFormat format) {
  if (const reference::RgbLayout* layout = reference::FindRgbLayout(format)) {
    std::vector<Channel> channels = {Channel::kRed, Channel::kGreen, Channel::kBlue, Channel::kLuma};
    if (layout->a >= 0) channels.push_back(Channel::kAlpha);
    return channels;
  }
  if (const DeepLayout* deep = FindDeepLayout(format)) {
    if (deep->rgb) return {Channel::kRed, Channel::kGreen, Channel::kBlue, Channel::kLuma, Channel::kAlpha};
    if (deep->components == 1) return {Channel::kLuma};
    return {Channel::kLuma, Channel::kU, Channel::kV};
  }
  const ChromaLayout* layout = FindChromaLayout(format);
  g_assert(layout != nullptr);
  if (!layout->has_chroma) return {Channel::kLuma};
  return {Channel::kLuma, Channel::kU, Channel::kV};
}

reference::Rect ChromaRect(const reference::Rect& luma, int sx, int sy) {
  return reference::Rect{luma.x0 / sx, luma.y0 / sy, (luma.x1 + sx - 1) / sx, (luma.y1 + sy - 1) / sy};
}

const ChannelHistogram* Result::Find(Channel channel) const {
  for (const ChannelHistogram& histogram : channels) {
    if (histogram.channel == channel) return &histogram;
  }
  return nullptr;
}

std::optional<Result> Analyze(const FrameView& view, const Params& params) {
  g_assert(IsSupported(view.format));
  const reference::Rect rect = reference::ClampRoi(params.roi, view.width, view.height);
  if (rect.Empty()) return std::nullopt;

  Result result;
  result.bins = params.bins;
  result.pixels = rect.Area();
  for (Channel channel : ChannelsOf(view.format)) {
    result.channels.push_back(ChannelHistogram{channel, 0, std::vector<guint64>(params.bins, 0)});
  }
  if (const DeepLayout* deep = FindDeepLayout(view.format)) {
    CountDeep(view, *deep, rect, reference::WeightsOf(params.matrix), result);
  } else if (const reference::RgbLayout* layout = reference::FindRgbLayout(view.format)) {
    CountRgb(view, *layout, rect, reference::WeightsOf(params.matrix), result);
  } else {
    CountYuv(view, *FindChromaLayout(view.format), rect, result);
  }
  return result;
}

}  // namespace histogram_ref
