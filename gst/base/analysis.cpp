#include "analysis.hpp"

#include <cmath>
#include <mutex>
#include <utility>

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
      P::custom("regions", "Regions",
                "Regions to analyse instead of the roi-* one, each on its own, all in one pass: an array "
                "of up to 256 region structures with x, y, width and height in pixels (width or height 0 = "
                "up to the frame edge, as roi-*) and an optional id string, e.g. "
                "<\"region,x=0,y=0,width=64,height=64,id=a\",\"region,x=64,y=0,width=64,height=64\">. "
                "The results then go into a \"regions\" array, one entry per region, in this order",
                regions_param_spec, regions_from_value, regions_to_value, VKC_FIELD(regions))
          .refusing(regions_refused),
      P::boolean("regions-from-meta", "Regions from meta",
                 "Also analyse every GstVideoRegionOfInterestMeta of the incoming frame (of type roi-type "
                 "when set), after the regions of \"regions\", up to 256 in all; a frame with none gets an "
                 "empty \"regions\" array, a meta's region with no pixel in the frame an entry with "
                 "empty=true",
                 FALSE, VKC_FIELD(regions_from_meta)),
      P::string("roi-type", "ROI type",
                "With regions-from-meta, only the region-of-interest metas of this type (e.g. \"face\"); "
                "NULL = every type",
                nullptr, VKC_FIELD(roi_type)),
  };
  return rows;
}

namespace {

// The regions of the incoming frame's GstVideoRegionOfInterestMeta (of type `roi_type`, or all),
// after the `listed` ones, up to kMaxRegions in all.
void add_meta_regions(GstElement* element, GstBuffer* buffer, const std::string& roi_type,
                      std::vector<FrameRegion>& list) {
  const GQuark type = roi_type.empty() ? 0 : g_quark_from_string(roi_type.c_str());
  gpointer state = nullptr;
  guint skipped = 0;
  while (GstMeta* meta =
             gst_buffer_iterate_meta_filtered(buffer, &state, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) {
    auto* roi = reinterpret_cast<GstVideoRegionOfInterestMeta*>(meta);
    if (type && roi->roi_type != type) continue;
    if (list.size() == kMaxRegions) {
      ++skipped;
      continue;
    }
    FrameRegion region;
    // A meta's 0 width or height is an empty region, not "up to the edge" as a property's.
    region.asked = {roi->x, roi->y, roi->w, roi->h};
    region.from_meta = true;
    region.roi_id = roi->id;
    const char* roi_type = g_quark_to_string(roi->roi_type);  // NULL for a meta added without one
    region.roi_type = roi_type ? roi_type : "";
    list.push_back(region);
  }
  if (skipped)
    GST_WARNING_OBJECT(element, "%u region-of-interest metas beyond the first %u of the frame not analysed",
                       skipped, kMaxRegions);
}

}  // namespace

bool take_frame_regions(GstElement* element, const AnalysisSettings& settings, guint width, guint height,
                        Frame& frame, FrameRegions& regions, GError** error) {
  regions.listed = settings.regions_from_meta || !settings.regions.empty();
  regions.list.clear();
  std::string why;
  auto clamp = [&](FrameRegion& region) {
    if (region.asked.clamp(width, height, region.x0, region.y0, region.x1, region.y1, why)) return true;
    region.x0 = region.x1 = region.y0 = region.y1 = 0;
    return false;
  };
  if (!regions.listed) {
    FrameRegion& region = regions.list.emplace_back();
    region.asked = settings.roi;
    if (!clamp(region)) {
      g_set_error(error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS, "Invalid region of interest: %s.",
                  why.c_str());
      return false;
    }
  }
  for (guint i = 0; i < settings.regions.size(); ++i) {
    FrameRegion& region = regions.list.emplace_back();
    region.asked = settings.regions[i].rect;
    region.id = settings.regions[i].id;
    if (!clamp(region)) {
      g_set_error(error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS,
                  "Invalid region %u of \"regions\": %s.", i, why.c_str());
      return false;
    }
  }
  if (settings.regions_from_meta) {
    add_meta_regions(element, frame.inbuf, settings.roi_type, regions.list);
    // Empty when no pixel of it is in the frame, or its width or height is 0 (not "up to the
    // edge" as in a property).
    for (FrameRegion& region : regions.list)
      if (region.from_meta && region.asked.width && region.asked.height) clamp(region);
  }
  // The kernels read the box around the regions with pixels (nothing when there is none).
  frame.x0 = frame.y0 = G_MAXUINT;
  frame.x1 = frame.y1 = 0;
  for (const FrameRegion* region : regions.analysed()) {
    frame.x0 = MIN(frame.x0, region->x0);
    frame.y0 = MIN(frame.y0, region->y0);
    frame.x1 = MAX(frame.x1, region->x1);
    frame.y1 = MAX(frame.y1, region->y1);
  }
  if (frame.x1 == 0) frame.x0 = frame.y0 = 0;
  return true;
}

bool fits_one_buffer(const Device& device, vk::DeviceSize bytes, const std::string& what, const char* advice,
                     GError** error) {
  const vk::DeviceSize limit = device.properties().limits.maxStorageBufferRange;
  if (bytes <= limit) return true;
  g_set_error(error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_SETTINGS,
              "%s need %" G_GUINT64_FORMAT
              " MiB, more than the largest storage buffer of the Vulkan device (%" G_GUINT64_FORMAT
              " MiB): %s",
              what.c_str(), guint64(bytes >> 20), guint64(limit >> 20), advice);
  return false;
}

void set_region_results(GstStructure* results, const FrameRegions& regions,
                        const std::function<void(GstStructure* entry, guint i)>& fill) {
  GValue array = G_VALUE_INIT;
  gst_value_array_init(&array, guint(regions.list.size()));
  guint analysed = 0;
  for (const FrameRegion& region : regions.list) {
    GstStructure* entry = new_region_entry(region);
    if (!region.empty()) fill(entry, analysed++);
    GValue value = G_VALUE_INIT;
    g_value_init(&value, GST_TYPE_STRUCTURE);
    g_value_take_boxed(&value, entry);
    gst_value_array_append_and_take_value(&array, &value);
  }
  gst_structure_take_value(results, "regions", &array);
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
  // By name, not with gst_structure_foreach (its GQuark form is deprecated from GStreamer 1.26 on,
  // its replacement absent before).
  for (gint i = 0; i < gst_structure_n_fields(fields); ++i) {
    const gchar* name = gst_structure_nth_field_name(fields, guint(i));
    gst_structure_set_value(into, name, gst_structure_get_value(fields, name));
  }
}

GstBuffer* attach_results(const AnalysisSettings& settings, Frame& frame, const GstStructure* results,
                          const char* meta_name, analytics::Entries* entries) {
  if (!settings.attach_meta || !frame.outbuf) return nullptr;
  frame.outbuf = gst_buffer_make_writable(frame.outbuf);
  add_results_meta(frame.outbuf, meta_name, results);
  analytics::Entries added = analytics::add_results(frame.outbuf, results);
  if (entries) *entries = std::move(added);
  return frame.outbuf;
}

void post_results(GstElement* element, const AnalysisSettings& settings, GstStructure* results) {
  if (settings.post_messages)
    gst_element_post_message(element, gst_message_new_element(GST_OBJECT(element), results));
  else
    gst_structure_free(results);
}

}  // namespace vkc
