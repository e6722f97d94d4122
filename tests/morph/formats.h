// The formats morph is specified for.
#pragma once

#include <gst/video/video.h>

namespace morph_test {

inline constexpr GstVideoFormat kFormats[] = {
    GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGB,  GST_VIDEO_FORMAT_BGR,
    GST_VIDEO_FORMAT_RGBA,  GST_VIDEO_FORMAT_BGRA,      GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR,
    GST_VIDEO_FORMAT_RGBx,  GST_VIDEO_FORMAT_BGRx,      GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR,
    GST_VIDEO_FORMAT_I420,  GST_VIDEO_FORMAT_NV12,      GST_VIDEO_FORMAT_Y444};
inline constexpr int kNumFormats = G_N_ELEMENTS(kFormats);

}  // namespace morph_test
