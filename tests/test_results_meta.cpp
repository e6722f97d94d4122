// Results that travel with their frames (attach-meta on lumamax and histogram): every frame that
// reaches the appsink carries a GstCustomMeta whose fields equal those of the element message posted
// for it (same names, types and values), in frame order; lumamax's peaks also ride as
// GstVideoRegionOfInterestMeta boxes of peak-box pixels, centred and clipped to the frame; and the
// frames themselves are those of the same pipeline without the element. Three ways through the
// base class: passed through in system memory, copied from device to system memory (after lut),
// passed through in device memory into morph (which copies the meta on), and histogram drawing
// into its frames.
#include <gst/video/video.h>

#include <cstdio>
#include <string>
#include <vector>

#include "chain/chain_frames.h"
#include "common/appsink_run.h"
#include "common/vktest.h"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

namespace {

constexpr guint kFrames = 8;
const char* const kSource =
    "videotestsrc pattern=ball num-buffers=8 ! video/x-raw,format=RGBA,width=97,height=61";

// Runs `source ! middle ! appsink` to its end.
void RunPipeline(const std::string& middle, vktest::AppsinkRun& run) {
  vktest::RunToAppsink(std::string(kSource) + " ! " + middle + " ! appsink name=out sync=false", run);
}

// The meta `meta_name` of `buffer` as a structure named `message_name`, or null.
GstStructure* MetaAsMessage(GstBuffer* buffer, const char* meta_name, const char* message_name) {
  GstCustomMeta* meta = gst_buffer_get_custom_meta(buffer, meta_name);
  if (!meta) return nullptr;
  GstStructure* s = gst_structure_copy(gst_custom_meta_get_structure(meta));
  gst_structure_set_name(s, message_name);
  return s;
}

// lumamax's peak as a box of `box` pixels a side centred on it, clipped to the frame.
void ExpectPeakBoxes(GstBuffer* buffer, const GstStructure* message, guint box, const std::string& what) {
  const GValue* peaks = gst_structure_get_value(message, "peaks");
  std::vector<GstVideoRegionOfInterestMeta*> rois;
  gpointer state = nullptr;
  while (GstMeta* meta =
             gst_buffer_iterate_meta_filtered(buffer, &state, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))
    rois.push_back(reinterpret_cast<GstVideoRegionOfInterestMeta*>(meta));
  fail_unless_equals_int(rois.size(), gst_value_array_get_size(peaks));
  for (guint n = 0; n < rois.size(); ++n) {
    const GstStructure* peak = gst_value_get_structure(gst_value_array_get_value(peaks, n));
    GstVideoRegionOfInterestMeta* roi = rois[n];
    gint x = 0, y = 0;
    gst_structure_get_int(peak, "x", &x);
    gst_structure_get_int(peak, "y", &y);
    const gint half = gint(box - 1) / 2;
    const gint x0 = MAX(0, x - half), y0 = MAX(0, y - half);
    const gint x1 = MIN(97, x - half + gint(box)), y1 = MIN(61, y - half + gint(box));
    fail_unless(g_quark_to_string(roi->roi_type) == std::string("lumamax-peak"), "%s: ROI type %s",
                what.c_str(), g_quark_to_string(roi->roi_type));
    fail_unless(
        gint(roi->x) == x0 && gint(roi->y) == y0 && gint(roi->w) == x1 - x0 && gint(roi->h) == y1 - y0,
        "%s: peak %u at %d,%d: box %u,%u %ux%u, expected %d,%d %dx%d", what.c_str(), n, x, y, roi->x, roi->y,
        roi->w, roi->h, x0, y0, x1 - x0, y1 - y0);
    const GstStructure* param = gst_video_region_of_interest_meta_get_param(roi, "peak");
    fail_unless(param && gst_structure_is_equal(param, peak), "%s: peak %u's parameter differs", what.c_str(),
                n);
  }
}

// Every frame of `element` (inside `middle`, whose frames without it are `reference_middle`) carries
// the meta `meta_name` equal to its message, in order, and is the frame it would be without it.
void ExpectResultsOnFrames(const std::string& middle, const std::string& reference_middle,
                           const char* meta_name, const char* message_name, guint peak_box) {
  vktest::AppsinkRun run, reference;
  RunPipeline(middle, run);
  RunPipeline(reference_middle, reference);
  const std::vector<const GstStructure*> messages = run.named(message_name);
  fail_unless_equals_int(run.samples.size(), kFrames);
  fail_unless_equals_int(reference.samples.size(), kFrames);
  fail_unless_equals_int(messages.size(), kFrames);
  for (guint n = 0; n < kFrames; ++n) {
    const std::string what = middle + ", frame " + std::to_string(n);
    GstBuffer* buffer = gst_sample_get_buffer(run.samples[n]);
    GstStructure* meta = MetaAsMessage(buffer, meta_name, message_name);
    fail_unless(meta != nullptr, "%s: no %s", what.c_str(), meta_name);
    gchar* got = gst_structure_to_string(meta);
    gchar* posted = gst_structure_to_string(messages[n]);
    fail_unless(gst_structure_is_equal(meta, messages[n]),
                "%s: the meta\n  %s\ndiffers from the message\n  %s", what.c_str(), got, posted);
    g_free(got);
    g_free(posted);
    guint64 timestamp = 0;
    gst_structure_get_uint64(meta, "timestamp", &timestamp);
    fail_unless_equals_uint64(timestamp, GST_BUFFER_PTS(buffer));
    gst_structure_free(meta);
    if (peak_box) ExpectPeakBoxes(buffer, messages[n], peak_box, what);
    fail_unless(chaintest::VisibleBytes(run.samples[n]) == chaintest::VisibleBytes(reference.samples[n]),
                "%s: the frame differs from the same pipeline without the element", what.c_str());
  }
}

const std::string kLumamax = "lumamax attach-meta=true count=4 min-distance=9 peak-box=5";

GST_START_TEST(test_lumamax_passed_through) {
  ExpectResultsOnFrames(kLumamax, "identity", "VkComputeLumamaxMeta", "lumamax", 5);
}
GST_END_TEST;

// lut's frames come in device memory, and leave lumamax for the appsink in system memory: a copy.
GST_START_TEST(test_lumamax_copied_out_of_device_memory) {
  ExpectResultsOnFrames(chaintest::Lut() + " ! " + kLumamax, chaintest::Lut(), "VkComputeLumamaxMeta",
                        "lumamax", 5);
}
GST_END_TEST;

// Passed through in device memory into morph, which copies the meta to its output (a meta with no
// tags; the region-of-interest metas, tagged as video metas, stay behind as GstBaseTransform does).
GST_START_TEST(test_lumamax_in_device_memory_into_morph) {
  ExpectResultsOnFrames(chaintest::Lut() + " ! lumamax attach-meta=true ! morph",
                        chaintest::Lut() + " ! morph", "VkComputeLumamaxMeta", "lumamax", 0);
}
GST_END_TEST;

// Out of device memory through a second analysis, which copies the frame to system memory for the
// appsink: the frame is the same picture, so lumamax's metas go with it, region-of-interest metas
// (video metas) included.
GST_START_TEST(test_lumamax_metas_through_a_second_analysis) {
  ExpectResultsOnFrames(chaintest::Lut() + " ! " + kLumamax + " ! histogram",
                        chaintest::Lut() + " ! histogram", "VkComputeLumamaxMeta", "lumamax", 5);
}
GST_END_TEST;

GST_START_TEST(test_histogram_passed_through) {
  ExpectResultsOnFrames("histogram attach-meta=true bins=64", "identity", "VkComputeHistogramMeta",
                        "histogram", 0);
}
GST_END_TEST;

// Drawing: the frame that leaves is the drawn one, and its results ride on it.
GST_START_TEST(test_histogram_drawing) {
  ExpectResultsOnFrames("histogram attach-meta=true draw=true", "histogram draw=true post-messages=false",
                        "VkComputeHistogramMeta", "histogram", 0);
}
GST_END_TEST;

// Without attach-meta, no meta (and the frames pass at once, as before).
GST_START_TEST(test_no_meta_by_default) {
  vktest::AppsinkRun run;
  RunPipeline("lumamax", run);
  fail_unless_equals_int(run.samples.size(), kFrames);
  for (GstSample* sample : run.samples)
    fail_unless(!gst_buffer_get_custom_meta(gst_sample_get_buffer(sample), "VkComputeLumamaxMeta"));
}
GST_END_TEST;

Suite* results_meta_suite() {
  Suite* s = suite_create("results_meta");
  TCase* tc = vktest::NewTCase("results_meta", 300);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_lumamax_passed_through);
  tcase_add_test(tc, test_lumamax_copied_out_of_device_memory);
  tcase_add_test(tc, test_lumamax_in_device_memory_into_morph);
  tcase_add_test(tc, test_lumamax_metas_through_a_second_analysis);
  tcase_add_test(tc, test_histogram_passed_through);
  tcase_add_test(tc, test_histogram_drawing);
  tcase_add_test(tc, test_no_meta_by_default);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(results_meta_suite(), "results_meta", __FILE__);
}
