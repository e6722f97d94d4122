// The formats the analysis elements (lumamax, histogram) are specified for, shared by their test
// files.
#pragma once

#include <gst/video/video.h>

#include "common/packed_rgb_formats.h"

namespace analysis_test {

inline constexpr auto kFormats = vktest::JoinFormats(
    vktest::kPackedRgbFormats,
    {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_Y444});

// The formats deeper than 8 bits (lumamax and histogram): values at their own depth.
inline constexpr GstVideoFormat kDeepFormats[] = {GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_P010_10LE,
                                                  GST_VIDEO_FORMAT_P016_LE,   GST_VIDEO_FORMAT_I420_10LE,
                                                  GST_VIDEO_FORMAT_I420_12LE, GST_VIDEO_FORMAT_I422_10LE,
                                                  GST_VIDEO_FORMAT_Y444_10LE, GST_VIDEO_FORMAT_Y444_16LE,
                                                  GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_FORMAT_BGR10A2_LE};

}  // namespace analysis_test
