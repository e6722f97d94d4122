// The formats every element takes: packed RGB of 3 and 4 bytes a pixel, in every byte order
// GStreamer names (rgb2yuv's and lut's inputs, and part of what the others take); and the joining
// of format lists, so that an element's list names this family rather than copying it.
#pragma once

#include <gst/video/video.h>

#include <array>
#include <cstddef>

namespace vktest {

inline constexpr GstVideoFormat kPackedRgbFormats[] = {
    GST_VIDEO_FORMAT_RGB,  GST_VIDEO_FORMAT_BGR,  GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRA,
    GST_VIDEO_FORMAT_ARGB, GST_VIDEO_FORMAT_ABGR, GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx,
    GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_xBGR,
};

// The lists one after the other, at compile time: JoinFormats({GST_VIDEO_FORMAT_GRAY8},
// kPackedRgbFormats).
template <size_t... N>
constexpr std::array<GstVideoFormat, (N + ...)> JoinFormats(const GstVideoFormat (&... lists)[N]) {
  std::array<GstVideoFormat, (N + ...)> joined{};
  size_t at = 0;
  auto append = [&](const auto& list) {
    for (GstVideoFormat format : list) joined[at++] = format;
  };
  (append(lists), ...);
  return joined;
}

}  // namespace vktest
