#include "analysis.hpp"

#include <cmath>

GType gst_vkcompute_luma_matrix_get_type(void) {
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_VKCOMPUTE_LUMA_MATRIX_BT601, "ITU-R BT.601 (Kr 0.299, Kb 0.114)", "bt601"},
      {GST_VKCOMPUTE_LUMA_MATRIX_BT709, "ITU-R BT.709 (Kr 0.2126, Kb 0.0722)", "bt709"},
      {GST_VKCOMPUTE_LUMA_MATRIX_BT2020, "ITU-R BT.2020 (Kr 0.2627, Kb 0.0593)", "bt2020"},
      {0, nullptr, nullptr},
  };
  if (g_once_init_enter(&type))
    g_once_init_leave(&type, g_enum_register_static("GstVkComputeLumaMatrix", values));
  return type;
}

namespace vkc {

LumaCoefficients luma_coefficients(GstVkComputeLumaMatrix matrix) {
  GstVideoColorMatrix gst_matrix = matrix == GST_VKCOMPUTE_LUMA_MATRIX_BT601 ? GST_VIDEO_COLOR_MATRIX_BT601
                                   : matrix == GST_VKCOMPUTE_LUMA_MATRIX_BT2020
                                       ? GST_VIDEO_COLOR_MATRIX_BT2020
                                       : GST_VIDEO_COLOR_MATRIX_BT709;
  gdouble kr, kb;
  gst_video_color_matrix_get_Kr_Kb(gst_matrix, &kr, &kb);
  LumaCoefficients c;
  c.kr = uint32_t(std::lround(kr * 65536.0));
  c.kb = uint32_t(std::lround(kb * 65536.0));
  c.kg = 65536u - c.kr - c.kb;
  return c;
}

bool RegionOfInterest::clamp(guint frame_width, guint frame_height, guint& x0, guint& y0, guint& x1,
                             guint& y1, std::string& error) const {
  x0 = MIN(x, frame_width);
  y0 = MIN(y, frame_height);
  x1 = width ? guint(MIN(guint64(x) + width, guint64(frame_width))) : frame_width;
  y1 = height ? guint(MIN(guint64(y) + height, guint64(frame_height))) : frame_height;
  if (x1 > x0 && y1 > y0) return true;
  error = "region of interest x=" + std::to_string(x) + " y=" + std::to_string(y) +
          " width=" + std::to_string(width) + " height=" + std::to_string(height) +
          " holds no pixel of the " + std::to_string(frame_width) + "x" + std::to_string(frame_height) +
          " frame";
  return false;
}

void install_roi_properties(GObjectClass* klass, guint first_id) {
  const auto flags = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  g_object_class_install_property(
      klass, first_id,
      g_param_spec_uint("roi-x", "ROI x", "Left edge of the region of interest, in pixels", 0, G_MAXINT, 0,
                        flags));
  g_object_class_install_property(
      klass, first_id + 1,
      g_param_spec_uint("roi-y", "ROI y", "Top edge of the region of interest, in pixels", 0, G_MAXINT, 0,
                        flags));
  g_object_class_install_property(
      klass, first_id + 2,
      g_param_spec_uint("roi-width", "ROI width",
                        "Width of the region of interest in pixels; 0 = up to the right edge of the frame. "
                        "A region reaching outside the frame is clipped; one with no pixel in it is an error",
                        0, G_MAXINT, 0, flags));
  g_object_class_install_property(
      klass, first_id + 3,
      g_param_spec_uint(
          "roi-height", "ROI height",
          "Height of the region of interest in pixels; 0 = down to the bottom edge of the frame", 0, G_MAXINT,
          0, flags));
}

bool set_roi_property(RegionOfInterest& roi, guint first_id, guint prop_id, const GValue* value) {
  guint* fields[] = {&roi.x, &roi.y, &roi.width, &roi.height};
  if (prop_id < first_id || prop_id >= first_id + 4) return false;
  *fields[prop_id - first_id] = g_value_get_uint(value);
  return true;
}

bool get_roi_property(const RegionOfInterest& roi, guint first_id, guint prop_id, GValue* value) {
  const guint fields[] = {roi.x, roi.y, roi.width, roi.height};
  if (prop_id < first_id || prop_id >= first_id + 4) return false;
  g_value_set_uint(value, fields[prop_id - first_id]);
  return true;
}

GstStructure* new_frame_structure(const char* name, GstBuffer* buffer, const GstSegment& segment) {
  GstClockTime timestamp = GST_BUFFER_PTS(buffer);
  GstClockTime stream_time = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, timestamp);
  GstClockTime running_time = gst_segment_to_running_time(&segment, GST_FORMAT_TIME, timestamp);
  return gst_structure_new(name, "timestamp", G_TYPE_UINT64, timestamp, "stream-time", G_TYPE_UINT64,
                           stream_time, "running-time", G_TYPE_UINT64, running_time, "duration",
                           G_TYPE_UINT64, GST_BUFFER_DURATION(buffer), nullptr);
}

}  // namespace vkc
