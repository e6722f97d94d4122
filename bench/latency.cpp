#include "latency.hpp"

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "journeys.hpp"
#include "many_streams.hpp"
#include "random_frames.hpp"

namespace bench {

namespace {

constexpr guint kSkippedFrames = 30;       // a run's first frames: the pipeline warming up
constexpr gint64 kLeadUs = 100'000;        // the first frame this long after PLAYING
constexpr gint64 kEosWaitUs = 10'000'000;  // for the last frames and EOS after the last push
constexpr gint64 kLogBeforeUs = 20'000;    // --latency-log: the plugin's messages from this long before
// The debug categories of the plugin: its runtime's and base class's, and one per element.
constexpr const char* kCategories[] = {"vkcompute*", "lumamax", "histogram", "lut", "morph", "rgb2yuv"};

// A message of the plugin's debug categories, as --latency-log captures them.
struct LogLine {
  gint64 at_us;
  std::string text;
};

struct LogCapture {
  std::mutex lock;
  std::vector<LogLine> lines;
  GstDebugLevel level = GST_LEVEL_NONE;
};

bool plugin_category(const char* name) {
  for (const char* c : kCategories) {
    const size_t n = strlen(c);
    if (c[n - 1] == '*' ? strncmp(name, c, n - 1) == 0 : strcmp(name, c) == 0) return true;
  }
  return false;
}

void capture_log(GstDebugCategory* category, GstDebugLevel level, const gchar* file, const gchar* function,
                 gint line, GObject* object, GstDebugMessage* message, gpointer data) {
  auto* capture = static_cast<LogCapture*>(data);
  if (level > capture->level || !plugin_category(gst_debug_category_get_name(category))) return;
  const gint64 now = g_get_monotonic_time();
  gchar* text = g_strdup_printf(
      "%s %s %s:%d:%s%s%s %s", gst_debug_level_get_name(level), gst_debug_category_get_name(category), file,
      line, function, object && GST_IS_OBJECT(object) ? " " : "",
      object && GST_IS_OBJECT(object) ? GST_OBJECT_NAME(object) : "", gst_debug_message_get(message));
  std::lock_guard<std::mutex> guard(capture->lock);
  capture->lines.push_back({now, text});
  g_free(text);
}

GstFlowReturn on_sample(GstAppSink* sink, gpointer data) {
  auto* journeys = static_cast<Journeys*>(data);
  GstSample* sample = gst_app_sink_pull_sample(sink);
  if (!sample) return GST_FLOW_ERROR;
  const gint64 now = g_get_monotonic_time();
  const size_t n = journeys->frame_of(gst_sample_get_buffer(sample));
  if (n < journeys->arrived_us.size()) journeys->arrived_us[n] = now;
  gst_sample_unref(sample);
  return GST_FLOW_OK;
}

// Our elements' `gpu-time` (mean GPU time per frame of their timed frames, from Vulkan timestamps;
// GST_VKCOMPUTE_TIMESTAMP_INTERVAL=1 times every frame): what of a frame's wait is the GPU's work.
std::string gpu_times(GstElement* pipeline, const Journeys& j) {
  std::string line;
  for (const ElementTimes& e : j.elements) {
    GstElement* element = gst_bin_get_by_name(GST_BIN(pipeline), e.name.c_str());
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(element), "gpu-time")) {
      gdouble us = 0;
      g_object_get(element, "gpu-time", &us, nullptr);
      char text[96];
      std::snprintf(text, sizeof text, " %s %.1f us;", e.name.c_str(), us);
      line += text;
    }
    gst_object_unref(element);
  }
  return line.empty() ? line : "  gpu-time:" + line + "\n";
}

struct Stats {
  size_t frames = 0, missing = 0;
  double p50_ms = 0, p99_ms = 0, max_ms = 0;
};

// Nearest-rank percentiles of `latencies_ms` (sorted here).
Stats stats_of(std::vector<double>& latencies_ms, size_t missing) {
  Stats s;
  s.frames = latencies_ms.size();
  s.missing = missing;
  if (latencies_ms.empty()) return s;
  std::sort(latencies_ms.begin(), latencies_ms.end());
  auto rank = [&](double q) { return latencies_ms[size_t(std::ceil(q * double(s.frames))) - 1]; };
  s.p50_ms = rank(0.50);
  s.p99_ms = rank(0.99);
  s.max_ms = latencies_ms.back();
  return s;
}

void print_stats(const char* label, const Stats& s) {
  std::printf("%s: %zu frames, p50 %.3f ms, p99 %.3f ms, max %.3f ms; %zu never arrived\n", label, s.frames,
              s.p50_ms, s.p99_ms, s.max_ms, s.missing);
}

// Frame `n`'s journey, and the plugin's messages logged meanwhile when `log` captures them.
void print_path(const Journeys& j, size_t n, const char* which, LogCapture* log) {
  j.print_path(n, which);
  if (!log) return;
  // From a while before it reached the first element: a frame that waited on its way there waited
  // for the streaming thread, busy with the frames before it.
  const gint64 t0 = j.pushed_us[n];
  const gint64 end = j.arrived_us[n] ? j.arrived_us[n] : t0 + kEosWaitUs;
  const gint64 first_in = j.elements.empty() || !j.elements[0].in_us[n] ? t0 : j.elements[0].in_us[n];
  const gint64 start = t0 - (first_in - t0) - kLogBeforeUs;
  std::vector<LogLine> lines;
  {
    std::lock_guard<std::mutex> guard(log->lock);  // any thread may still log
    lines = log->lines;
  }
  for (const LogLine& line : lines)
    if (line.at_us >= start && line.at_us <= end)
      std::printf("    %+.3f ms %s\n", double(line.at_us - t0) / 1e3, line.text.c_str());
}

// One run of `frames` frames, printed; false on a pipeline error or a frame that never arrived. The
// latencies of the frames after the skipped ones are added to `all_ms`, those that never arrived to
// `all_missing`.
bool run_once(const Options& o, const GstVideoInfo& info, size_t frames, int run, std::vector<double>& all_ms,
              size_t& all_missing, LogCapture* log, FILE* json) {
  GstCaps* caps = gst_video_info_to_caps(&info);
  gchar* caps_text = gst_caps_to_string(caps);
  gst_caps_unref(caps);
  const std::string description = std::string("appsrc name=src is-live=true format=time caps=\"") +
                                  caps_text + "\" ! " + o.stream_elements + " ! appsink name=sink sync=false";
  g_free(caps_text);
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(description.c_str(), &error);
  if (!pipeline) {
    std::fprintf(stderr, "latency: %s: %s\n", description.c_str(), error ? error->message : "no pipeline");
    g_clear_error(&error);
    return false;
  }
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  Journeys journeys;
  journeys.watch(src, frames, gst_util_uint64_scale_int(GST_SECOND, info.fps_d, info.fps_n));
  GstAppSinkCallbacks callbacks = {};
  callbacks.new_sample = on_sample;
  gst_app_sink_set_callbacks(GST_APP_SINK(sink), &callbacks, &journeys, nullptr);

  // The frames' contents, copied into a new buffer for each push.
  std::vector<std::vector<uint8_t>> contents(kRingFrames, std::vector<uint8_t>(info.size));
  for (int i = 0; i < kRingFrames; ++i) fill_random_frame(contents[i].data(), info.size, i);

  // --latency-pool: the frames' memory comes back and is pushed again, as from a capture's pool.
  GstBufferPool* pool = nullptr;
  if (o.latency_pool) {
    pool = gst_buffer_pool_new();
    GstStructure* config = gst_buffer_pool_get_config(pool);
    gst_buffer_pool_config_set_params(config, nullptr, guint(info.size), kRingFrames, 0);
    gst_buffer_pool_set_config(pool, config);
    gst_buffer_pool_set_active(pool, TRUE);
  }
  bool ok = gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE;
  if (log) {
    std::lock_guard<std::mutex> guard(log->lock);
    log->lines.clear();
  }
  GstBus* bus = gst_element_get_bus(pipeline);
  const gint64 t0 = g_get_monotonic_time() + kLeadUs;
  const gint64 period_us = gint64(journeys.period_ns / 1000);
  for (size_t n = 0; ok && n < frames; ++n) {
    const gint64 wait = t0 + gint64(n) * period_us - g_get_monotonic_time();
    if (wait > 0) g_usleep(gulong(wait));
    GstBuffer* buffer = nullptr;
    if (pool && gst_buffer_pool_acquire_buffer(pool, &buffer, nullptr) != GST_FLOW_OK) {
      std::fprintf(stderr, "latency: no buffer from the pool\n");
      ok = false;
      break;
    }
    if (!pool) buffer = gst_buffer_new_allocate(nullptr, info.size, nullptr);
    gst_buffer_fill(buffer, 0, contents[n % kRingFrames].data(), info.size);
    GST_BUFFER_PTS(buffer) = n * journeys.period_ns;
    GST_BUFFER_DURATION(buffer) = journeys.period_ns;
    journeys.pushed_us[n] = g_get_monotonic_time();
    ok = gst_app_src_push_buffer(GST_APP_SRC(src), buffer) == GST_FLOW_OK;
    if (GstMessage* m = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR)) {
      gst_message_parse_error(m, &error, nullptr);
      std::fprintf(stderr, "latency: %s\n", error->message);
      g_clear_error(&error);
      gst_message_unref(m);
      ok = false;
    }
  }
  gst_app_src_end_of_stream(GST_APP_SRC(src));
  if (GstMessage* m = gst_bus_timed_pop_filtered(bus, kEosWaitUs * GST_USECOND,
                                                 GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR))) {
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
      gst_message_parse_error(m, &error, nullptr);
      std::fprintf(stderr, "latency: %s\n", error->message);
      g_clear_error(&error);
      ok = false;
    }
    gst_message_unref(m);
  } else {
    std::fprintf(stderr, "latency: no EOS %.0f s after the last frame\n", double(kEosWaitUs) / 1e6);
    ok = false;
  }
  gst_object_unref(bus);
  const std::string gpu = gpu_times(pipeline, journeys);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  if (pool) {
    gst_buffer_pool_set_active(pool, FALSE);
    gst_object_unref(pool);
  }

  std::vector<double> run_ms;
  std::vector<std::pair<double, size_t>> by_latency;  // (ms, frame)
  size_t missing = 0, worst = SIZE_MAX;
  for (size_t n = kSkippedFrames; n < frames; ++n) {
    if (!journeys.arrived_us[n]) {
      missing++;
      continue;
    }
    const double ms = double(journeys.arrived_us[n] - journeys.pushed_us[n]) / 1e3;
    run_ms.push_back(ms);
    by_latency.emplace_back(ms, n);
    if (worst == SIZE_MAX || ms > double(journeys.arrived_us[worst] - journeys.pushed_us[worst]) / 1e3)
      worst = n;
  }
  all_ms.insert(all_ms.end(), run_ms.begin(), run_ms.end());
  all_missing += missing;
  const Stats s = stats_of(run_ms, missing);
  const std::string label = "run " + std::to_string(run);
  print_stats(label.c_str(), s);
  // The first frame's, left out of the figures: what the start costs (the kernels compiling).
  if (journeys.arrived_us[0]) print_path(journeys, 0, "first", nullptr);
  if (worst != SIZE_MAX) print_path(journeys, worst, "worst", log);
  // The slowest few by number: a stall that comes back at a fixed count of frames shows here.
  std::vector<std::pair<double, size_t>> slowest = by_latency;
  const size_t shown = std::min<size_t>(5, slowest.size());
  std::partial_sort(slowest.begin(), slowest.begin() + shown, slowest.end(), std::greater<>());
  std::printf("  slowest frames:");
  for (size_t i = 0; i < shown; ++i) std::printf(" %zu (%.2f ms)", slowest[i].second, slowest[i].first);
  std::printf("\n");
  // And a typical frame's: where the median goes.
  if (!by_latency.empty()) {
    std::nth_element(by_latency.begin(), by_latency.begin() + by_latency.size() / 2, by_latency.end());
    print_path(journeys, by_latency[by_latency.size() / 2].second, "median", log);
  }
  std::fputs(gpu.c_str(), stdout);
  if (json) {
    gchar* elements = g_strescape(o.stream_elements.c_str(), nullptr);
    std::fprintf(json,
                 "{\"run\": %d, \"elements\": \"%s\", \"frames\": %zu, \"missing\": %zu, \"p50_ms\": %.4f, "
                 "\"p99_ms\": %.4f, \"max_ms\": %.4f, \"worst_frame\": %zd}\n",
                 run, elements, s.frames, s.missing, s.p50_ms, s.p99_ms, s.max_ms,
                 worst == SIZE_MAX ? ssize_t(-1) : ssize_t(worst));
    g_free(elements);
  }
  std::fflush(stdout);
  gst_object_unref(src);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  return ok && missing == 0;
}

}  // namespace

int run_latency(const Options& o) {
  const GstVideoFormat format = gst_video_format_from_string(o.stream_format.c_str());
  int width = 0, height = 0;
  if (format == GST_VIDEO_FORMAT_UNKNOWN || !stream_size(o.stream_size, width, height) ||
      o.stream_rate <= 0 || o.latency_frames <= kSkippedFrames) {
    std::fprintf(stderr,
                 "latency: a known --stream-format and --stream-size, a rate > 0 and more than %u frames\n",
                 kSkippedFrames);
    return 2;
  }
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, guint(width), guint(height));
  info.fps_n = o.stream_rate;
  info.fps_d = 1;
  LogCapture capture;
  LogCapture* log = nullptr;
  if (o.latency_log > 0) {
    capture.level = GstDebugLevel(o.latency_log);
    for (const char* c : kCategories) gst_debug_set_threshold_for_name(c, capture.level);
    gst_debug_add_log_function(capture_log, &capture, nullptr);
    log = &capture;
  }
  FILE* json = o.json_path.empty() ? nullptr : std::fopen(o.json_path.c_str(), "a");
  std::printf(
      "latency: appsrc is-live=true ! %s ! appsink; %dx%d %s at %d frames/s, %u frames a run, the first %u "
      "left out; from just before each push to the appsink's new-sample\n",
      o.stream_elements.c_str(), width, height, o.stream_format.c_str(), o.stream_rate, o.latency_frames,
      kSkippedFrames);
  std::vector<double> all_ms;
  size_t all_missing = 0;
  bool ok = true;
  for (int run = 1; run <= o.latency_runs; ++run)
    ok = run_once(o, info, o.latency_frames, run, all_ms, all_missing, log, json) && ok;
  const Stats all = stats_of(all_ms, all_missing);
  print_stats("all runs", all);
  if (json) {
    std::fprintf(json,
                 "{\"run\": \"all\", \"frames\": %zu, \"missing\": %zu, \"p50_ms\": %.4f, \"p99_ms\": %.4f, "
                 "\"max_ms\": %.4f}\n",
                 all.frames, all.missing, all.p50_ms, all.p99_ms, all.max_ms);
    std::fclose(json);
  }
  if (log) gst_debug_remove_log_function(capture_log);
  return ok ? 0 : 1;
}

}  // namespace bench
