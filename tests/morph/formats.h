// The formats morph is specified for.
#pragma once

#include <gst/video/video.h>

#include "common/packed_rgb_formats.h"

namespace morph_test {

inline constexpr auto kFormats =
    vktest::JoinFormats({GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE}, vktest::kPackedRgbFormats,
                        {GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_Y444},
                        // Deeper YUV: the Y plane filtered as 16-bit words, as GRAY16_LE.
                        {GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_P016_LE, GST_VIDEO_FORMAT_I420_10LE,
                         GST_VIDEO_FORMAT_I420_12LE, GST_VIDEO_FORMAT_I422_10LE, GST_VIDEO_FORMAT_Y444_10LE,
                         GST_VIDEO_FORMAT_Y444_16LE},
                        // Deeper RGB: 16-bit R, G, B (two passes of a word each), 10-bit fields of a word.
                        {GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_FORMAT_BGR10A2_LE});

}  // namespace morph_test
