#include "samples.hpp"

namespace vkc {
namespace {

struct DeepFormat {
  GstVideoFormat format;
  guint depth;
  guint shift;        // of every component but a packed alpha
  bool packed_rgb10;  // 10-bit R, G, B and 2-bit A in one 32-bit word
  guint red_shift;    // packed: where R starts, 0 (RGB10A2_LE) or 20 (BGR10A2_LE); B the other
};

constexpr DeepFormat kDeepFormats[] = {
    {GST_VIDEO_FORMAT_GRAY16_LE, 16, 0, false, 0}, {GST_VIDEO_FORMAT_P010_10LE, 10, 6, false, 0},
    {GST_VIDEO_FORMAT_P016_LE, 16, 0, false, 0},   {GST_VIDEO_FORMAT_I420_10LE, 10, 0, false, 0},
    {GST_VIDEO_FORMAT_I420_12LE, 12, 0, false, 0}, {GST_VIDEO_FORMAT_I422_10LE, 10, 0, false, 0},
    {GST_VIDEO_FORMAT_Y444_10LE, 10, 0, false, 0}, {GST_VIDEO_FORMAT_Y444_16LE, 16, 0, false, 0},
    {GST_VIDEO_FORMAT_RGBA64_LE, 16, 0, false, 0}, {GST_VIDEO_FORMAT_BGR10A2_LE, 10, 0, true, 20},
    {GST_VIDEO_FORMAT_RGB10A2_LE, 10, 0, true, 0},
};

const DeepFormat* find_deep(GstVideoFormat format) {
  for (const DeepFormat& deep : kDeepFormats)
    if (deep.format == format) return &deep;
  return nullptr;
}

}  // namespace

bool is_deep_format(GstVideoFormat format) {
  return find_deep(format) != nullptr;
}

SampleLayout sample_layout(GstVideoFormat format, guint component) {
  const GstVideoFormatInfo* finfo = gst_video_format_get_info(format);
  SampleLayout s;
  s.plane = GST_VIDEO_FORMAT_INFO_PLANE(finfo, component);
  s.pixel_stride = guint(GST_VIDEO_FORMAT_INFO_PSTRIDE(finfo, component));
  s.offset = GST_VIDEO_FORMAT_INFO_POFFSET(finfo, component);
  s.w_sub = GST_VIDEO_FORMAT_INFO_W_SUB(finfo, component);
  s.h_sub = GST_VIDEO_FORMAT_INFO_H_SUB(finfo, component);
  const DeepFormat* deep = find_deep(format);
  if (!deep) return s;  // 8 bits a byte, where GStreamer's table says
  s.depth = deep->depth;
  s.shift = deep->shift;
  s.bytes = 2;
  if (deep->packed_rgb10) {
    // One little-endian 32-bit word per pixel: R, G and B 10 bits each (G at bit 10, R and B at
    // bits 0 and 20 in the order of the name, lowest first from the right), A in the top 2 bits.
    s.bytes = 4;
    s.offset = 0;
    s.depth = component == 3 ? 2 : 10;
    const guint red = deep->red_shift, blue = 20 - red;
    s.shift = component == 0 ? red : component == 1 ? 10 : component == 2 ? blue : 30;
    return s;
  }
  // 16-bit words: a component's sample at twice its index in the word list of a pixel (RGBA64's
  // R, G, B, A; P010's and P016's U, V pairs).
  if (s.pixel_stride > 2) s.offset = 2 * (component - (s.plane == 0 ? 0 : 1));
  return s;
}

}  // namespace vkc
