#include "rgb2yuv_ref.h"

#include <glib.h>

#include <algorithm>
#include <cmath>

#include "reference/deep_layout.h"

namespace rgb2yuv_ref {
namespace {

struct Tap {
  int offset;
  double weight;
};

// Luma columns (relative to 2c) and weights making chroma column c.
std::vector<Tap> HorizontalTaps(int w_sub, ChromaSiting siting) {
  if (w_sub == 0) return {{0, 1.0}};
  if (siting == ChromaSiting::kHorizontallyCosited) return {{-1, 0.25}, {0, 0.5}, {1, 0.25}};
  return {{0, 0.5}, {1, 0.5}};
}

// Vertically both sitings take the plain average of the two rows.
std::vector<Tap> VerticalTaps(int h_sub) {
  if (h_sub == 0) return {{0, 1.0}};
  return {{0, 0.5}, {1, 0.5}};
}

}  // namespace

const reference::RgbLayout& LayoutOf(GstVideoFormat format) {
  const reference::RgbLayout* layout = reference::FindRgbLayout(format);
  if (layout == nullptr) g_error("%s is not an input format of rgb2yuv", gst_video_format_to_string(format));
  return *layout;
}

int BytesPerPixel(GstVideoFormat format) {
  if (const reference::DeepLayout* deep = reference::FindDeepLayout(format)) {
    g_assert(deep->rgb);
    return deep->c[0].pixel_stride;
  }
  return LayoutOf(format).bytes_per_pixel;
}

Rgba ReadPixel(const RgbView& image, int x, int y) {
  if (const reference::DeepLayout* deep = reference::FindDeepLayout(image.format)) {
    double v[4];
    for (int c = 0; c < 4; ++c) {
      const reference::DeepComponent& at = deep->c[c];
      v[c] = reference::DeepSample(image.data, image.stride, at, x, y) * 255.0 / double((1u << at.depth) - 1);
    }
    return Rgba{v[0], v[1], v[2], v[3]};
  }
  const reference::RgbLayout& layout = LayoutOf(image.format);
  const uint8_t* pixel = image.data + static_cast<size_t>(y) * image.stride + x * layout.bytes_per_pixel;
  return Rgba{static_cast<double>(pixel[layout.r]), static_cast<double>(pixel[layout.g]),
              static_cast<double>(pixel[layout.b]),
              layout.a < 0 ? 255.0 : static_cast<double>(pixel[layout.a])};
}

Params MakeParams(GstVideoColorMatrix matrix, GstVideoColorRange range, ChromaSiting siting) {
  Params params{0.0, 0.0, range == GST_VIDEO_COLOR_RANGE_0_255, siting};
  switch (matrix) {
    case GST_VIDEO_COLOR_MATRIX_BT601:
      params.kr = 0.299;
      params.kb = 0.114;
      break;
    case GST_VIDEO_COLOR_MATRIX_BT709:
      params.kr = 0.2126;
      params.kb = 0.0722;
      break;
    case GST_VIDEO_COLOR_MATRIX_BT2020:
      params.kr = 0.2627;
      params.kb = 0.0593;
      break;
    default: g_error("colour matrix %d is not supported by rgb2yuv", static_cast<int>(matrix));
  }
  return params;
}

Params ParamsFromVideoInfo(const GstVideoInfo& output_info) {
  const ChromaSiting siting = output_info.chroma_site == GST_VIDEO_CHROMA_SITE_MPEG2
                                  ? ChromaSiting::kHorizontallyCosited
                                  : ChromaSiting::kCentered;
  return MakeParams(output_info.colorimetry.matrix, output_info.colorimetry.range, siting);
}

YuvValue RgbToYuv(const Params& params, double r, double g, double b, int depth) {
  const double kg = 1.0 - params.kr - params.kb;
  const double rn = r / 255.0;
  const double gn = g / 255.0;
  const double bn = b / 255.0;
  const double luma = params.kr * rn + kg * gn + params.kb * bn;
  const double pb = (bn - luma) / (2.0 * (1.0 - params.kb));
  const double pr = (rn - luma) / (2.0 * (1.0 - params.kr));
  const double top = std::ldexp(1.0, depth) - 1.0, unit = std::ldexp(1.0, depth - 8);
  if (params.full_range) return YuvValue{top * luma, 128.0 * unit + top * pb, 128.0 * unit + top * pr};
  return YuvValue{unit * (16.0 + 219.0 * luma), unit * (128.0 + 224.0 * pb), unit * (128.0 + 224.0 * pr)};
}

uint8_t Quantize(double value) {
  return static_cast<uint8_t>(Quantize(value, 8));
}

uint16_t Quantize(double value, int depth) {
  return static_cast<uint16_t>(std::clamp(std::floor(value + 0.5), 0.0, std::ldexp(1.0, depth) - 1.0));
}

Rgba FilteredChromaSource(const RgbView& image, int chroma_x, int chroma_y, int w_sub, int h_sub,
                          ChromaSiting siting) {
  Rgba sum{0.0, 0.0, 0.0, 0.0};
  for (const Tap& vertical : VerticalTaps(h_sub)) {
    const int y = std::clamp((chroma_y << h_sub) + vertical.offset, 0, image.height - 1);
    for (const Tap& horizontal : HorizontalTaps(w_sub, siting)) {
      const int x = std::clamp((chroma_x << w_sub) + horizontal.offset, 0, image.width - 1);
      const Rgba pixel = ReadPixel(image, x, y);
      const double weight = vertical.weight * horizontal.weight;
      sum.r += weight * pixel.r;
      sum.g += weight * pixel.g;
      sum.b += weight * pixel.b;
      sum.a += weight * pixel.a;
    }
  }
  return sum;
}

vktest::YuvPlanes Convert(const RgbView& image, GstVideoFormat output_format, const Params& params) {
  vktest::YuvPlanes planes = vktest::MakeYuvPlanes(output_format, image.width, image.height);
  const GstVideoFormatInfo* finfo = gst_video_format_get_info(output_format);

  // Luma (and alpha) are never subsampled: one output sample per input pixel.
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const Rgba pixel = ReadPixel(image, x, y);
      planes.At(GST_VIDEO_COMP_Y, x, y) =
          Quantize(RgbToYuv(params, pixel.r, pixel.g, pixel.b, planes.depth).y, planes.depth);
      if (planes.n_components == 4) planes.At(GST_VIDEO_COMP_A, x, y) = Quantize(pixel.a);
    }
  }

  // Chroma is filtered in RGB and converted afterwards.
  const int w_sub = GST_VIDEO_FORMAT_INFO_W_SUB(finfo, GST_VIDEO_COMP_U);
  const int h_sub = GST_VIDEO_FORMAT_INFO_H_SUB(finfo, GST_VIDEO_COMP_U);
  for (int cy = 0; cy < planes.ComponentHeight(GST_VIDEO_COMP_U); ++cy) {
    for (int cx = 0; cx < planes.ComponentWidth(GST_VIDEO_COMP_U); ++cx) {
      const Rgba source = FilteredChromaSource(image, cx, cy, w_sub, h_sub, params.siting);
      const YuvValue value = RgbToYuv(params, source.r, source.g, source.b, planes.depth);
      planes.At(GST_VIDEO_COMP_U, cx, cy) = Quantize(value.u, planes.depth);
      planes.At(GST_VIDEO_COMP_V, cx, cy) = Quantize(value.v, planes.depth);
    }
  }
  return planes;
}

std::vector<uint8_t> ConvertToLayout(const RgbView& image, const GstVideoInfo& output_info,
                                     const Params& params) {
  g_assert(GST_VIDEO_INFO_WIDTH(&output_info) == image.width &&
           GST_VIDEO_INFO_HEIGHT(&output_info) == image.height);
  std::vector<uint8_t> bytes(GST_VIDEO_INFO_SIZE(&output_info), 0);
  vktest::WriteToLayout(Convert(image, GST_VIDEO_INFO_FORMAT(&output_info), params), output_info,
                        bytes.data());
  return bytes;
}

}  // namespace rgb2yuv_ref
