// The formats the analysis elements (lumamax, histogram) are specified for, shared by their test
// files.
#pragma once

#include <gst/video/video.h>

#include "common/packed_rgb_formats.h"

namespace analysis_test {

inline constexpr auto kFormats = vktest::JoinFormats(
    vktest::kPackedRgbFormats,
    {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_Y444});

}  // namespace analysis_test
