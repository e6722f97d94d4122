#include "yuv_planes.h"

#include <glib.h>

#include <algorithm>
#include <cstdlib>

#include "reference/deep_layout.h"

namespace vktest {
namespace {

const char* ComponentName(int component) {
  static const char* const kNames[] = {"Y", "U", "V", "A"};
  return kNames[component];
}

}  // namespace

int YuvPlanes::ComponentWidth(int component) const {
  const GstVideoFormatInfo* finfo = gst_video_format_get_info(format);
  return GST_VIDEO_FORMAT_INFO_SCALE_WIDTH(finfo, component, width);
}

int YuvPlanes::ComponentHeight(int component) const {
  const GstVideoFormatInfo* finfo = gst_video_format_get_info(format);
  return GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT(finfo, component, height);
}

uint16_t& YuvPlanes::At(int component, int x, int y) {
  return samples[component][static_cast<size_t>(y) * ComponentWidth(component) + x];
}

uint16_t YuvPlanes::At(int component, int x, int y) const {
  return samples[component][static_cast<size_t>(y) * ComponentWidth(component) + x];
}

YuvPlanes MakeYuvPlanes(GstVideoFormat format, int width, int height) {
  const GstVideoFormatInfo* finfo = gst_video_format_get_info(format);
  const reference::DeepLayout* deep = reference::FindDeepLayout(format);
  g_assert(GST_VIDEO_FORMAT_INFO_IS_YUV(finfo) && (GST_VIDEO_FORMAT_INFO_BITS(finfo) == 8 || deep));
  YuvPlanes planes;
  planes.format = format;
  planes.depth = deep ? deep->c[0].depth : 8;
  planes.width = width;
  planes.height = height;
  planes.n_components = GST_VIDEO_FORMAT_INFO_N_COMPONENTS(finfo);
  for (int c = 0; c < planes.n_components; ++c) {
    planes.samples[c].assign(static_cast<size_t>(planes.ComponentWidth(c)) * planes.ComponentHeight(c), 0);
  }
  return planes;
}

void WriteToLayout(const YuvPlanes& planes, const GstVideoInfo& info, uint8_t* data) {
  g_assert(GST_VIDEO_INFO_FORMAT(&info) == planes.format);
  const GstVideoFormatInfo* finfo = info.finfo;
  if (const reference::DeepLayout* deep = reference::FindDeepLayout(planes.format)) {
    for (int c = 0; c < planes.n_components; ++c) {
      const reference::DeepComponent& at = deep->c[c];
      for (int y = 0; y < planes.ComponentHeight(c); ++y) {
        for (int x = 0; x < planes.ComponentWidth(c); ++x)
          reference::StoreDeepSample(data + info.offset[at.plane], info.stride[at.plane], at, x, y,
                                     planes.At(c, x, y));
      }
    }
    return;
  }
  for (int c = 0; c < planes.n_components; ++c) {
    const int plane = static_cast<int>(GST_VIDEO_FORMAT_INFO_PLANE(finfo, c));
    const int pixel_stride = GST_VIDEO_FORMAT_INFO_PSTRIDE(finfo, c);
    uint8_t* origin = data + info.offset[plane] + GST_VIDEO_FORMAT_INFO_POFFSET(finfo, c);
    for (int y = 0; y < planes.ComponentHeight(c); ++y) {
      uint8_t* row = origin + static_cast<size_t>(y) * info.stride[plane];
      for (int x = 0; x < planes.ComponentWidth(c); ++x) row[x * pixel_stride] = uint8_t(planes.At(c, x, y));
    }
  }
}

YuvPlanes ReadFromFrame(const GstVideoFrame& frame) {
  YuvPlanes planes = MakeYuvPlanes(GST_VIDEO_FRAME_FORMAT(&frame), GST_VIDEO_FRAME_WIDTH(&frame),
                                   GST_VIDEO_FRAME_HEIGHT(&frame));
  if (const reference::DeepLayout* deep = reference::FindDeepLayout(planes.format)) {
    for (int c = 0; c < planes.n_components; ++c) {
      const reference::DeepComponent& at = deep->c[c];
      const uint8_t* plane = static_cast<const uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, at.plane));
      const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, at.plane);
      for (int y = 0; y < planes.ComponentHeight(c); ++y) {
        for (int x = 0; x < planes.ComponentWidth(c); ++x)
          planes.At(c, x, y) = reference::DeepSample(plane, stride, at, x, y);
      }
    }
    return planes;
  }
  for (int c = 0; c < planes.n_components; ++c) {
    const uint8_t* origin = static_cast<const uint8_t*>(GST_VIDEO_FRAME_COMP_DATA(&frame, c));
    const int stride = GST_VIDEO_FRAME_COMP_STRIDE(&frame, c);
    const int pixel_stride = GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, c);
    for (int y = 0; y < planes.ComponentHeight(c); ++y) {
      const uint8_t* row = origin + static_cast<ptrdiff_t>(y) * stride;
      for (int x = 0; x < planes.ComponentWidth(c); ++x) planes.At(c, x, y) = row[x * pixel_stride];
    }
  }
  return planes;
}

std::optional<SampleMismatch> FindMismatch(const YuvPlanes& got, const YuvPlanes& expected, int tolerance) {
  g_assert(got.format == expected.format && got.width == expected.width && got.height == expected.height);
  const GstVideoFormatInfo* finfo = gst_video_format_get_info(got.format);
  for (int c = 0; c < got.n_components; ++c) {
    for (int y = 0; y < got.ComponentHeight(c); ++y) {
      for (int x = 0; x < got.ComponentWidth(c); ++x) {
        const int a = got.At(c, x, y);
        const int b = expected.At(c, x, y);
        if (std::abs(a - b) > tolerance) {
          return SampleMismatch{c, static_cast<int>(GST_VIDEO_FORMAT_INFO_PLANE(finfo, c)), x, y, a, b};
        }
      }
    }
  }
  return std::nullopt;
}

int MaxDifference(const YuvPlanes& got, const YuvPlanes& expected) {
  int worst = 0;
  for (int c = 0; c < got.n_components; ++c) {
    for (size_t i = 0; i < got.samples[c].size(); ++i) {
      worst = std::max(worst, std::abs(int(got.samples[c][i]) - int(expected.samples[c][i])));
    }
  }
  return worst;
}

std::string Describe(const SampleMismatch& mismatch) {
  gchar* text = g_strdup_printf("%s sample (plane %d) at x=%d y=%d: got %d, expected %d",
                                ComponentName(mismatch.component), mismatch.plane, mismatch.x, mismatch.y,
                                mismatch.got, mismatch.expected);
  std::string result(text);
  g_free(text);
  return result;
}

}  // namespace vktest
