// What the analysis elements (lumamax, histogram) have in common: the post-messages, matrix and
// region-of-interest properties and the level-style timing fields of their messages.
#pragma once

#include <gst/video/video.h>

#include <functional>
#include <string>
#include <vector>

#include "analytics.hpp"
#include "frame.hpp"
#include "properties.hpp"
#include "regions.hpp"
#include "vk/device.hpp"

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

// The properties every analysis element has: post-messages, attach-meta, matrix, roi-x, roi-y,
// roi-width, roi-height, regions, regions-from-meta and roi-type (object lock).
struct AnalysisSettings {
  gboolean post_messages = TRUE;
  gboolean attach_meta = FALSE;
  GstVkComputeLumaMatrix matrix = GST_VKCOMPUTE_LUMA_MATRIX_BT709;
  RegionOfInterest roi;
  std::vector<ListedRegion> regions;
  gboolean regions_from_meta = FALSE;
  std::string roi_type;  // regions-from-meta: only the metas of this type ("" = all)
};

// Their rows, which each analysis element's property table ends with (base/properties.hpp).
const std::vector<Property<AnalysisSettings>>& analysis_properties();

// For begin_frame(): the regions `settings` ask for in `frame` (width x height), clamped to it,
// into `regions`, and the box around those with pixels into frame.x0 .. y1 (the part its kernels
// read). False, with a LIBRARY/SETTINGS `error`, when a region of the roi-* or `regions`
// properties holds no pixel of the frame (a region from a meta is then reported as empty).
bool take_frame_regions(GstElement* element, const AnalysisSettings& settings, guint width, guint height,
                        Frame& frame, FrameRegions& regions, GError** error);

// An analysis's begin_frame(): the element's settings now (`properties` of `element`) and the
// frame's regions into the frame's slot of `state`.
template <typename Settings, typename State>
bool take_frame_settings(const PropertyTable<Settings>& properties, GstElement* element, State& state,
                         Frame& frame, GError** error) {
  auto& slot = state.slots[frame.slot];
  slot.settings = properties.snapshot(G_OBJECT(element));
  frame.leaves_with_results = slot.settings.attach_meta;
  return take_frame_regions(element, slot.settings, state.width, state.height, frame, slot.regions, error);
}

// Whether a buffer of `bytes` fits the device's largest storage buffer (maxStorageBufferRange):
// else false, with a LIBRARY/SETTINGS `error` saying that `what` needs that much and what to
// lower (`advice`). For the analyses' per-slot buffers, which grow with regions and bins.
bool fits_one_buffer(const Device& device, vk::DeviceSize bytes, const std::string& what, const char* advice,
                     GError** error);

// The results of each of a frame's listed regions: `fill` adds those of region `i` of the
// analysed ones (FrameRegions::analysed()) to its entry; the entries go into `results` as
// "regions".
void set_region_results(GstStructure* results, const FrameRegions& regions,
                        const std::function<void(GstStructure* entry, guint i)>& fill);

// An analysis's complete(), with the results of the frame in `results`: with attach-meta, attached
// to the frame as a GstCustomMeta named `meta_name` holding the same fields, and to its analytics
// relation meta where GStreamer has one (base/analytics.hpp), the ids of those entries into
// `entries` when given. Returns the frame's buffer, writable, when they were (for more metas),
// else null.
GstBuffer* attach_results(const AnalysisSettings& settings, Frame& frame, const GstStructure* results,
                          const char* meta_name, analytics::Entries* entries = nullptr);
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
