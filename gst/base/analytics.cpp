// The analyses' results in GStreamer's analytics relation meta (what each entry holds: analytics.hpp).
#include "analytics.hpp"

#ifdef VKC_HAVE_ANALYTICS
#include <gst/analytics/analytics.h>  // GStreamer >= 1.24

#include <cstring>
#include <string>
#endif

namespace vkc::analytics {

#ifdef VKC_HAVE_ANALYTICS

namespace {

// Our entry type: its data is plain bytes (a string), which the relation meta copies as they are
// when a buffer's metas are copied, so it needs no transform of its own, nor a clear (1.26). A scale
// or flip of the frame later moves the object-detection boxes, not the coordinates in this text
// (documented in docs/elements/lumamax.md).
const GstAnalyticsMtdImpl kResultsImpl = {.name = kResultsType, .mtd_meta_transform = nullptr};

GstAnalyticsRelationMeta* relation_meta(GstBuffer* buffer) {
  GstAnalyticsRelationMeta* meta = gst_buffer_get_analytics_relation_meta(buffer);
  return meta ? meta : gst_buffer_add_analytics_relation_meta(buffer);
}

// A "vkcompute-results" entry holding `fields`; its id, or -1.
gint add_results_entry(GstAnalyticsRelationMeta* meta, const GstStructure* fields) {
  gchar* text = gst_structure_serialize_full(fields, GST_SERIALIZE_FLAG_NONE);
  const gsize size = strlen(text) + 1;
  GstAnalyticsMtd entry;
  gpointer data = gst_analytics_relation_meta_add_mtd(meta, &kResultsImpl, size, &entry);
  if (data) memcpy(data, text, size);
  g_free(text);
  return data ? gint(entry.id) : -1;
}

// Both directions of a containment: `whole` CONTAINs `part`, which IS_PART_OF it.
void relate_part(GstAnalyticsRelationMeta* meta, gint whole, gint part) {
  if (whole < 0 || part < 0) return;
  gst_analytics_relation_meta_set_relation(meta, GST_ANALYTICS_REL_TYPE_CONTAIN, guint(whole), guint(part));
  gst_analytics_relation_meta_set_relation(meta, GST_ANALYTICS_REL_TYPE_IS_PART_OF, guint(part),
                                           guint(whole));
}

// A region's box (roi-x .. roi-height of its entry) and its results, related both ways; the box's id.
gint add_region(GstAnalyticsRelationMeta* meta, const char* element, const GstStructure* entry) {
  gboolean empty = FALSE;
  gst_structure_get_boolean(entry, "empty", &empty);
  guint x = 0, y = 0, width = 0, height = 0;
  if (empty || !gst_structure_get(entry, "roi-x", G_TYPE_UINT, &x, "roi-y", G_TYPE_UINT, &y, "roi-width",
                                  G_TYPE_UINT, &width, "roi-height", G_TYPE_UINT, &height, nullptr))
    return -1;
  const std::string type = std::string(element) + "-region";
  GstAnalyticsODMtd box;
  if (!gst_analytics_relation_meta_add_od_mtd(meta, g_quark_from_string(type.c_str()), gint(x), gint(y),
                                              gint(width), gint(height), 1.0f, &box))
    return -1;
  const gint results = add_results_entry(meta, entry);
  if (results >= 0) {
    gst_analytics_relation_meta_set_relation(meta, GST_ANALYTICS_REL_TYPE_RELATE_TO, box.id, guint(results));
    gst_analytics_relation_meta_set_relation(meta, GST_ANALYTICS_REL_TYPE_RELATE_TO, guint(results), box.id);
  }
  return gint(box.id);
}

}  // namespace

Entries add_results(GstBuffer* buffer, const GstStructure* results) {
  GstAnalyticsRelationMeta* meta = relation_meta(buffer);
  Entries entries;
  entries.results = add_results_entry(meta, results);
  const GValue* regions = gst_structure_get_value(results, "regions");
  for (guint i = 0; regions && i < gst_value_array_get_size(regions); ++i) {
    const gint box = add_region(meta, gst_structure_get_name(results),
                                gst_value_get_structure(gst_value_array_get_value(regions, i)));
    relate_part(meta, entries.results, box);
    entries.regions.push_back(box);
  }
  return entries;
}

void add_box(GstBuffer* buffer, const char* type, gint x, gint y, gint width, gint height, gfloat confidence,
             gint parent) {
  GstAnalyticsRelationMeta* meta = relation_meta(buffer);
  GstAnalyticsODMtd box;
  if (gst_analytics_relation_meta_add_od_mtd(meta, g_quark_from_string(type), x, y, width, height, confidence,
                                             &box))
    relate_part(meta, parent, gint(box.id));
}

#else

Entries add_results(GstBuffer*, const GstStructure* results) {
  const GValue* regions = gst_structure_get_value(results, "regions");
  Entries entries;
  entries.regions.assign(regions ? gst_value_array_get_size(regions) : 0, -1);
  return entries;
}

void add_box(GstBuffer*, const char*, gint, gint, gint, gint, gfloat, gint) {}

#endif

}  // namespace vkc::analytics
