// The device-resident timing of the plugin (gst/base/residenttiming.hpp, vkcompute-bench --resident):
// each element and the five-element chain record their frames already in device memory into one
// command buffer, validation clean, and what comes out of the last frame is what the same element
// makes of that frame in a pipeline. Six frames over the four ring slots, so two slots hold two
// frames each in one buffer at different offsets, bound once: a frame reading another's data
// would show as a wrong output. At widths 1, 3 and 97.
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include <random>
#include <string>
#include <vector>

#include "base/residenttiming.hpp"
#include "common/bus_wait.h"
#include "common/test_seed.h"
#include "common/vktest.h"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

namespace {

constexpr guint kFrames = 6;
constexpr GstClockTime kBound = 60 * GST_SECOND;  // against a hang only

struct Row {
  const char* name;
  const char* format;
  std::string elements;
};

std::vector<Row> Rows() {
  const std::string lut = std::string("lut location=") + LUT_TEST_DATA_DIR + "/lookup_amatorka.png";
  const std::string dilate = "morph operation=dilate width=9 height=9";
  return {
      {"lumamax", "RGBA", "lumamax"},
      {"lumamax NV12", "NV12", "lumamax count=3"},
      {"histogram", "RGBA", "histogram"},
      {"rgb2yuv", "RGBA", "rgb2yuv ! video/x-raw,format=NV12"},
      {"lut", "RGBA", lut},
      {"morph", "RGBA", dilate},
      {"morph erode 3x5", "GRAY8", "morph operation=erode width=3 height=5"},
      {"chain", "RGBA", lut + " ! " + dilate + " ! lumamax ! histogram ! rgb2yuv ! video/x-raw,format=NV12"}};
}

// Our elements between appsrc and appsink, in order (new references).
std::vector<GstElement*> OurElements(GstElement* pipeline) {
  std::vector<GstElement*> chain;
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstPad* pad = gst_element_get_static_pad(src, "src");
  gst_object_unref(src);
  while (pad) {
    GstPad* peer = gst_pad_get_peer(pad);
    gst_object_unref(pad);
    GstElement* next = peer ? gst_pad_get_parent_element(peer) : nullptr;
    if (peer) gst_object_unref(peer);
    if (!next) break;
    pad = gst_element_get_static_pad(next, "src");
    GstElementFactory* factory = gst_element_get_factory(next);
    if (g_strcmp0(gst_plugin_feature_get_plugin_name(GST_PLUGIN_FEATURE(factory)), "vkcompute") == 0)
      chain.push_back(next);
    else
      gst_object_unref(next);
  }
  return chain;
}

// Fails unless the frame `sample` holds (the pipeline's output, in whatever layout its buffer has)
// equals `bytes`, laid out as GstVideoInfo's default layout for the sample's caps.
void ExpectSameFrame(GstSample* sample, const std::vector<guint8>& bytes, const std::string& what) {
  GstVideoInfo info;
  fail_unless(gst_video_info_from_caps(&info, gst_sample_get_caps(sample)));
  GstVideoInfo packed;
  gst_video_info_set_format(&packed, GST_VIDEO_INFO_FORMAT(&info), GST_VIDEO_INFO_WIDTH(&info),
                            GST_VIDEO_INFO_HEIGHT(&info));
  fail_unless(bytes.size() == GST_VIDEO_INFO_SIZE(&packed), "%s: %zu bytes, the caps say %zu", what.c_str(),
              bytes.size(), size_t(GST_VIDEO_INFO_SIZE(&packed)));
  GstVideoFrame frame;
  fail_unless(gst_video_frame_map(&frame, &info, gst_sample_get_buffer(sample), GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&frame); ++p) {
    const guint row_bytes = GST_VIDEO_FRAME_COMP_WIDTH(&frame, p) * GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, p);
    for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&frame, p); ++y) {
      const guint8* pipeline = static_cast<const guint8*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p)) +
                               y * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p);
      const guint8* resident = bytes.data() + GST_VIDEO_INFO_PLANE_OFFSET(&packed, p) +
                               y * GST_VIDEO_INFO_PLANE_STRIDE(&packed, p);
      for (guint x = 0; x < row_bytes; ++x)
        fail_unless(pipeline[x] == resident[x],
                    "%s: plane %u row %d byte %u: %u in the pipeline, %u resident (%s)", what.c_str(), p, y,
                    x, pipeline[x], resident[x], vktest::SeedDescription().c_str());
    }
  }
  gst_video_frame_unmap(&frame);
}

void TimeRow(GstVkComputeTimeResident time_resident, const Row& row, int width, int height) {
  const std::string what = std::string(row.name) + " " + std::to_string(width) + "x" + std::to_string(height);
  GstVideoInfo in;
  gst_video_info_set_format(&in, gst_video_format_from_string(row.format), guint(width), guint(height));
  std::vector<guint8> frames(GST_VIDEO_INFO_SIZE(&in) * kFrames);
  std::mt19937 rng = vktest::RngFor(what);
  for (guint8& b : frames) b = guint8(rng());

  // The last frame through the pipeline, which starts the elements and negotiates their caps.
  GstCaps* caps = gst_video_info_to_caps(&in);
  gchar* caps_text = gst_caps_to_string(caps);
  gst_caps_unref(caps);
  const std::string description = std::string("appsrc name=src format=time caps=\"") + caps_text + "\" ! " +
                                  row.elements + " ! appsink name=out sync=false";
  g_free(caps_text);
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "out");
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  const gsize frame_bytes = GST_VIDEO_INFO_SIZE(&in);
  GstBuffer* last = gst_buffer_new_memdup(frames.data() + (kFrames - 1) * frame_bytes, frame_bytes);
  GST_BUFFER_PTS(last) = 0;
  fail_unless(gst_app_src_push_buffer(GST_APP_SRC(src), last) == GST_FLOW_OK);
  fail_unless(gst_app_src_end_of_stream(GST_APP_SRC(src)) == GST_FLOW_OK);
  GstSample* out = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), kBound);
  fail_unless(out != nullptr, "%s: the pipeline gave no frame", what.c_str());
  vktest::ExpectEos(pipeline, kBound, description);

  std::vector<GstElement*> chain = OurElements(pipeline);
  GstVideoInfo out_info;
  fail_unless(gst_video_info_from_caps(&out_info, gst_sample_get_caps(out)));
  GstVideoInfo packed_out;
  gst_video_info_set_format(&packed_out, GST_VIDEO_INFO_FORMAT(&out_info),
                            guint(GST_VIDEO_INFO_WIDTH(&out_info)), guint(GST_VIDEO_INFO_HEIGHT(&out_info)));
  std::vector<guint8> resident(GST_VIDEO_INFO_SIZE(&packed_out));
  double median = -1, least = -1;
  gsize moved = 0;
  GError* error = nullptr;
  const gboolean ok = time_resident(chain.data(), guint(chain.size()), frames.data(), frame_bytes, kFrames, 1,
                                    &median, &least, &moved, resident.data(), resident.size(), &error);
  fail_unless(ok, "%s: %s", what.c_str(), error ? error->message : "?");
  fail_unless(median >= least && least >= 0, "%s: median %f us, least %f us", what.c_str(), median, least);
  fail_unless(moved >= frame_bytes, "%s: %zu bytes moved per frame of %zu", what.c_str(), size_t(moved),
              size_t(frame_bytes));
  ExpectSameFrame(out, resident, what);
  std::printf("%s: %u frames resident, %.1f us per frame (least %.1f), %zu bytes moved per frame\n",
              what.c_str(), kFrames, median, least, size_t(moved));
  for (GstElement* e : chain) gst_object_unref(e);
  gst_sample_unref(out);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(src);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  vktest::AssertNoValidationErrors(what);
}

GstVkComputeTimeResident Load() {
  gchar* why = nullptr;
  GstVkComputeTimeResident time_resident = load_time_resident(&why);
  fail_unless(time_resident != nullptr, "%s", why ? why : "?");
  return time_resident;
}

}  // namespace

GST_START_TEST(test_each_element_and_the_chain) {
  const GstVkComputeTimeResident time_resident = Load();
  for (const auto& [width, height] : {std::pair{1, 1}, std::pair{3, 5}, std::pair{97, 61}})
    for (const Row& row : Rows()) TimeRow(time_resident, row, width, height);
}
GST_END_TEST;

// What cannot be timed says why: an element that is not started, and no element at all.
GST_START_TEST(test_refusals) {
  const GstVkComputeTimeResident time_resident = Load();
  GstElement* idle = gst_element_factory_make("lumamax", "idle");
  fail_unless(idle != nullptr);
  guint8 frame[4] = {};
  GError* error = nullptr;
  fail_if(time_resident(&idle, 1, frame, sizeof frame, 1, 1, nullptr, nullptr, nullptr, nullptr, 0, &error));
  fail_unless(error && g_str_has_suffix(error->message, "idle is not started"), "%s",
              error ? error->message : "");
  g_clear_error(&error);
  fail_if(
      time_resident(nullptr, 0, frame, sizeof frame, 1, 1, nullptr, nullptr, nullptr, nullptr, 0, &error));
  fail_unless(error && g_strcmp0(error->message, "no element to time") == 0, "%s",
              error ? error->message : "");
  g_clear_error(&error);
  GstElement* identity = gst_element_factory_make("identity", "plain");
  fail_if(
      time_resident(&identity, 1, frame, sizeof frame, 1, 1, nullptr, nullptr, nullptr, nullptr, 0, &error));
  fail_unless(error && g_str_has_suffix(error->message, "plain is not a vkcompute element"), "%s",
              error ? error->message : "");
  g_clear_error(&error);
  gst_object_unref(identity);
  gst_object_unref(idle);
}
GST_END_TEST;

Suite* resident_timing_suite() {
  Suite* suite = suite_create("resident_timing");
  TCase* tcase = vktest::NewTCase("resident_timing", 600);
  tcase_add_test(tcase, test_each_element_and_the_chain);
  tcase_add_test(tcase, test_refusals);
  suite_add_tcase(suite, tcase);
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(resident_timing_suite(), "resident_timing", __FILE__);
}
