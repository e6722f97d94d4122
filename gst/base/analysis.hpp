// What the analysis elements (lumamax, histogram) have in common: the post-messages, matrix and
// region-of-interest properties and the level-style timing fields of their messages.
#pragma once

#include <gst/video/video.h>

#include <string>
#include <vector>

#include "frame.hpp"
#include "properties.hpp"

G_BEGIN_DECLS
#define GST_TYPE_VKCOMPUTE_LUMA_MATRIX (gst_vkcompute_luma_matrix_get_type())
GType gst_vkcompute_luma_matrix_get_type(void);
G_END_DECLS

enum GstVkComputeLumaMatrix {
  GST_VKCOMPUTE_LUMA_MATRIX_BT601,
  GST_VKCOMPUTE_LUMA_MATRIX_BT709,
  GST_VKCOMPUTE_LUMA_MATRIX_BT2020,
};

namespace vkc {

// Luma of 8-bit R, G, B as the integer kr*R + kg*G + kb*B, with coefficients in units of 1/65536
// (2^-kLumaBits of shaders/analysis_layout.h, which the kernels share) that sum to exactly 65536
// (so white is 255 * 65536). Integer luma makes every comparison between pixels reproducible on
// the CPU.
struct LumaCoefficients {
  uint32_t kr, kg, kb;
};
LumaCoefficients luma_coefficients(GstVkComputeLumaMatrix matrix);

// roi-x, roi-y, roi-width, roi-height: width or height 0 = up to the frame edge.
struct RegionOfInterest {
  guint x = 0, y = 0, width = 0, height = 0;

  // The region clamped to a width x height frame, as [x0, x1) x [y0, y1). False, with `error`
  // set, when nothing of it lies in the frame.
  bool clamp(guint frame_width, guint frame_height, guint& x0, guint& y0, guint& x1, guint& y1,
             std::string& error) const;
};

// The properties every analysis element has: post-messages, attach-meta, matrix and roi-x, roi-y,
// roi-width, roi-height (object lock).
struct AnalysisSettings {
  gboolean post_messages = TRUE;
  gboolean attach_meta = FALSE;
  GstVkComputeLumaMatrix matrix = GST_VKCOMPUTE_LUMA_MATRIX_BT709;
  RegionOfInterest roi;
};

// Their rows, which each analysis element's property table ends with (base/properties.hpp).
const std::vector<Property<AnalysisSettings>>& analysis_properties();

// For begin_frame(): `roi` clamped to a width x height frame, into frame.x0 .. y1. False, with a
// LIBRARY/SETTINGS `error`, when nothing of it lies in the frame.
bool set_frame_region(const RegionOfInterest& roi, guint width, guint height, Frame& frame, GError** error);

// An analysis's begin_frame(): the element's settings now (`properties` of `element`) into the
// frame's slot of `state`, and the region of interest as the part of the frame its kernels read.
template <typename Settings, typename State>
bool take_frame_settings(const PropertyTable<Settings>& properties, GstElement* element, State& state,
                         Frame& frame, GError** error) {
  Settings& settings = state.slots[frame.slot].settings;
  settings = properties.snapshot(G_OBJECT(element));
  frame.leaves_with_results = settings.attach_meta;
  return set_frame_region(settings.roi, state.width, state.height, frame, error);
}

// An analysis's complete(), with the results of the frame in `results`: with attach-meta, attached
// to the frame as a GstCustomMeta named `meta_name` holding the same fields. Returns the frame's
// buffer, writable, when they were (for more metas), else null.
GstBuffer* attach_results(const AnalysisSettings& settings, Frame& frame, const GstStructure* results,
                          const char* meta_name);
// Then posts `results` (taken) as the element message, with post-messages.
void post_results(GstElement* element, const AnalysisSettings& settings, GstStructure* results);

// The GstCustomMeta `name` (registered on first use, no tags: elements that copy metas keep it),
// added to `buffer` with the fields of `fields`.
void add_results_meta(GstBuffer* buffer, const char* name, const GstStructure* fields);

// A message structure named `name` with the frame's "timestamp", "stream-time", "running-time"
// and "duration" (guint64, as gst-plugins-good's level posts them) for `buffer` in `segment`; the
// two times are GST_CLOCK_TIME_NONE when `segment` is not in time.
GstStructure* new_frame_structure(const char* name, GstBuffer* buffer, const GstSegment& segment);

}  // namespace vkc
