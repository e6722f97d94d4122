// What one more pipeline of our elements costs a process that already runs some: no kernel
// compiled again (the device's KernelCache), working images shared (SharedScratch), lut's table read
// and put on the device once (lut_table.hpp), frames made only for the frames really in flight, and many live
// pipelines reaching NULL together without waiting for each other. The runtime logs each kernel it compiles
// and each buffer it allocates, with what the device then holds, in the "vkcompute" debug category: the tests
// count those lines.
#include <gst/video/video.h>

#include <atomic>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "chain/chain_frames.h"
#include "common/vktest.h"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

namespace {

constexpr GstClockTime kTimeout = chaintest::kTimeout;

// What the runtime's log has said so far.
struct RuntimeLog {
  std::mutex lock;
  int compiled = 0;
  std::map<std::string, int> allocated;        // buffers allocated, by name
  guint64 device_local = 0, host_visible = 0;  // held by the device after the last allocation
  int closed = 0;                              // devices closed
};
RuntimeLog runtime_log;

void ReadRuntimeLog(GstDebugCategory* category, GstDebugLevel, const gchar*, const gchar*, gint, GObject*,
                    GstDebugMessage* message, gpointer) {
  if (g_strcmp0(gst_debug_category_get_name(category), "vkcompute") != 0) return;
  const std::string text = gst_debug_message_get(message);
  static const std::regex allocated(
      "^allocated (.+): [0-9]+ bytes of .* holds ([0-9]+) bytes of device-local and "
      "([0-9]+) of host-visible memory, in [0-9]+ and [0-9]+ bytes allocated from the driver$");
  std::smatch match;
  std::lock_guard<std::mutex> guard(runtime_log.lock);
  if (text.rfind("compiled kernel ", 0) == 0) {
    ++runtime_log.compiled;
  } else if (text.rfind("closed Vulkan device ", 0) == 0) {
    ++runtime_log.closed;
  } else if (std::regex_match(text, match, allocated)) {
    ++runtime_log.allocated[match[1]];
    runtime_log.device_local = std::stoull(match[2]);
    runtime_log.host_visible = std::stoull(match[3]);
  }
}

struct LogSnapshot {
  int compiled;
  std::map<std::string, int> allocated;
  guint64 device_local, host_visible;
};
LogSnapshot Snapshot() {
  std::lock_guard<std::mutex> guard(runtime_log.lock);
  return {runtime_log.compiled, runtime_log.allocated, runtime_log.device_local, runtime_log.host_visible};
}

// A live five-element chain at 30 frames/s, counting the frames that reach its sink.
struct LiveChain {
  GstElement* pipeline = nullptr;
  std::atomic<int> frames{0};

  explicit LiveChain(int width = 160, int height = 90) {
    const std::string description =
        "videotestsrc is-live=true pattern=ball ! video/x-raw,format=RGBA,width=" + std::to_string(width) +
        ",height=" + std::to_string(height) + ",framerate=30/1 ! " + chaintest::Lut() +
        " ! morph operation=close width=9 height=9 ! lumamax ! histogram ! rgb2yuv ! "
        "video/x-raw,format=NV12 ! fakesink name=sink signal-handoffs=true sync=false";
    GError* error = nullptr;
    pipeline = gst_parse_launch(description.c_str(), &error);
    fail_unless(pipeline, "%s: %s", description.c_str(), error ? error->message : "?");
    GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    g_signal_connect(sink, "handoff", G_CALLBACK(+[](GstElement*, GstBuffer*, GstPad*, gpointer data) {
                       ++static_cast<LiveChain*>(data)->frames;
                     }),
                     this);
    gst_object_unref(sink);
  }
  ~LiveChain() {
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
  }

  // Plays until the first frame has reached the sink; fails on an error or when none comes.
  void PlayToFirstFrame() {
    fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
    const gint64 deadline = g_get_monotonic_time() + gint64(kTimeout / GST_USECOND);
    GstBus* bus = gst_element_get_bus(pipeline);
    while (frames.load() == 0) {
      GstMessage* error = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
      if (error) {
        GError* e = nullptr;
        gst_message_parse_error(error, &e, nullptr);
        fail("pipeline failed before its first frame: %s", e->message);
      }
      fail_unless(g_get_monotonic_time() < deadline, "no frame reached the sink");
      g_usleep(2000);
    }
    gst_object_unref(bus);
  }
};

double MiB(guint64 bytes) {
  return double(bytes) / (1024.0 * 1024.0);
}

GST_START_TEST(test_more_pipelines_compile_no_kernel_and_share_what_they_can) {
  auto first = std::make_unique<LiveChain>();
  first->PlayToFirstFrame();
  const LogSnapshot one = Snapshot();
  fail_unless(one.compiled > 0, "the first pipeline compiled no kernel: is the runtime's log read?");
  fail_unless(one.allocated.count("morph working image") == 1, "morph's working images were never allocated");

  constexpr int kMore = 4;
  std::vector<std::unique_ptr<LiveChain>> more;
  for (int i = 0; i < kMore; ++i) more.push_back(std::make_unique<LiveChain>());
  for (auto& chain : more) chain->PlayToFirstFrame();
  const LogSnapshot all = Snapshot();
  fail_unless(all.compiled == one.compiled, "%d more pipelines compiled %d kernels (the first compiled %d)",
              kMore, all.compiled - one.compiled, one.compiled);
  fail_unless(all.allocated.at("morph working image") == one.allocated.at("morph working image"),
              "morph's working images were allocated again (%d after one pipeline, %d after %d)",
              one.allocated.at("morph working image"), all.allocated.at("morph working image"), 1 + kMore);
  fail_unless(all.allocated.at("lut table") == 1,
              "lut's table was put on the device %d times for %d pipelines", all.allocated.at("lut table"),
              1 + kMore);
  // Reported, not asserted: what one more live chain holds at this size (docs/design.md says why).
  std::printf(
      "one live chain (160x90): %.2f MiB device-local, %.2f MiB host-visible; each of %d more: "
      "%.2f MiB device-local, %.2f MiB host-visible\n",
      MiB(one.device_local), MiB(one.host_visible), kMore, MiB(all.device_local - one.device_local) / kMore,
      MiB(all.host_visible - one.host_visible) / kMore);
}
GST_END_TEST;

// Live pipelines stopped at once, each from its own thread as an application serving cameras
// would: every one reaches NULL (the test's timeout bounds it), and the time is printed.
GST_START_TEST(test_many_live_pipelines_reach_null_together) {
  constexpr int kPipelines = 16;
  std::vector<std::unique_ptr<LiveChain>> chains;
  for (int i = 0; i < kPipelines; ++i) chains.push_back(std::make_unique<LiveChain>());
  for (auto& chain : chains) chain->PlayToFirstFrame();
  std::vector<std::thread> stops;
  std::atomic<int> stopped{0};
  const gint64 start = g_get_monotonic_time();
  for (auto& chain : chains)
    stops.emplace_back([&, pipeline = chain->pipeline] {
      if (gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS) ++stopped;
    });
  for (auto& stop : stops) stop.join();
  std::printf("%d live chains reached NULL together in %.3f s\n", kPipelines,
              double(g_get_monotonic_time() - start) / 1e6);
  fail_unless(stopped.load() == kPipelines, "%d of %d pipelines reached NULL", stopped.load(), kPipelines);
}
GST_END_TEST;

// Live chains set to NULL one after another, as an application closing its cameras in turn, with
// their frames in flight and no EOS first: each one reaches NULL, and the times are printed (the
// target, 0.5 s in all, lives in docs/benchmarks.md: a stop waits for its streaming thread, whose
// submissions go before the other pipelines' meanwhile, vkc::QueueLock).
GST_START_TEST(test_live_chains_reach_null_one_after_another) {
  constexpr int kPipelines = 24;
  std::vector<std::unique_ptr<LiveChain>> chains;
  for (int i = 0; i < kPipelines; ++i) chains.push_back(std::make_unique<LiveChain>(64, 48));
  for (auto& chain : chains) chain->PlayToFirstFrame();
  g_usleep(200'000);  // all of them streaming
  const gint64 start = g_get_monotonic_time();
  gint64 longest = 0;
  for (int i = 0; i < kPipelines; ++i) {
    const gint64 before = g_get_monotonic_time();
    fail_unless(gst_element_set_state(chains[i]->pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS,
                "pipeline %d did not reach NULL", i);
    longest = std::max(longest, g_get_monotonic_time() - before);
  }
  std::printf("%d live chains (64x48) set to NULL one after another in %.3f s (the longest %.3f s)\n",
              kPipelines, double(g_get_monotonic_time() - start) / 1e6, double(longest) / 1e6);
  // Their pools' device memory went to the reaper, which frees it once the GPU is past the work
  // before: then the device, which nothing else holds, closes (its driver and layers check what it
  // still holds) while the process goes on.
  chains.clear();
  const gint64 give_up = g_get_monotonic_time() + gint64(kTimeout / GST_USECOND);
  auto closed = [] {
    std::lock_guard<std::mutex> guard(runtime_log.lock);
    return runtime_log.closed;
  };
  while (closed() == 0 && g_get_monotonic_time() < give_up) g_usleep(1000);
  fail_unless_equals_int(closed(), 1);
}
GST_END_TEST;

Suite* stream_cost_suite() {
  Suite* s = suite_create("stream_cost");
  TCase* tc = vktest::NewTCase("stream_cost", 300);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_more_pipelines_compile_no_kernel_and_share_what_they_can);
  tcase_add_test(tc, test_many_live_pipelines_reach_null_together);
  tcase_add_test(tc, test_live_chains_reach_null_one_after_another);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  gst_debug_set_threshold_for_name("vkcompute", GST_LEVEL_DEBUG);
  gst_debug_add_log_function(ReadRuntimeLog, nullptr, nullptr);
  return gst_check_run_suite(stream_cost_suite(), "stream_cost", __FILE__);
}
