// The formats and colour setups rgb2yuv is specified for, shared by its test files.
#pragma once

#include <gst/video/video.h>

#include <string>

#include "common/format_names.h"
#include "common/packed_rgb_formats.h"
#include "reference/rgb2yuv_ref.h"

namespace rgb2yuv_test {

// rgb2yuv takes every packed RGB format.
inline constexpr const auto& kInputFormats = vktest::kPackedRgbFormats;
inline constexpr int kNumInputFormats = G_N_ELEMENTS(kInputFormats);

inline constexpr GstVideoFormat kOutputFormats[] = {
    GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12,
    GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444,
    GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_AYUV,
};
inline constexpr int kNumOutputFormats = G_N_ELEMENTS(kOutputFormats);

// Deeper than 8 bits (tests/rgb2yuv/deep_tests.cpp): any input to any output, either side deep.
inline constexpr GstVideoFormat kDeepInputFormats[] = {
    GST_VIDEO_FORMAT_RGBA64_LE,
    GST_VIDEO_FORMAT_BGR10A2_LE,
    GST_VIDEO_FORMAT_RGB10A2_LE,
};
inline constexpr int kNumDeepInputFormats = G_N_ELEMENTS(kDeepInputFormats);
inline constexpr GstVideoFormat kDeepOutputFormats[] = {
    GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_P016_LE,   GST_VIDEO_FORMAT_I420_10LE,
    GST_VIDEO_FORMAT_I420_12LE, GST_VIDEO_FORMAT_I422_10LE, GST_VIDEO_FORMAT_Y444_10LE,
    GST_VIDEO_FORMAT_Y444_16LE,
};
inline constexpr int kNumDeepOutputFormats = G_N_ELEMENTS(kDeepOutputFormats);

// A colorimetry requested through the output caps, with what the reference needs of it.
struct ColorSetup {
  const char* label;
  GstVideoColorMatrix matrix;
  GstVideoColorRange range;
  std::string CapsString() const;  // the caps' "colorimetry" field
};

inline constexpr ColorSetup kColorSetups[] = {
    {"bt601", GST_VIDEO_COLOR_MATRIX_BT601, GST_VIDEO_COLOR_RANGE_16_235},
    {"bt709", GST_VIDEO_COLOR_MATRIX_BT709, GST_VIDEO_COLOR_RANGE_16_235},
    {"bt2020", GST_VIDEO_COLOR_MATRIX_BT2020, GST_VIDEO_COLOR_RANGE_16_235},
    {"bt709-full", GST_VIDEO_COLOR_MATRIX_BT709, GST_VIDEO_COLOR_RANGE_0_255},
};
inline constexpr int kNumColorSetups = G_N_ELEMENTS(kColorSetups);

struct SitingSetup {
  const char* chroma_site;  // the caps' "chroma-site" field
  rgb2yuv_ref::ChromaSiting siting;
};

inline constexpr SitingSetup kSitingSetups[] = {
    {"jpeg", rgb2yuv_ref::ChromaSiting::kCentered},
    {"mpeg2", rgb2yuv_ref::ChromaSiting::kHorizontallyCosited},
};
inline constexpr int kNumSitingSetups = G_N_ELEMENTS(kSitingSetups);

}  // namespace rgb2yuv_test
