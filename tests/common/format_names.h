// How the tests name a video format, and a frame by its format and size, in test names (which
// seed their random data: vktest::RngFor) and in failure messages.
#pragma once

#include <gst/video/video.h>

#include <string>

namespace vktest {

// GStreamer's name of `format`: "RGBA".
inline const char* FormatName(GstVideoFormat format) {
  return gst_video_format_to_string(format);
}

// "RGBA 97x61".
inline std::string FormatAndSize(GstVideoFormat format, int width, int height) {
  return std::string(FormatName(format)) + " " + std::to_string(width) + "x" + std::to_string(height);
}

}  // namespace vktest
