#include "analysis.hpp"

#include <cmath>
#include <mutex>

#include "analysis_layout.h"

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
  constexpr uint32_t one = 1u << vkc::shader::analysis::kLumaBits;
  c.kr = uint32_t(std::lround(kr * one));
  c.kb = uint32_t(std::lround(kb * one));
  c.kg = one - c.kr - c.kb;
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

const std::vector<Property<AnalysisSettings>>& analysis_properties() {
  using P = Properties<AnalysisSettings>;
  static const std::vector<Property<AnalysisSettings>> rows{
      P::boolean("post-messages", "Post messages", "Post an element message with the results of every frame",
                 TRUE, VKC_FIELD(post_messages)),
      P::boolean("attach-meta", "Attach meta",
                 "Attach the results of every frame to the frame, as a GstCustomMeta with the fields of the "
                 "message; each frame then leaves once its results are ready (about the GPU time later)",
                 FALSE, VKC_FIELD(attach_meta)),
      P::enumeration("matrix", "Matrix", "Luma coefficients for RGB input (YUV and GRAY8 use the Y plane)",
                     gst_vkcompute_luma_matrix_get_type, GST_VKCOMPUTE_LUMA_MATRIX_BT709, VKC_FIELD(matrix)),
      P::uint("roi-x", "ROI x", "Left edge of the region of interest, in pixels", 0, G_MAXINT, 0,
              VKC_FIELD(roi.x)),
      P::uint("roi-y", "ROI y", "Top edge of the region of interest, in pixels", 0, G_MAXINT, 0,
              VKC_FIELD(roi.y)),
      P::uint("roi-width", "ROI width",
              "Width of the region of interest in pixels; 0 = up to the right edge of the frame. "
              "A region reaching outside the frame is clipped; one with no pixel in it is an error",
              0, G_MAXINT, 0, VKC_FIELD(roi.width)),
      P::uint("roi-height", "ROI height",
              "Height of the region of interest in pixels; 0 = down to the bottom edge of the frame", 0,
              G_MAXINT, 0, VKC_FIELD(roi.height)),
  };
  return rows;
}

bool set_frame_region(const RegionOfInterest& roi, guint width, guint height, Frame& frame, GError** error) {
  std::string why;
  if (roi.clamp(width, height, frame.x0, frame.y0, frame.x1, frame.y1, why)) return true;
  g_set_error(error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS, "Invalid region of interest: %s.",
              why.c_str());
  return false;
}

GstStructure* new_frame_structure(const char* name, GstBuffer* buffer, const GstSegment& segment) {
  GstClockTime timestamp = GST_BUFFER_PTS(buffer);
  // A segment in another format (appsrc's default is bytes) places no timestamp: both times are
  // GST_CLOCK_TIME_NONE, where the conversions would fail an assertion for every frame.
  const bool timed = segment.format == GST_FORMAT_TIME;
  GstClockTime stream_time =
      timed ? gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, timestamp) : GST_CLOCK_TIME_NONE;
  GstClockTime running_time =
      timed ? gst_segment_to_running_time(&segment, GST_FORMAT_TIME, timestamp) : GST_CLOCK_TIME_NONE;
  return gst_structure_new(name, "timestamp", G_TYPE_UINT64, timestamp, "stream-time", G_TYPE_UINT64,
                           stream_time, "running-time", G_TYPE_UINT64, running_time, "duration",
                           G_TYPE_UINT64, GST_BUFFER_DURATION(buffer), nullptr);
}

void add_results_meta(GstBuffer* buffer, const char* name, const GstStructure* fields) {
  // gst_meta_register_custom() refuses a name registered before; the registry is per process.
  static std::mutex lock;
  {
    std::lock_guard<std::mutex> guard(lock);
    if (!gst_meta_get_info(name)) {
      static const gchar* no_tags[] = {nullptr};
      gst_meta_register_custom(name, no_tags, nullptr, nullptr, nullptr);
    }
  }
  GstCustomMeta* meta = gst_buffer_add_custom_meta(buffer, name);
  GstStructure* into = gst_custom_meta_get_structure(meta);
  gst_structure_foreach(
      fields,
      [](GQuark field, const GValue* value, gpointer data) -> gboolean {
        gst_structure_id_set_value(static_cast<GstStructure*>(data), field, value);
        return TRUE;
      },
      into);
}

GstBuffer* attach_results(const AnalysisSettings& settings, Frame& frame, const GstStructure* results,
                          const char* meta_name) {
  if (!settings.attach_meta || !frame.outbuf) return nullptr;
  frame.outbuf = gst_buffer_make_writable(frame.outbuf);
  add_results_meta(frame.outbuf, meta_name, results);
  return frame.outbuf;
}

void post_results(GstElement* element, const AnalysisSettings& settings, GstStructure* results) {
  if (settings.post_messages)
    gst_element_post_message(element, gst_message_new_element(GST_OBJECT(element), results));
  else
    gst_structure_free(results);
}

}  // namespace vkc
