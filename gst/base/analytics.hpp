// The analyses' results in GStreamer's analytics relation meta (GstAnalyticsRelationMeta, from the
// gstreamer-analytics-1.0 library of GStreamer 1.24 and later), beside their GstCustomMeta: the form
// that GStreamer's analytics elements and the applications built on that library read. A build
// without the library (GStreamer 1.22) adds nothing (kAvailable is false).
//
// What a frame's relation meta holds after an analysis with attach-meta (docs/elements/*.md):
// - one entry of our type "vkcompute-results" (kResultsType) whose data is the element message's
//   structure (named after the element, with the same fields), serialized as a NUL-terminated
//   string (gst_structure_serialize_full, read back with gst_structure_from_string);
// - with a list of regions: per analysed region, an object-detection entry of type
//   "<element>-region" (the box analysed, confidence 1) and a "vkcompute-results" entry holding
//   that region's entry of the message ("region" structure); the two RELATE_TO each other, and the
//   frame's results entry CONTAINs the region's box (which IS_PART_OF it);
// - boxes an analysis found (lumamax's peaks): object-detection entries that are part of their
//   region's box, or of the frame's results entry without a list (IS_PART_OF one way, CONTAIN the
//   other).
#pragma once

#include <gst/gst.h>

#include <vector>

namespace vkc::analytics {

#ifdef VKC_HAVE_ANALYTICS
constexpr bool kAvailable = true;
#else
constexpr bool kAvailable = false;
#endif

// The name of our entry type (gst_analytics_mtd_type_get_name () of the entry's type).
constexpr char kResultsType[] = "vkcompute-results";

// The ids of the entries one analysis added to a frame's relation meta; -1 where none was added.
struct Entries {
  gint results = -1;          // the frame's results
  std::vector<gint> regions;  // one per entry of the results' "regions" array: the region's box
                              // (-1 for an empty region, which has no box in the frame)
};

// Adds `results` (the element message's structure) to the relation meta of `buffer` (writable; the
// meta is added when it has none), with its regions' boxes and results when it carries a
// "regions" array.
Entries add_results(GstBuffer* buffer, const GstStructure* results);

// Adds a box an analysis found as an object-detection entry of type `type` (`x`, `y`, `width`,
// `height` in pixels, `confidence`), part of the entry `parent` (from add_results()).
void add_box(GstBuffer* buffer, const char* type, gint x, gint y, gint width, gint height, gfloat confidence,
             gint parent);

}  // namespace vkc::analytics
