// The analyses' results in GStreamer's analytics relation meta (GStreamer 1.24 and later; built
// where meson finds gstreamer-analytics-1.0): frame by frame, what the relation meta holds equals
// what the element posted for that frame and what its other metas say (gst/base/analytics.hpp):
// - the "vkcompute-results" entry deserializes to the element message;
// - lumamax's "lumamax-peak" object-detection entries are its GstVideoRegionOfInterestMeta boxes
//   (same order, boxes, and the peak's luma as confidence), part of the frame's results entry;
// - with a list of regions, one "<element>-region" box per region (the region analysed), related
//   to a results entry equal to the region's entry of the message, and holding that region's peaks;
// - two analyses in a row add to one relation meta.
#include <gst/analytics/analytics.h>
#include <gst/video/video.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/appsink_run.h"
#include "common/vktest.h"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

namespace {

constexpr guint kFrames = 8;
const char* const kSource =
    "videotestsrc pattern=ball num-buffers=8 ! video/x-raw,format=RGBA,width=97,height=61";
const char* const kRegions =
    "regions=<\"region,x=0,y=0,width=50,height=40,id=left\","
    "\"region,x=40,y=20,width=57,height=41,id=right\">";

// Runs `source ! middle ! appsink` to its end: kFrames frames.
void RunPipeline(const std::string& middle, vktest::AppsinkRun& run) {
  vktest::RunToAppsink(std::string(kSource) + " ! " + middle + " ! appsink name=out sync=false", run);
  fail_unless_equals_int(run.samples.size(), kFrames);
}

std::string Text(const GstStructure* s) {
  gchar* text = gst_structure_to_string(s);
  std::string copy = text;
  g_free(text);
  return copy;
}

// The entry `id` of type "vkcompute-results" as the structure it holds (owned by the caller).
GstStructure* ResultsEntry(GstAnalyticsRelationMeta* meta, guint id, const std::string& what) {
  GstAnalyticsMtd entry;
  fail_unless(gst_analytics_relation_meta_get_mtd(meta, id, GST_ANALYTICS_MTD_TYPE_ANY, &entry),
              "%s: no entry %u", what.c_str(), id);
  fail_unless(g_strcmp0(gst_analytics_mtd_type_get_name(gst_analytics_mtd_get_mtd_type(&entry)),
                        "vkcompute-results") == 0,
              "%s: entry %u is a %s", what.c_str(), id,
              gst_analytics_mtd_type_get_name(gst_analytics_mtd_get_mtd_type(&entry)));
  const gsize size = gst_analytics_mtd_get_size(&entry);
  const auto* text = static_cast<const char*>(gst_analytics_relation_meta_get_mtd_data(meta, id));
  fail_unless(text && size > 0 && text[size - 1] == '\0' && strlen(text) == size - 1,
              "%s: entry %u is no string of %zu bytes", what.c_str(), id, size_t(size));
  GstStructure* s = gst_structure_from_string(text, nullptr);
  fail_unless(s != nullptr, "%s: entry %u does not parse: %s", what.c_str(), id, text);
  return s;
}

// The ids of the frame's "vkcompute-results" entries whose structure is named `name`.
std::vector<guint> ResultsEntriesNamed(GstAnalyticsRelationMeta* meta, const char* name,
                                       const std::string& what) {
  std::vector<guint> ids;
  gpointer state = nullptr;
  GstAnalyticsMtd entry;
  while (gst_analytics_relation_meta_iterate(meta, &state, GST_ANALYTICS_MTD_TYPE_ANY, &entry)) {
    if (g_strcmp0(gst_analytics_mtd_type_get_name(gst_analytics_mtd_get_mtd_type(&entry)),
                  "vkcompute-results"))
      continue;
    GstStructure* s = ResultsEntry(meta, entry.id, what);
    if (gst_structure_has_name(s, name)) ids.push_back(entry.id);
    gst_structure_free(s);
  }
  return ids;
}

struct Box {
  guint id;
  gint x, y, w, h;
  gfloat confidence;
};

// The object-detection entries of type `type`, in the order they were added.
std::vector<Box> Boxes(GstAnalyticsRelationMeta* meta, const char* type) {
  std::vector<Box> boxes;
  gpointer state = nullptr;
  GstAnalyticsODMtd entry;
  while (gst_analytics_relation_meta_iterate(meta, &state, gst_analytics_od_mtd_get_mtd_type(), &entry)) {
    if (gst_analytics_od_mtd_get_obj_type(&entry) != g_quark_from_string(type)) continue;
    Box box{entry.id, 0, 0, 0, 0, 0};
    gst_analytics_od_mtd_get_location(&entry, &box.x, &box.y, &box.w, &box.h, &box.confidence);
    boxes.push_back(box);
  }
  return boxes;
}

// `part` IS_PART_OF `whole`, which CONTAINs it.
bool PartOf(GstAnalyticsRelationMeta* meta, guint part, guint whole) {
  return (gst_analytics_relation_meta_get_relation(meta, part, whole) & GST_ANALYTICS_REL_TYPE_IS_PART_OF) &&
         (gst_analytics_relation_meta_get_relation(meta, whole, part) & GST_ANALYTICS_REL_TYPE_CONTAIN);
}

bool RelatedBothWays(GstAnalyticsRelationMeta* meta, guint a, guint b) {
  return (gst_analytics_relation_meta_get_relation(meta, a, b) & GST_ANALYTICS_REL_TYPE_RELATE_TO) &&
         (gst_analytics_relation_meta_get_relation(meta, b, a) & GST_ANALYTICS_REL_TYPE_RELATE_TO);
}

// The frame's "lumamax-peak" region-of-interest metas, in order.
std::vector<GstVideoRegionOfInterestMeta*> PeakMetas(GstBuffer* buffer) {
  std::vector<GstVideoRegionOfInterestMeta*> rois;
  gpointer state = nullptr;
  while (GstMeta* meta =
             gst_buffer_iterate_meta_filtered(buffer, &state, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) {
    auto* roi = reinterpret_cast<GstVideoRegionOfInterestMeta*>(meta);
    if (roi->roi_type == g_quark_from_string("lumamax-peak")) rois.push_back(roi);
  }
  return rois;
}

// The boxes `boxes[first ...]` are the peaks of `results` (a message or a region's entry), as the
// region-of-interest metas `rois[first ...]` hold them, and each is part of the entry `parent`.
void ExpectPeaks(GstAnalyticsRelationMeta* meta, const std::vector<Box>& boxes,
                 const std::vector<GstVideoRegionOfInterestMeta*>& rois, size_t first,
                 const GstStructure* results, guint parent, const std::string& what) {
  const GValue* peaks = gst_structure_get_value(results, "peaks");
  const guint count = gst_value_array_get_size(peaks);
  fail_unless(count > 0, "%s: no peaks to compare", what.c_str());
  for (guint n = 0; n < count; ++n) {
    fail_unless(first + n < boxes.size() && first + n < rois.size(), "%s: %zu boxes, %zu metas for peak %u",
                what.c_str(), boxes.size(), rois.size(), n);
    const Box& box = boxes[first + n];
    const GstVideoRegionOfInterestMeta* roi = rois[first + n];
    const GstStructure* peak = gst_value_get_structure(gst_value_array_get_value(peaks, n));
    const GstStructure* param =
        gst_video_region_of_interest_meta_get_param(const_cast<GstVideoRegionOfInterestMeta*>(roi), "peak");
    fail_unless(param && gst_structure_is_equal(param, peak), "%s: peak %u's meta is not the message's",
                what.c_str(), n);
    gdouble luma = 0;
    gst_structure_get_double(peak, "luma", &luma);
    fail_unless(
        box.x == gint(roi->x) && box.y == gint(roi->y) && box.w == gint(roi->w) && box.h == gint(roi->h),
        "%s: peak %u: entry %d,%d %dx%d, meta %u,%u %ux%u", what.c_str(), n, box.x, box.y, box.w, box.h,
        roi->x, roi->y, roi->w, roi->h);
    fail_unless(box.confidence == gfloat(luma), "%s: peak %u: confidence %g, luma %g", what.c_str(), n,
                box.confidence, luma);
    fail_unless(PartOf(meta, box.id, parent), "%s: peak %u (entry %u) is not part of entry %u", what.c_str(),
                n, box.id, parent);
  }
}

GstAnalyticsRelationMeta* RelationMeta(GstSample* sample, const std::string& what) {
  GstAnalyticsRelationMeta* meta = gst_buffer_get_analytics_relation_meta(gst_sample_get_buffer(sample));
  fail_unless(meta != nullptr, "%s: no analytics relation meta", what.c_str());
  return meta;
}

// The frame's one results entry of `element` equals the element's message; its id.
guint ExpectFrameResults(GstAnalyticsRelationMeta* meta, const char* element, const GstStructure* message,
                         const std::string& what) {
  const std::vector<guint> ids = ResultsEntriesNamed(meta, element, what);
  fail_unless_equals_int(ids.size(), 1);
  GstStructure* results = ResultsEntry(meta, ids[0], what);
  fail_unless(gst_structure_is_equal(results, message), "%s: the entry\n  %s\ndiffers from the message\n  %s",
              what.c_str(), Text(results).c_str(), Text(message).c_str());
  gst_structure_free(results);
  return ids[0];
}

// With a list of regions: per region, its box (the region analysed) related both ways to a results
// entry equal to its entry of the message, part of the frame's results; lumamax's peaks part of
// their region's box.
void ExpectRegions(GstAnalyticsRelationMeta* meta, GstBuffer* buffer, const char* element,
                   const GstStructure* message, guint frame_results, const std::string& what) {
  const GValue* entries = gst_structure_get_value(message, "regions");
  fail_unless(entries != nullptr, "%s: no regions in the message", what.c_str());
  const std::vector<Box> regions = Boxes(meta, (std::string(element) + "-region").c_str());
  fail_unless_equals_int(regions.size(), gst_value_array_get_size(entries));
  const std::vector<Box> peaks = Boxes(meta, "lumamax-peak");
  const std::vector<GstVideoRegionOfInterestMeta*> rois = PeakMetas(buffer);
  size_t first_peak = 0;
  for (guint i = 0; i < regions.size(); ++i) {
    const std::string region_what = what + ", region " + std::to_string(i);
    const GstStructure* entry = gst_value_get_structure(gst_value_array_get_value(entries, i));
    guint x = 0, y = 0, w = 0, h = 0;
    gst_structure_get(entry, "roi-x", G_TYPE_UINT, &x, "roi-y", G_TYPE_UINT, &y, "roi-width", G_TYPE_UINT, &w,
                      "roi-height", G_TYPE_UINT, &h, nullptr);
    const Box& box = regions[i];
    fail_unless(box.x == gint(x) && box.y == gint(y) && box.w == gint(w) && box.h == gint(h),
                "%s: box %d,%d %dx%d, region %u,%u %ux%u", region_what.c_str(), box.x, box.y, box.w, box.h, x,
                y, w, h);
    fail_unless(PartOf(meta, box.id, frame_results), "%s: not part of the frame's results",
                region_what.c_str());
    guint related = G_MAXUINT;
    gpointer state = nullptr;
    GstAnalyticsMtd candidate;
    while (gst_analytics_relation_meta_get_direct_related(meta, box.id, GST_ANALYTICS_REL_TYPE_RELATE_TO,
                                                          GST_ANALYTICS_MTD_TYPE_ANY, &state, &candidate)) {
      fail_unless(related == G_MAXUINT, "%s: more than one entry related", region_what.c_str());
      related = candidate.id;
    }
    fail_unless(related != G_MAXUINT, "%s: no results entry related to the box", region_what.c_str());
    fail_unless(RelatedBothWays(meta, box.id, related), "%s: related one way only", region_what.c_str());
    GstStructure* results = ResultsEntry(meta, related, region_what);
    fail_unless(gst_structure_is_equal(results, entry),
                "%s: the entry\n  %s\ndiffers from the message's\n  %s", region_what.c_str(),
                Text(results).c_str(), Text(entry).c_str());
    gst_structure_free(results);
    if (g_str_equal(element, "lumamax")) {
      ExpectPeaks(meta, peaks, rois, first_peak, entry, box.id, region_what);
      first_peak += gst_value_array_get_size(gst_structure_get_value(entry, "peaks"));
    }
  }
  fail_unless_equals_int(first_peak, peaks.size());
}

GST_START_TEST(test_lumamax_peaks_and_results) {
  vktest::AppsinkRun run;
  RunPipeline("lumamax attach-meta=true count=4 min-distance=9 peak-box=5", run);
  const std::vector<const GstStructure*> messages = run.named("lumamax");
  fail_unless_equals_int(messages.size(), kFrames);
  for (guint n = 0; n < kFrames; ++n) {
    const std::string what = "lumamax, frame " + std::to_string(n);
    GstAnalyticsRelationMeta* meta = RelationMeta(run.samples[n], what);
    const guint results = ExpectFrameResults(meta, "lumamax", messages[n], what);
    const std::vector<Box> peaks = Boxes(meta, "lumamax-peak");
    const auto rois = PeakMetas(gst_sample_get_buffer(run.samples[n]));
    fail_unless_equals_int(peaks.size(), rois.size());
    fail_unless_equals_int(peaks.size(),
                           gst_value_array_get_size(gst_structure_get_value(messages[n], "peaks")));
    ExpectPeaks(meta, peaks, rois, 0, messages[n], results, what);
  }
}
GST_END_TEST;

GST_START_TEST(test_lumamax_regions) {
  vktest::AppsinkRun run;
  RunPipeline(std::string("lumamax attach-meta=true count=2 min-distance=5 peak-box=3 ") + kRegions, run);
  const std::vector<const GstStructure*> messages = run.named("lumamax");
  fail_unless_equals_int(messages.size(), kFrames);
  for (guint n = 0; n < kFrames; ++n) {
    const std::string what = "lumamax regions, frame " + std::to_string(n);
    GstAnalyticsRelationMeta* meta = RelationMeta(run.samples[n], what);
    const guint results = ExpectFrameResults(meta, "lumamax", messages[n], what);
    ExpectRegions(meta, gst_sample_get_buffer(run.samples[n]), "lumamax", messages[n], results, what);
  }
}
GST_END_TEST;

GST_START_TEST(test_histogram_results_and_regions) {
  for (const std::string& settings : {std::string("bins=64"), std::string("bins=16 ") + kRegions}) {
    vktest::AppsinkRun run;
    RunPipeline("histogram attach-meta=true " + settings, run);
    const std::vector<const GstStructure*> messages = run.named("histogram");
    fail_unless_equals_int(messages.size(), kFrames);
    for (guint n = 0; n < kFrames; ++n) {
      const std::string what = "histogram " + settings + ", frame " + std::to_string(n);
      GstAnalyticsRelationMeta* meta = RelationMeta(run.samples[n], what);
      const guint results = ExpectFrameResults(meta, "histogram", messages[n], what);
      if (gst_structure_has_field(messages[n], "regions"))
        ExpectRegions(meta, gst_sample_get_buffer(run.samples[n]), "histogram", messages[n], results, what);
      else
        fail_unless_equals_int(Boxes(meta, "histogram-region").size(), 0);
    }
  }
}
GST_END_TEST;

// lumamax then histogram: both analyses' entries in one relation meta, each equal to its message.
GST_START_TEST(test_two_analyses_share_the_meta) {
  vktest::AppsinkRun run;
  RunPipeline("lumamax attach-meta=true count=2 ! histogram attach-meta=true bins=32", run);
  fail_unless_equals_int(run.named("lumamax").size(), kFrames);
  fail_unless_equals_int(run.named("histogram").size(), kFrames);
  for (guint n = 0; n < kFrames; ++n) {
    const std::string what = "lumamax ! histogram, frame " + std::to_string(n);
    GstAnalyticsRelationMeta* meta = RelationMeta(run.samples[n], what);
    ExpectFrameResults(meta, "lumamax", run.named("lumamax")[n], what);
    ExpectFrameResults(meta, "histogram", run.named("histogram")[n], what);
  }
}
GST_END_TEST;

// Without attach-meta, no relation meta.
GST_START_TEST(test_none_without_attach_meta) {
  vktest::AppsinkRun run;
  RunPipeline("lumamax ! histogram", run);
  for (GstSample* sample : run.samples)
    fail_unless(gst_buffer_get_analytics_relation_meta(gst_sample_get_buffer(sample)) == nullptr);
}
GST_END_TEST;

Suite* analytics_suite() {
  Suite* s = suite_create("analytics");
  TCase* tc = vktest::NewTCase("analytics", 300);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_lumamax_peaks_and_results);
  tcase_add_test(tc, test_lumamax_regions);
  tcase_add_test(tc, test_histogram_results_and_regions);
  tcase_add_test(tc, test_two_analyses_share_the_meta);
  tcase_add_test(tc, test_none_without_attach_meta);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(analytics_suite(), "analytics", __FILE__);
}
