#include "rgb_layout.h"

namespace reference {
namespace {

// Written out by hand from the format names rather than taken from GstVideoFormatInfo, so that
// the references do not share a possible mistake with code that reads the format table (a
// wrong table in either place cannot hide the other).
constexpr RgbLayout kRgbLayouts[] = {
    {GST_VIDEO_FORMAT_RGB, 3, 0, 1, 2, -1},  {GST_VIDEO_FORMAT_BGR, 3, 2, 1, 0, -1},
    {GST_VIDEO_FORMAT_RGBA, 4, 0, 1, 2, 3},  {GST_VIDEO_FORMAT_BGRA, 4, 2, 1, 0, 3},
    {GST_VIDEO_FORMAT_ARGB, 4, 1, 2, 3, 0},  {GST_VIDEO_FORMAT_ABGR, 4, 3, 2, 1, 0},
    {GST_VIDEO_FORMAT_RGBx, 4, 0, 1, 2, -1}, {GST_VIDEO_FORMAT_BGRx, 4, 2, 1, 0, -1},
    {GST_VIDEO_FORMAT_xRGB, 4, 1, 2, 3, -1}, {GST_VIDEO_FORMAT_xBGR, 4, 3, 2, 1, -1},
};

}  // namespace

const RgbLayout* FindRgbLayout(GstVideoFormat format) {
  for (const RgbLayout& layout : kRgbLayouts) {
    if (layout.format == format) return &layout;
  }
  return nullptr;
}

}  // namespace reference
