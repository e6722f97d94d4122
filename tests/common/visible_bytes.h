// The bytes of a video frame that hold samples, whatever its strides and padding: for comparing
// frames of the same format that came through different paths.
#pragma once

#include <gst/video/video.h>

#include <string>

namespace vktest {

// Each plane's rows in order, each row as wide as the plane's widest component (a YUY2 row of odd
// width ends with a whole macro-pixel). `buffer` is laid out as `info` or its GstVideoMeta.
std::string VisibleBytes(const GstVideoInfo& info, GstBuffer* buffer);

}  // namespace vktest
