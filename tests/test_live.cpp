// Frames leave every element, and a chain of them, as soon as the GPU is done with them: an
// application that pushes one frame gets its output (and an analysis element's message) without
// pushing another; a live 1 frame/s source sees each frame reach the sink before the next leaves it;
// and the LATENCY query answers what the element adds (nothing beyond its processing).
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/bus_wait.h"
#include "common/test_data.h"
#include "common/vktest.h"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

namespace {

constexpr GstClockTime kTimeout = 60 * GST_SECOND;
struct Case {
  std::string name;
  std::string elements;              // between the source and the sink
  std::vector<std::string> posting;  // the analysis messages each frame brings
};

std::vector<Case> Cases() {
  const std::string lut = "lut location=" + vktest::TestDataDir() + "/lookup_amatorka.png";
  return {
      {"rgb2yuv", "rgb2yuv ! video/x-raw,format=NV12", {}},
      {"lumamax", "lumamax count=2", {"lumamax"}},
      {"histogram", "histogram", {"histogram"}},
      {"histogram draw", "histogram draw=true", {"histogram"}},
      {"morph", "morph operation=open width=3 height=3", {}},
      {"lut", lut, {}},
      {"chain",
       lut + " ! morph operation=close width=3 height=3 ! lumamax ! histogram draw=true ! rgb2yuv",
       {"lumamax", "histogram"}},
  };
}

const char* const kCaps = "video/x-raw,format=RGBA,width=64,height=48,framerate=30/1";

GstBuffer* Frame(guint n) {
  const gsize size = 64 * 48 * 4;
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, size, nullptr);
  gst_buffer_memset(buffer, 0, guint8(40 + 10 * n), size);
  GST_BUFFER_PTS(buffer) = n * GST_SECOND / 30;
  GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
  return buffer;
}

// Notes when each buffer passed a pad, by PTS (probes on the source's and the sink's pads).
GstPadProbeReturn NoteArrival(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto* times = static_cast<std::map<GstClockTime, gint64>*>(data);
  static std::mutex lock;
  std::lock_guard<std::mutex> guard(lock);
  (*times)[GST_BUFFER_PTS(GST_PAD_PROBE_INFO_BUFFER(info))] = g_get_monotonic_time();
  return GST_PAD_PROBE_OK;
}

}  // namespace

// Request and response: each frame pushed alone comes out (with its message) before the next one
// is pushed.
GST_START_TEST(test_one_frame_in_one_out) {
  for (const Case& c : Cases()) {
    const std::string description = std::string("appsrc name=src format=time caps=") + kCaps + " ! " +
                                    c.elements + " ! appsink name=sink sync=false";
    GstElement* pipeline = vktest::ParsePipeline(description.c_str());
    GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE, "%s",
                c.name.c_str());
    for (guint n = 0; n < 3; ++n) {
      const GstClockTime pts = n * GST_SECOND / 30;
      fail_unless(gst_app_src_push_buffer(GST_APP_SRC(src), Frame(n)) == GST_FLOW_OK, "%s", c.name.c_str());
      GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), kTimeout);
      fail_unless(sample != nullptr, "%s: frame %u did not come out without a next frame", c.name.c_str(), n);
      fail_unless(GST_BUFFER_PTS(gst_sample_get_buffer(sample)) == pts, "%s: frame %u has another PTS",
                  c.name.c_str(), n);
      gst_sample_unref(sample);
      // A chain's messages come in either order.
      std::vector<std::string> names = c.posting;
      std::sort(names.begin(), names.end());
      GstBus* bus = gst_element_get_bus(pipeline);
      std::vector<std::string> seen;
      while (seen.size() < names.size()) {
        GstMessage* message = gst_bus_timed_pop_filtered(bus, kTimeout, GST_MESSAGE_ELEMENT);
        fail_unless(message != nullptr, "%s: frame %u: %zu of %zu messages without a next frame",
                    c.name.c_str(), n, seen.size(), names.size());
        const GstStructure* s = gst_message_get_structure(message);
        GstClockTime timestamp = GST_CLOCK_TIME_NONE;
        gst_structure_get_uint64(s, "timestamp", &timestamp);
        fail_unless(timestamp == pts, "%s: %s message at %" GST_TIME_FORMAT " for frame %u", c.name.c_str(),
                    gst_structure_get_name(s), GST_TIME_ARGS(timestamp), n);
        seen.push_back(gst_structure_get_name(s));
        gst_message_unref(message);
      }
      gst_object_unref(bus);
      std::sort(seen.begin(), seen.end());
      fail_unless(seen == names, "%s: frame %u posted other messages", c.name.c_str(), n);
    }
    gst_app_src_end_of_stream(GST_APP_SRC(src));
    vktest::ExpectEos(pipeline, kTimeout, c.name);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(sink);
    gst_object_unref(src);
    gst_object_unref(pipeline);
  }
}
GST_END_TEST;

// A live source at 1 frame/s: from leaving the source to reaching the sink, each frame takes less
// than half a period (a held frame would take a whole period, 1 s). The
// sink does not sync: a sink waiting for a frame's time would hold the thread that pushes the next
// one, and its processing deadline (20 ms) would show in the journey.
GST_START_TEST(test_live_source_sees_no_held_frame) {
  for (const Case& c : Cases()) {
    const std::string description =
        "videotestsrc name=src is-live=true num-buffers=4 pattern=ball ! "
        "video/x-raw,format=RGBA,width=160,height=120,framerate=1/1 ! " +
        c.elements + " ! fakesink name=sink sync=false";
    GstElement* pipeline = vktest::ParsePipeline(description.c_str());
    std::map<GstClockTime, gint64> left, reached;
    GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    GstPad* src_pad = gst_element_get_static_pad(src, "src");
    GstPad* sink_pad = gst_element_get_static_pad(sink, "sink");
    gst_pad_add_probe(src_pad, GST_PAD_PROBE_TYPE_BUFFER, NoteArrival, &left, nullptr);
    gst_pad_add_probe(sink_pad, GST_PAD_PROBE_TYPE_BUFFER, NoteArrival, &reached, nullptr);
    fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE, "%s",
                c.name.c_str());
    vktest::ExpectEos(pipeline, kTimeout, c.name);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    fail_unless(left.size() == 4 && reached.size() == 4, "%s: %zu frames left the source, %zu arrived",
                c.name.c_str(), left.size(), reached.size());
    // No element holds a frame until the next one comes: each reaches the sink before the source
    // lets the next one go, a second later.
    for (auto it = left.begin(); it != left.end(); ++it) {
      const GstClockTime pts = it->first;
      GST_INFO("%s: frame at %" GST_TIME_FORMAT " took %" G_GINT64_FORMAT " us", c.name.c_str(),
               GST_TIME_ARGS(pts), reached.at(pts) - it->second);
      const auto next = std::next(it);
      if (next == left.end()) break;
      fail_unless(reached.at(pts) < next->second,
                  "%s: frame at %" GST_TIME_FORMAT
                  " reached the sink only after the next one left the source",
                  c.name.c_str(), GST_TIME_ARGS(pts));
    }
    gst_object_unref(sink_pad);
    gst_object_unref(src_pad);
    gst_object_unref(sink);
    gst_object_unref(src);
    gst_object_unref(pipeline);
  }
}
GST_END_TEST;

// The LATENCY query: each element, and the chain, adds nothing to the live source's answer (frames
// leave when the GPU is done; the sink's processing deadline covers that time), as identity does.
GST_START_TEST(test_latency_answer) {
  auto latency = [](const std::string& elements, GstClockTime& min, GstClockTime& max) {
    const std::string description =
        std::string("videotestsrc is-live=true ! ") + kCaps + " ! " + elements + " ! fakesink sync=true";
    GstElement* pipeline = vktest::ParsePipeline(description.c_str());
    fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE, "%s",
                elements.c_str());
    fail_unless(gst_element_get_state(pipeline, nullptr, nullptr, kTimeout) == GST_STATE_CHANGE_SUCCESS, "%s",
                elements.c_str());
    GstQuery* query = gst_query_new_latency();
    fail_unless(gst_element_query(pipeline, query), "%s: no answer to LATENCY", elements.c_str());
    gboolean live = FALSE;
    gst_query_parse_latency(query, &live, &min, &max);
    fail_unless(live, "%s: not live", elements.c_str());
    gst_query_unref(query);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
  };
  GstClockTime source_min, source_max;
  latency("identity", source_min, source_max);
  for (const Case& c : Cases()) {
    GstClockTime min, max;
    latency(c.elements, min, max);
    fail_unless(min == source_min && max == source_max,
                "%s: latency %" GST_TIME_FORMAT "..%" GST_TIME_FORMAT ", the source alone %" GST_TIME_FORMAT
                "..%" GST_TIME_FORMAT,
                c.name.c_str(), GST_TIME_ARGS(min), GST_TIME_ARGS(max), GST_TIME_ARGS(source_min),
                GST_TIME_ARGS(source_max));
  }
}
GST_END_TEST;

namespace {

// The frames of a live chain as the sink got them: each one's bytes and PTS in arrival order, and
// each one's time from its push to its arrival.
struct Delivered {
  std::vector<std::vector<guint8>> bytes;
  std::vector<GstClockTime> pts;
  std::vector<gint64> journey_us;
};

// Pushes `frames` distinct RGBA frames into `appsrc ! elements ! appsink`, one per frame period when
// `live` (the source live, the frames timestamped as they go), all at once otherwise, then EOS.
void RunChain(const std::string& elements, guint frames, bool live, Delivered& out) {
  const std::string description = std::string("appsrc name=src format=time is-live=") +
                                  (live ? "true" : "false") + " caps=" + kCaps + " ! " + elements +
                                  " ! appsink name=out sync=false";
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "out");
  std::vector<gint64> pushed(frames, 0);
  auto pull = [&](GstClockTime timeout) {
    while (GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), timeout)) {
      GstBuffer* buffer = gst_sample_get_buffer(sample);
      const GstClockTime pts = GST_BUFFER_PTS(buffer);
      const guint n = guint(pts / (GST_SECOND / 30));
      out.journey_us.push_back(n < frames && pushed[n] ? g_get_monotonic_time() - pushed[n] : -1);
      GstMapInfo map;
      fail_unless(gst_buffer_map(buffer, &map, GST_MAP_READ));
      out.bytes.emplace_back(map.data, map.data + map.size);
      gst_buffer_unmap(buffer, &map);
      out.pts.push_back(pts);
      gst_sample_unref(sample);
    }
  };
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  const gsize size = 64 * 48 * 4;
  for (guint n = 0; n < frames; ++n) {
    GstBuffer* buffer = gst_buffer_new_allocate(nullptr, size, nullptr);
    GstMapInfo map;
    gst_buffer_map(buffer, &map, GST_MAP_WRITE);
    for (gsize i = 0; i < size; ++i) map.data[i] = guint8(i * 7 + n * 13 + (i >> 8));
    gst_buffer_unmap(buffer, &map);
    GST_BUFFER_PTS(buffer) = n * GST_SECOND / 30;
    GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
    pushed[n] = g_get_monotonic_time();
    fail_unless_equals_int(gst_app_src_push_buffer(GST_APP_SRC(src), buffer), GST_FLOW_OK);
    if (live) pull(GST_SECOND / 30);  // the frame period, in which earlier frames arrive
  }
  gst_app_src_end_of_stream(GST_APP_SRC(src));
  while (!gst_app_sink_is_eos(GST_APP_SINK(sink))) pull(100 * GST_MSECOND);
  pull(0);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(src);
  gst_object_unref(pipeline);
}

}  // namespace

// A live chain fed at its frame rate: every frame reaches the sink, in the order pushed, with the
// bytes the same chain gives its frames when they are all queued at once (not live). The times
// from push to sink are printed, not asserted (the bench measures them on a GPU).
GST_START_TEST(test_live_chain_delivers_every_frame_in_order) {
  constexpr guint kFrames = 45;
  const std::string lut = "lut location=" + vktest::TestDataDir() + "/lookup_amatorka.png";
  const std::string chain =
      lut +
      " ! morph operation=open width=9 height=9 ! lumamax ! histogram ! rgb2yuv ! video/x-raw,format=NV12";
  Delivered live, queued;
  RunChain(chain, kFrames, true, live);
  RunChain(chain, kFrames, false, queued);
  fail_unless_equals_int(int(live.pts.size()), int(kFrames));
  fail_unless_equals_int(int(queued.pts.size()), int(kFrames));
  for (guint n = 0; n < kFrames; ++n) {
    fail_unless(live.pts[n] == n * GST_SECOND / 30, "frame %u arrived as the %u-th",
                guint(live.pts[n] * 30 / GST_SECOND), n);
    fail_unless(live.bytes[n] == queued.bytes[n],
                "frame %u: the live chain's bytes differ from the queued run's", n);
  }
  // The first frame also waits for the kernels and lut's table to be made.
  std::vector<gint64> sorted(live.journey_us.begin() + 1, live.journey_us.end());
  std::sort(sorted.begin(), sorted.end());
  std::printf(
      "live chain, %u frames at 30 frames/s (64x48): push to sink %.2f ms for the first, then median "
      "%.2f ms, max %.2f ms\n",
      kFrames, double(live.journey_us[0]) / 1e3, double(sorted[sorted.size() / 2]) / 1e3,
      double(sorted.back()) / 1e3);
}
GST_END_TEST;

static Suite* live_suite() {
  Suite* suite = suite_create("live");
  TCase* tcase = vktest::NewTCase("live", 300);
  tcase_add_test(tcase, test_one_frame_in_one_out);
  tcase_add_test(tcase, test_live_source_sees_no_held_frame);
  tcase_add_test(tcase, test_latency_answer);
  tcase_add_test(tcase, test_live_chain_delivers_every_frame_in_order);
  suite_add_tcase(suite, tcase);
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(live_suite(), "live", __FILE__);
}
