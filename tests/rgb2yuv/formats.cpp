#include "formats.h"

namespace rgb2yuv_test {

std::string ColorSetup::CapsString() const {
  // Transfer function and primaries do not influence the conversion; BT.709's are given so that
  // the string is a complete colorimetry (for the full-range setup "1:3:5:1").
  GstVideoColorimetry colorimetry = {};
  if (!gst_video_colorimetry_from_string(&colorimetry, label)) {
    colorimetry.transfer = GST_VIDEO_TRANSFER_BT709;
    colorimetry.primaries = GST_VIDEO_COLOR_PRIMARIES_BT709;
  }
  colorimetry.matrix = matrix;
  colorimetry.range = range;
  gchar* text = gst_video_colorimetry_to_string(&colorimetry);
  std::string result(text);
  g_free(text);
  return result;
}

}  // namespace rgb2yuv_test
