#include "many_streams.hpp"

#include "journeys.hpp"
#include "runtime_log.hpp"

#include <dirent.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "cases.hpp"
#include "measurement.hpp"
#include "random_frames.hpp"

namespace bench {

namespace {

// Frames a stream may have taken from its pool beyond the minimum its first element asks for. When
// all are out (the pipeline is that far behind) the source drops the frame, as a camera with a
// fixed ring of buffers does, instead of stalling the other streams of its pacing thread.
constexpr guint kSpareFrames = 4;
constexpr gint64 kTurnUs = 100'000;        // how often the buses are popped and threads counted
constexpr gint64 kLeadUs = 100'000;        // first frames scheduled this long after the setup
constexpr gint64 kAnswerUs = 5'000'000;    // a stream's wait for its caps to reach the first element
constexpr gint64 kRefusalUs = 20'000;      // and then for an ALLOCATION answer
constexpr gint64 kEosWaitUs = 10'000'000;  // for all pipelines together
constexpr gint64 kDropped = -1;            // a pushed_us entry: the pool was empty, frame dropped
constexpr int kNamesShown = 8;             // thread names listed in the report
constexpr gint64 kSlowUs = 5000;           // a frame slower than this counts in the report's timeline
constexpr size_t kWorstShown = 3;          // the slowest frames whose journeys the report shows

struct Settings {
  int streams = 0;
  std::string fragment;  // between appsrc and fakesink, after --stream-identity
  GstVideoInfo info;     // with the frame rate
  int rate = 30;
  gint64 warmup_us = 0, measure_us = 0;
  int per_feeder = 16;
  bool copy_every_frame = false;
  bool stop_in_flight = false;  // NULL with frames in flight, no EOS first
};

// One live pipeline, and its frames' journeys by frame number.
struct Stream {
  int index = 0;
  int rate = 30;
  gint64 offset_us = 0;  // into the period: the streams' pushes are spread over it, not at once
  GstElement* pipeline = nullptr;
  GstAppSrc* src = nullptr;
  GstBus* bus = nullptr;
  GstBufferPool* pool = nullptr;
  bool proposed_pool = false;  // the pool is the first element's answer, not our own
  bool ended = false;          // a push was refused (error, flushing): not fed any more
  // Its frames: pushed_us when gst_app_src_push_buffer was called (0 not yet, kDropped), arrived_us
  // when its sink handed it off (0 never), and when each element got it and passed it on.
  Journeys journeys;
  std::set<GstMemory*> filled;  // the pool's memories written once (pacing thread)
  bool copy_every_frame = false;
};

// The process's threads at one moment: how many, and how many of each name.
struct ThreadCount {
  int total = 0;
  std::map<std::string, int> by_name;
};

// What the run measured, besides the frames' journeys.
struct Observed {
  Measurement window;  // wall and CPU time of the measured window; CPU time by thread name
  gint64 start_us = 0, end_us = 0;
  int threads_start = 0, threads_peak = 0, threads_after = 0;
  ThreadCount threads_end;
  double rss_warm_mib = 0, rss_end_mib = 0;
  double setup_s = 0, eos_s = 0, null_s = 0, null_max_s = 0;
  double first_frames_s = 0;  // from the setup's start to the last stream's first frame at its sink
  RuntimeHeld held_warm;      // what the plugin's log says its devices hold after the warm-up
  RuntimeHeld held_end;       // and at the window's end
  int feeders = 0, proposed_pools = 0, ended = 0;  // ended: pipelines that reached EOS
  std::string error;                               // the first pipeline error
  // Mean `gpu-time` of our elements by factory, over the streams that have timed a window of
  // frames by the window's end (GST_VKCOMPUTE_TIMESTAMP_INTERVAL=8 times enough at 30 frames/s).
  std::map<std::string, double> gpu_us;
  std::map<std::string, double> by_device;  // elements of ours per device index
};

// The frames scheduled inside the window (late, missing) and those that arrived inside it.
struct Tally {
  guint64 scheduled = 0, pushed = 0, dropped = 0, push_late = 0, arrived = 0, sink_late = 0;
  guint64 delivered = 0;                 // frames of any schedule handed off inside the window
  std::map<gint64, int> slow_by_second;  // frames over kSlowUs, by second of their schedule after t0
  double latency_sum_us = 0, latency_max_us = 0;
  struct Latency {
    double us;
    const Stream* stream;
    size_t frame;
    bool operator<(const Latency& other) const { return us < other.us; }
  };
  std::vector<Latency> latencies;  // every arrived frame's, sorted once tallied
  const Latency* at_quantile(double q) const {
    return latencies.empty() ? nullptr : &latencies[size_t(q * double(latencies.size() - 1))];
  }
  double latency_quantile_us(double q) const { return latencies.empty() ? 0 : at_quantile(q)->us; }
  guint64 missing() const { return pushed - arrived; }
  guint64 not_pushed() const { return scheduled - pushed - dropped; }
  double latency_mean_us() const { return arrived ? latency_sum_us / double(arrived) : 0; }
};

gint64 period_us(int rate) {
  return gint64(1e6 / rate);
}

gint64 scheduled_us(gint64 t0, const Stream& s, size_t frame) {
  return t0 + s.offset_us + gint64(double(frame) * 1e6 / s.rate);
}

// ---- settings ----------------------------------------------------------------------------------

// The fragment's links (split at the '!'s outside quotes), trimmed.
std::vector<std::string> links(const std::string& fragment) {
  std::vector<std::string> parts(1);
  char quote = 0;
  for (char ch : fragment) {
    if (quote && ch == quote)
      quote = 0;
    else if (!quote && (ch == '"' || ch == '\''))
      quote = ch;
    if (ch == '!' && !quote)
      parts.emplace_back();
    else
      parts.back() += ch;
  }
  for (auto& part : parts) {
    part.erase(0, part.find_first_not_of(" \t"));
    part.erase(part.find_last_not_of(" \t") + 1);
  }
  return parts;
}

std::string factory_name(const std::string& link) {
  return link.substr(0, link.find_first_of(" \t"));
}

bool is_caps(const std::string& link) {
  const std::string name = factory_name(link);
  return name.find('/') != std::string::npos || name == "capsfilter";
}

bool is_ours(const std::string& link) {
  GstElementFactory* factory = gst_element_factory_find(factory_name(link).c_str());
  if (!factory) return false;
  const gchar* plugin = gst_plugin_feature_get_plugin_name(GST_PLUGIN_FEATURE(factory));
  const bool ours = plugin && std::strcmp(plugin, "vkcompute") == 0;
  gst_object_unref(factory);
  return ours;
}

// The fragment with each element of ours replaced by identity, its properties dropped. A capsfilter
// after one is dropped too: identity does not convert, so the caps a converter of ours produced
// (rgb2yuv ! video/x-raw,format=NV12) would not negotiate.
std::string identity_fragment(const std::string& fragment) {
  std::string out;
  bool replaced = false;
  for (const auto& link : links(fragment)) {
    std::string kept = link;
    if (is_ours(link)) {
      kept = "identity";
      replaced = true;
    } else if (replaced && is_caps(link)) {
      continue;
    }
    out += (out.empty() ? "" : " ! ") + kept;
  }
  return out;
}

bool make_settings(const Options& o, Settings& s) {
  const GstVideoFormat format = gst_video_format_from_string(o.stream_format.c_str());
  int width = 0, height = 0;
  const char* bad = nullptr;
  if (format == GST_VIDEO_FORMAT_UNKNOWN)
    bad = "--stream-format: not a GStreamer video format";
  else if (!stream_size(o.stream_size, width, height))
    bad = "--stream-size: use 1080p, 4k, 360p or WIDTHxHEIGHT";
  else if (o.stream_rate <= 0 || o.streams_per_feeder <= 0)
    bad = "--stream-rate and --streams-per-feeder must be > 0";
  if (bad) {
    std::fprintf(stderr, "%s\n", bad);
    return false;
  }
  gst_video_info_set_format(&s.info, format, guint(width), guint(height));
  s.info.fps_n = o.stream_rate;
  s.info.fps_d = 1;
  s.streams = o.many_streams;
  s.fragment = o.stream_identity ? identity_fragment(o.stream_elements) : o.stream_elements;
  s.rate = o.stream_rate;
  s.warmup_us = gint64(o.warmup_s * 1e6);
  s.measure_us = gint64(o.measure_s * 1e6);
  s.per_feeder = o.streams_per_feeder;
  s.copy_every_frame = o.stream_copy;
  s.stop_in_flight = o.stop_in_flight;
  return true;
}

// ---- process counters --------------------------------------------------------------------------

// Counts the entries of /proc/self/task: cheap enough to sample every turn.
int count_threads() {
  int count = 0;
  if (DIR* dir = opendir("/proc/self/task")) {
    while (dirent* entry = readdir(dir)) count += entry->d_name[0] != '.';
    closedir(dir);
  }
  return count;
}

ThreadCount threads_by_name() {
  ThreadCount count;
  for (const auto& [tid, thread] : thread_cpu_seconds()) {
    ++count.total;
    ++count.by_name[thread.first];
  }
  return count;
}

double rss_mib() {
  std::ifstream statm("/proc/self/statm");
  double pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

// ---- one stream --------------------------------------------------------------------------------

void on_handoff(GstElement*, GstBuffer* buffer, GstPad*, gpointer data) {
  const gint64 now = g_get_monotonic_time();
  auto* s = static_cast<Stream*>(data);
  const size_t frame = s->journeys.frame_of(buffer);
  if (frame < s->journeys.arrived_us.size() && s->journeys.arrived_us[frame] == 0)
    s->journeys.arrived_us[frame] = now;
}

// The first element's answer to an ALLOCATION query, once it has the caps (GstBaseTransform answers
// only when negotiated, and appsrc sends its caps from its own thread); null if none came in time.
// A refusal is retried for kRefusalUs after the caps arrived, in case the element had the caps on
// its pad but not yet in its state; then it is final (fakesink answers no, identity forwards that).
GstQuery* allocation_answer(GstPad* src, GstCaps* caps) {
  gint64 deadline = g_get_monotonic_time() + kAnswerUs;
  for (bool negotiated = false;; g_usleep(1000)) {
    if (!negotiated) {
      GstPad* peer = gst_pad_get_peer(src);
      negotiated = peer && gst_pad_has_current_caps(peer);
      if (peer) gst_object_unref(peer);
      if (negotiated) deadline = std::min(deadline, g_get_monotonic_time() + kRefusalUs);
    }
    if (negotiated) {
      GstQuery* query = gst_query_new_allocation(caps, TRUE);
      if (gst_pad_peer_query(src, query)) return query;
      gst_query_unref(query);
    }
    if (g_get_monotonic_time() > deadline) return nullptr;
  }
}

bool activate(GstBufferPool* pool, GstCaps* caps, guint size, guint min) {
  GstStructure* config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, caps, size, min, min + kSpareFrames);
  if (gst_buffer_pool_has_option(pool, GST_BUFFER_POOL_OPTION_VIDEO_META))
    gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  return gst_buffer_pool_set_config(pool, config) && gst_buffer_pool_set_active(pool, TRUE);
}

// The pool the stream's frames come from, as a real source's: the first element's, else our own.
GstBufferPool* frame_pool(GstPad* src, GstCaps* caps, const GstVideoInfo& info, bool& proposed) {
  GstBufferPool* pool = nullptr;
  guint size = 0, min = 0;
  if (GstQuery* answer = allocation_answer(src, caps)) {
    if (gst_query_get_n_allocation_pools(answer) > 0)
      gst_query_parse_nth_allocation_pool(answer, 0, &pool, &size, &min, nullptr);
    gst_query_unref(answer);
  }
  size = std::max(size, guint(info.size));
  proposed = pool && activate(pool, caps, size, std::max(min, 2u));
  if (proposed) return pool;
  if (pool) gst_object_unref(pool);
  pool = gst_video_buffer_pool_new();
  if (!activate(pool, caps, guint(info.size), 2)) gst_clear_object(&pool);
  return pool;
}

// An error message of stream `stream`, as text: the stream, the element, the error, its details.
std::string error_text(GstMessage* msg, int stream) {
  GError* error = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_error(msg, &error, &debug);
  std::string text = "stream " + std::to_string(stream) + ": " + GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)) +
                     ": " + error->message + (debug ? std::string(" (") + debug + ")" : "");
  g_error_free(error);
  g_free(debug);
  return text;
}

// Builds the stream's pipeline, starts it and takes its pool; an error says why it could not.
std::string start_stream(Stream& s, const Settings& settings, GstCaps* caps, size_t frames) {
  const std::string description =
      "appsrc name=src is-live=true format=time do-timestamp=false block=false max-buffers=0 "
      "max-bytes=0 ! " +
      settings.fragment + " ! fakesink name=sink sync=false enable-last-sample=false signal-handoffs=true";
  GError* error = nullptr;
  s.pipeline = gst_parse_launch(description.c_str(), &error);
  if (error) {
    std::string text = std::string("stream ") + std::to_string(s.index) + ": " + error->message;
    g_error_free(error);
    return text;
  }
  s.src = GST_APP_SRC(gst_bin_get_by_name(GST_BIN(s.pipeline), "src"));
  s.journeys.watch(GST_ELEMENT(s.src), frames, GST_SECOND / guint64(settings.rate));
  GstElement* sink = gst_bin_get_by_name(GST_BIN(s.pipeline), "sink");
  g_signal_connect(sink, "handoff", G_CALLBACK(on_handoff), &s);
  gst_object_unref(sink);
  s.bus = gst_element_get_bus(s.pipeline);
  gst_app_src_set_caps(s.src, caps);
  if (gst_element_set_state(s.pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    GstMessage* msg = gst_bus_pop_filtered(s.bus, GST_MESSAGE_ERROR);
    std::string text =
        msg ? error_text(msg, s.index) : "stream " + std::to_string(s.index) + ": did not start";
    if (msg) gst_message_unref(msg);
    return text;
  }
  GstPad* pad = gst_element_get_static_pad(GST_ELEMENT(s.src), "src");
  s.pool = frame_pool(pad, caps, settings.info, s.proposed_pool);
  gst_object_unref(pad);
  return s.pool ? "" : "stream " + std::to_string(s.index) + ": no buffer pool could be activated";
}

void release_stream(Stream& s) {
  if (s.pool) {
    gst_buffer_pool_set_active(s.pool, FALSE);
    gst_object_unref(s.pool);
  }
  if (s.src) gst_object_unref(s.src);
  if (s.bus) gst_object_unref(s.bus);
  if (s.pipeline) gst_object_unref(s.pipeline);
}

// ---- feeding -----------------------------------------------------------------------------------

// kRingFrames frames of seeded random content, mapped once. Stream s's frame i is a copy of frame
// (s + i) % kRingFrames: streams differ from their neighbours and change from frame to frame, and
// the copy reads memory that stays small whatever the number of streams.
class PreparedFrames {
 public:
  explicit PreparedFrames(const GstVideoInfo& info) {
    for (int i = 0; i < kRingFrames; ++i) {
      GstBuffer* buffer = gst_buffer_new_allocate(nullptr, info.size, nullptr);
      GstMapInfo map;
      gst_buffer_map(buffer, &map, GST_MAP_WRITE);
      fill_random_frame(map.data, map.size, i);
      gst_buffer_unmap(buffer, &map);
      gst_video_frame_map(&frames_[i], &info, buffer, GST_MAP_READ);  // holds a reference
      gst_buffer_unref(buffer);
    }
  }
  ~PreparedFrames() {
    for (auto& frame : frames_) gst_video_frame_unmap(&frame);
  }
  PreparedFrames(const PreparedFrames&) = delete;
  PreparedFrames& operator=(const PreparedFrames&) = delete;

  const GstVideoFrame& content(int stream, size_t frame) const {
    return frames_[(size_t(stream) + frame) % kRingFrames];
  }

 private:
  GstVideoFrame frames_[kRingFrames];
};

// Pushes frame `frame` of the stream in a buffer of its pool, or drops it when the pool is empty.
// A buffer is written the first time the stream gets it (unless every frame is copied): a camera's
// frames reach memory by DMA, and the CPU of a copy per frame (8 MB at 1080p RGBA) would measure
// the harness, not the elements.
void feed(Stream& s, size_t frame, const GstVideoFrame& content) {
  GstBufferPoolAcquireParams params{};
  params.flags = GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT;
  GstBuffer* buffer = nullptr;
  if (gst_buffer_pool_acquire_buffer(s.pool, &buffer, &params) != GST_FLOW_OK) {
    s.journeys.pushed_us[frame] = kDropped;
    return;
  }
  GstVideoFrame target;
  const bool fill = s.copy_every_frame || s.filled.insert(gst_buffer_peek_memory(buffer, 0)).second;
  if (fill && gst_video_frame_map(&target, &content.info, buffer, GST_MAP_WRITE)) {
    gst_video_frame_copy(&target, &content);
    gst_video_frame_unmap(&target);
  }
  GST_BUFFER_PTS(buffer) = gst_util_uint64_scale(frame, GST_SECOND, guint64(s.rate));
  GST_BUFFER_DURATION(buffer) = gst_util_uint64_scale(1, GST_SECOND, guint64(s.rate));
  s.journeys.pushed_us[frame] = g_get_monotonic_time();
  if (gst_app_src_push_buffer(s.src, buffer) != GST_FLOW_OK) s.ended = true;
}

// One pacing thread: feeds its streams' frames, each at its time, until `stop` (after the window:
// the load lasts to its end, and the thread is there when the threads are counted). The group's
// offsets increase within one period, so taking its streams in turn, frame after frame, follows the
// schedule in time order.
void feed_group(const std::vector<Stream*>& group, const PreparedFrames& frames, gint64 t0,
                const std::atomic<bool>& stop) {
  pthread_setname_np(pthread_self(), "bench-feeder");
  prctl(PR_SET_TIMERSLACK, 1000);  // ns; the default 50 us would delay every push by up to as much
  for (size_t frame = 0;; ++frame) {
    for (Stream* s : group) {
      if (stop || frame >= s->journeys.pushed_us.size()) return;
      const gint64 ahead = scheduled_us(t0, *s, frame) - g_get_monotonic_time();
      if (ahead > 0) g_usleep(gulong(ahead));
      if (!s->ended) feed(*s, frame, frames.content(s->index, frame));
    }
  }
}

// Stream s goes to thread s % threads, so that each thread's pushes spread over the period too.
std::vector<std::thread> start_feeders(std::vector<Stream>& streams, const Settings& settings,
                                       const PreparedFrames& frames, gint64 t0,
                                       const std::atomic<bool>& stop) {
  const size_t count = (streams.size() + size_t(settings.per_feeder) - 1) / size_t(settings.per_feeder);
  std::vector<std::vector<Stream*>> groups(count);
  for (auto& s : streams) groups[size_t(s.index) % count].push_back(&s);
  std::vector<std::thread> feeders;
  for (auto& group : groups) feeders.emplace_back(feed_group, group, std::cref(frames), t0, std::cref(stop));
  return feeders;
}

// ---- the run -----------------------------------------------------------------------------------

// Pops every message from every bus, as an application's main loop would (element messages would
// pile up otherwise); returns the first error's text.
std::string pop_buses(std::vector<Stream>& streams) {
  std::string first;
  for (auto& s : streams) {
    while (GstMessage* msg = gst_bus_pop(s.bus)) {
      if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR && first.empty()) first = error_text(msg, s.index);
      gst_message_unref(msg);
    }
  }
  return first;
}

// Pops the buses every turn until `until` or an error; counts the threads at each turn.
void watch(std::vector<Stream>& streams, gint64 until, Observed& o) {
  while (o.error.empty()) {
    o.error = pop_buses(streams);
    o.threads_peak = std::max(o.threads_peak, count_threads());
    const gint64 left = until - g_get_monotonic_time();
    if (left <= 0) return;
    g_usleep(gulong(std::min(left, kTurnUs)));
  }
}

// Sets up every stream; the first that fails ends the setup with its error.
std::string start_streams(std::vector<Stream>& streams, const Settings& settings) {
  GstCaps* caps = gst_video_info_to_caps(&settings.info);
  // The frames scheduled up to the window's end, and a second more for the pacing threads, which
  // go on until the counters at the end have been read.
  const size_t frames =
      size_t(double(settings.warmup_us + settings.measure_us + kLeadUs) * settings.rate / 1e6) +
      size_t(settings.rate) + 2;
  std::string error;
  for (auto& s : streams) {
    s.index = int(&s - streams.data());
    s.rate = settings.rate;
    s.copy_every_frame = settings.copy_every_frame;
    s.offset_us = period_us(settings.rate) * s.index / settings.streams;
    if (!(error = start_stream(s, settings, caps, frames)).empty()) break;
  }
  gst_caps_unref(caps);
  return error;
}

// EOS into every appsrc, then every bus awaited for it until one deadline for all.
void end_streams(std::vector<Stream>& streams, Observed& o) {
  const gint64 start = g_get_monotonic_time(), deadline = start + kEosWaitUs;
  for (auto& s : streams) gst_app_src_end_of_stream(s.src);
  for (auto& s : streams) {
    const gint64 left = std::max<gint64>(0, deadline - g_get_monotonic_time());
    GstMessage* msg = gst_bus_timed_pop_filtered(s.bus, GstClockTime(left) * GST_USECOND,
                                                 GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    if (!msg) continue;
    if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_EOS)
      ++o.ended;
    else if (o.error.empty())
      o.error = error_text(msg, s.index);
    gst_message_unref(msg);
  }
  o.eos_s = double(g_get_monotonic_time() - start) / 1e6;
}

void stop_streams(std::vector<Stream>& streams, Observed& o) {
  const gint64 start = g_get_monotonic_time();
  for (auto& s : streams) {
    if (!s.pipeline) continue;
    const gint64 one = g_get_monotonic_time();
    gst_element_set_state(s.pipeline, GST_STATE_NULL);
    o.null_max_s = std::max(o.null_max_s, double(g_get_monotonic_time() - one) / 1e6);
  }
  o.null_s = double(g_get_monotonic_time() - start) / 1e6;
}

// Calls `fn` with each element of our plugin (those with `device-index`) in every stream.
template <typename Fn>
void for_each_of_ours(const std::vector<Stream>& streams, Fn fn) {
  for (const auto& s : streams) {
    GstIterator* it = gst_bin_iterate_elements(GST_BIN(s.pipeline));
    GValue item = G_VALUE_INIT;
    while (gst_iterator_next(it, &item) == GST_ITERATOR_OK) {
      auto* element = GST_ELEMENT(g_value_get_object(&item));
      if (g_object_class_find_property(G_OBJECT_GET_CLASS(element), "device-index")) fn(element);
      g_value_reset(&item);
    }
    g_value_unset(&item);
    gst_iterator_free(it);
  }
}

// Our elements' mean `gpu-time` by factory, over the streams where it is known.
std::map<std::string, double> gpu_times(const std::vector<Stream>& streams) {
  std::map<std::string, std::pair<double, int>> sums;
  for_each_of_ours(streams, [&](GstElement* element) {
    double us = 0;
    g_object_get(element, "gpu-time", &us, nullptr);
    if (us > 0) {
      auto& sum = sums[GST_OBJECT_NAME(gst_element_get_factory(element))];
      sum.first += us;
      sum.second++;
    }
  });
  std::map<std::string, double> means;
  for (const auto& [name, sum] : sums) means[name] = sum.first / sum.second;
  return means;
}

// How many of our elements run on each device ("device 0" ...), as the automatic choice spread them.
std::map<std::string, double> elements_by_device(const std::vector<Stream>& streams) {
  std::map<std::string, double> count;
  for_each_of_ours(streams, [&](GstElement* element) {
    gint index = -1;
    g_object_get(element, "device-index", &index, nullptr);
    count["device " + std::to_string(index)] += 1;
  });
  return count;
}

// Warm-up, then the measured window with its counters read at either end.
void run_window(std::vector<Stream>& streams, gint64 t0, const Settings& settings, Observed& o) {
  watch(streams, t0 + settings.warmup_us, o);
  if (!o.error.empty()) return;
  // From here this thread, which pops the buses, is "bench-bus"; threads started before keep
  // the process's name.
  pthread_setname_np(pthread_self(), "bench-bus");
  o.rss_warm_mib = rss_mib();
  o.held_warm = runtime_held();
  o.threads_start = o.threads_peak = count_threads();
  o.start_us = g_get_monotonic_time();
  Window window;
  window.start();
  watch(streams, t0 + settings.warmup_us + settings.measure_us, o);
  window.stop(o.window, 0);
  o.end_us = g_get_monotonic_time();
  o.threads_end = threads_by_name();
  o.rss_end_mib = rss_mib();
  o.held_end = runtime_held();
  o.gpu_us = gpu_times(streams);
  o.by_device = elements_by_device(streams);
}

// Late and missing frames among those scheduled inside the window; throughput from those handed off
// while the counters ran.
Tally tally(const std::vector<Stream>& streams, const Settings& settings, gint64 t0, const Observed& o) {
  const gint64 start = t0 + settings.warmup_us, end = start + settings.measure_us;
  Tally t;
  for (const auto& s : streams) {
    const gint64 period = period_us(s.rate);
    for (size_t i = 0; i < s.journeys.pushed_us.size(); ++i) {
      const gint64 at = scheduled_us(t0, s, i), pushed = s.journeys.pushed_us[i],
                   arrived = s.journeys.arrived_us[i];
      t.delivered += arrived >= o.start_us && arrived < o.end_us;
      if (at < start || at >= end) continue;
      ++t.scheduled;
      if (pushed == kDropped) ++t.dropped;
      if (pushed <= 0) continue;
      ++t.pushed;
      t.push_late += pushed - at > period;
      if (!arrived) continue;
      ++t.arrived;
      t.sink_late += arrived - at > period;
      t.latency_sum_us += double(arrived - pushed);
      t.latency_max_us = std::max(t.latency_max_us, double(arrived - pushed));
      t.latencies.push_back({double(arrived - pushed), &s, i});
      if (arrived - pushed > kSlowUs) t.slow_by_second[(at - t0) / G_USEC_PER_SEC]++;
    }
  }
  std::sort(t.latencies.begin(), t.latencies.end());
  return t;
}

// ---- the report --------------------------------------------------------------------------------

// The `count` largest entries of `values`, as "name value[unit], ..." with `decimals` decimals.
template <typename T>
std::string largest(const std::map<std::string, T>& values, size_t count, int decimals, const char* unit) {
  std::vector<std::pair<std::string, T>> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text;
  for (size_t i = 0; i < sorted.size() && i < count; ++i) {
    char value[32];
    std::snprintf(value, sizeof value, "%.*f%s", decimals, double(sorted[i].second), unit);
    text += (text.empty() ? "" : ", ") + sorted[i].first + " " + value;
  }
  if (sorted.size() > count) text += ", ... (" + std::to_string(sorted.size()) + " names)";
  return text;
}

void print_report(const Options& options, const Settings& settings, const Observed& o, const Tally& t) {
  const Measurement& w = o.window;
  const double fps = w.seconds > 0 ? double(t.delivered) / w.seconds : 0;
  const double cpu_us = t.delivered ? 1e6 * w.cpu_seconds / double(t.delivered) : 0;
  std::printf("many-streams: %d streams of \"%s\", %s %dx%d at %d fps, %g s measured after %g s warm-up\n",
              settings.streams, settings.fragment.c_str(), options.stream_format.c_str(),
              GST_VIDEO_INFO_WIDTH(&settings.info), GST_VIDEO_INFO_HEIGHT(&settings.info), settings.rate,
              options.measure_s, options.warmup_s);
  std::printf("  setup: %.2f s; frames from the first element's pool in %d streams, our own pool in %d\n",
              o.setup_s, o.proposed_pools, settings.streams - o.proposed_pools);
  std::printf("  pacing threads: %d (%d streams each at most)\n", o.feeders, settings.per_feeder);
  std::printf("  delivered to sinks: %.1f frames/s (schedule: %d)\n", fps, settings.streams * settings.rate);
  std::printf("  frames scheduled in the window: %" G_GUINT64_FORMAT
              "; dropped at the source (pool empty) %" G_GUINT64_FORMAT ", not pushed %" G_GUINT64_FORMAT
              "\n",
              t.scheduled, t.dropped, t.not_pushed());
  std::printf("  late (over one period after their schedule): pushes %" G_GUINT64_FORMAT
              ", at the sink %" G_GUINT64_FORMAT "; pushed but never arrived %" G_GUINT64_FORMAT "\n",
              t.push_late, t.sink_late, t.missing());
  std::printf("  push-to-sink latency: mean %.2f ms, p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
              t.latency_mean_us() / 1e3, t.latency_quantile_us(0.5) / 1e3, t.latency_quantile_us(0.99) / 1e3,
              t.latency_max_us / 1e3);
  // When they were slow: all at once (something of the process or the GPU) or spread out.
  std::string slow;
  for (const auto& [second, count] : t.slow_by_second)
    slow += " " + std::to_string(second) + " s: " + std::to_string(count) + ";";
  std::printf("  frames over %.0f ms by second of their schedule:%s\n", kSlowUs / 1e3,
              slow.empty() ? " none" : slow.c_str());
  // Which element held the slowest frames, and the one at the 99th percentile.
  for (size_t i = 0; i < std::min<size_t>(kWorstShown, t.latencies.size()); ++i) {
    const Tally::Latency& l = t.latencies[t.latencies.size() - 1 - i];
    l.stream->journeys.print_path(l.frame, "stream " + std::to_string(l.stream->index) + ", slowest");
  }
  if (const Tally::Latency* l = t.at_quantile(0.99))
    l->stream->journeys.print_path(l->frame, "stream " + std::to_string(l->stream->index) + ", p99");
  std::printf("  CPU: %.1f us per delivered frame (%.2f cores)\n", cpu_us,
              w.seconds > 0 ? w.cpu_seconds / w.seconds : 0);
  std::printf("  CPU by thread name: %s\n", largest(w.cpu_seconds_by_thread, kNamesShown, 2, " s").c_str());
  if (!o.gpu_us.empty())
    std::printf("  GPU time per frame by element (mean over streams): %s\n",
                largest(o.gpu_us, kNamesShown, 1, " us").c_str());
  if (!o.by_device.empty())
    std::printf("  elements of ours by device: %s\n", largest(o.by_device, kNamesShown, 0, "").c_str());
  std::printf("  threads: %d at the window's start, %d at peak, %d at its end, %d once all are freed\n",
              o.threads_start, o.threads_peak, o.threads_end.total, o.threads_after);
  std::printf("  threads by name at the end: %s\n",
              largest(o.threads_end.by_name, kNamesShown, 0, "").c_str());
  std::printf("  memory: peak RSS %.0f MiB; RSS %.0f MiB after the warm-up, %.0f MiB at the end\n",
              peak_rss_mib(), o.rss_warm_mib, o.rss_end_mib);
  const double mib = 1024.0 * 1024.0;
  for (const auto& [when, held] : {std::pair{"after the warm-up", &o.held_warm}, {"at the end", &o.held_end}})
    std::printf(
        "  our memory (the plugin's log) %s: %.1f MiB device-local, %.1f MiB host-visible, %.1f and %.1f MiB "
        "per stream; allocated from the driver %.1f MiB device-local and %.1f MiB host-visible, %.1f and "
        "%.1f per stream\n",
        when, double(held->device_local) / mib, double(held->host_visible) / mib,
        double(held->device_local) / mib / settings.streams,
        double(held->host_visible) / mib / settings.streams, double(held->allocated_device_local) / mib,
        double(held->allocated_host_visible) / mib,
        double(held->allocated_device_local) / mib / settings.streams,
        double(held->allocated_host_visible) / mib / settings.streams);
  // In a steady window nothing is made or freed: a pool or a stream's copies that keep doing so
  // (growing and giving back, moving to fuller blocks) cost whoever acquires (a feeder, zeroing and
  // filling each new frame) and, for frames another GPU imported, a new import each time.
  const int made = o.held_end.allocations - o.held_warm.allocations;
  const int freed = o.held_end.frees - o.held_warm.frees;
  std::printf("  buffers of ours made in the window: %d, freed: %d\n", made, freed);
  // The pools of hundreds of streams give back what their start made for longer than a short warm-up:
  // 400 live NV12 streams freed 4 808 buffers in a 6 s window after 5 s, and cost 189 µs a frame
  // against 125 after 20 s (lent H200, runs 216-217). Such a window does not measure the steady state.
  if (freed > 0 && uint64_t(freed) * 100 > t.scheduled)
    std::printf(
        "  note: the pools were still giving back what the start made (%d frees for %" G_GUINT64_FORMAT
        " frames scheduled): a longer --warmup measures the steady state\n",
        freed, t.scheduled);
  std::printf("  kernels compiled: %d\n", o.held_end.kernels_compiled);
  std::printf(
      "  start: setup %.2f s; every stream's first frame at its sink %.2f s after the setup began "
      "(its schedule's wait excluded)\n",
      o.setup_s, o.first_frames_s);
  if (settings.stop_in_flight)
    std::printf("  stop: no EOS, frames in flight; all to NULL in %.3f s (longest %.3f s)\n", o.null_s,
                o.null_max_s);
  else
    std::printf("  stop: EOS from %d of %d pipelines in %.2f s; all to NULL in %.2f s (longest %.3f s)\n",
                o.ended, settings.streams, o.eos_s, o.null_s, o.null_max_s);
}

// The report's numbers on one line, a serialized GstStructure, as the other modes print theirs.
void print_result(const Options& options, const Settings& settings, const Observed& o, const Tally& t) {
  const Measurement& w = o.window;
  GstStructure* s = gst_structure_new(
      "many-streams", "status", G_TYPE_STRING, o.error.empty() ? "ok" : o.error.c_str(), "streams",
      G_TYPE_INT, settings.streams, "elements", G_TYPE_STRING, settings.fragment.c_str(), "format",
      G_TYPE_STRING, options.stream_format.c_str(), "width", G_TYPE_INT, GST_VIDEO_INFO_WIDTH(&settings.info),
      "height", G_TYPE_INT, GST_VIDEO_INFO_HEIGHT(&settings.info), "rate", G_TYPE_INT, settings.rate,
      "seconds", G_TYPE_DOUBLE, w.seconds, "fps", G_TYPE_DOUBLE,
      w.seconds > 0 ? double(t.delivered) / w.seconds : 0, "scheduled", G_TYPE_UINT64, t.scheduled, "dropped",
      G_TYPE_UINT64, t.dropped, "push-late", G_TYPE_UINT64, t.push_late, "sink-late", G_TYPE_UINT64,
      t.sink_late, "missing", G_TYPE_UINT64, t.missing(), "latency-mean-ms", G_TYPE_DOUBLE,
      t.latency_mean_us() / 1e3, "latency-max-ms", G_TYPE_DOUBLE, t.latency_max_us / 1e3, "latency-p99-ms",
      G_TYPE_DOUBLE, t.latency_quantile_us(0.99) / 1e3, "cpu-us-per-frame", G_TYPE_DOUBLE,
      t.delivered ? 1e6 * w.cpu_seconds / double(t.delivered) : 0.0, "threads-peak", G_TYPE_INT,
      o.threads_peak, "threads-end", G_TYPE_INT, o.threads_end.total, "peak-rss-mib", G_TYPE_DOUBLE,
      peak_rss_mib(), "rss-warm-mib", G_TYPE_DOUBLE, o.rss_warm_mib, "rss-end-mib", G_TYPE_DOUBLE,
      o.rss_end_mib, "eos", G_TYPE_INT, o.ended, "null-s", G_TYPE_DOUBLE, o.null_s, "setup-s", G_TYPE_DOUBLE,
      o.setup_s, "first-frames-s", G_TYPE_DOUBLE, o.first_frames_s, "device-local-mib", G_TYPE_DOUBLE,
      double(o.held_warm.device_local) / 1048576.0, "host-visible-mib", G_TYPE_DOUBLE,
      double(o.held_warm.host_visible) / 1048576.0, "device-local-end-mib", G_TYPE_DOUBLE,
      double(o.held_end.device_local) / 1048576.0, "host-visible-end-mib", G_TYPE_DOUBLE,
      double(o.held_end.host_visible) / 1048576.0, "allocated-device-local-end-mib", G_TYPE_DOUBLE,
      double(o.held_end.allocated_device_local) / 1048576.0, "allocated-host-visible-end-mib", G_TYPE_DOUBLE,
      double(o.held_end.allocated_host_visible) / 1048576.0, "made-in-window", G_TYPE_INT,
      o.held_end.allocations - o.held_warm.allocations, "freed-in-window", G_TYPE_INT,
      o.held_end.frees - o.held_warm.frees, "kernels-compiled", G_TYPE_INT, o.held_end.kernels_compiled,
      nullptr);
  gchar* text = gst_structure_to_string(s);
  std::printf("RESULT %s\n", text);
  g_free(text);
  gst_structure_free(s);
}

}  // namespace

bool stream_size(const std::string& text, int& width, int& height) {
  const FrameSize size = frame_size(text);
  width = size.width, height = size.height;
  return width > 0;
}

int run_many_streams(const Options& options) {
  Settings settings;
  if (!make_settings(options, settings)) return 2;
  // A hung pipeline ends the run (SIGALRM) rather than the device machine's time.
  alarm(unsigned((settings.warmup_us + settings.measure_us + kEosWaitUs) / 1'000'000) + 300);
  std::vector<Stream> streams(size_t(settings.streams));  // never resized: the sinks hold pointers
  Observed o;
  read_runtime_log();
  const gint64 setup = g_get_monotonic_time();
  o.error = start_streams(streams, settings);
  o.setup_s = double(g_get_monotonic_time() - setup) / 1e6;
  for (const auto& s : streams) o.proposed_pools += s.proposed_pool;

  gint64 t0 = 0;  // frame 0 of stream 0 is scheduled then
  if (o.error.empty()) {
    const PreparedFrames frames(settings.info);
    t0 = g_get_monotonic_time() + kLeadUs;
    std::atomic<bool> stop{false};
    std::vector<std::thread> feeders = start_feeders(streams, settings, frames, t0, stop);
    o.feeders = int(feeders.size());
    run_window(streams, t0, settings, o);
    stop = true;
    for (auto& feeder : feeders) feeder.join();
    if (!settings.stop_in_flight) end_streams(streams, o);
  }
  stop_streams(streams, o);
  for (auto& s : streams) release_stream(s);
  o.threads_after = count_threads();

  // Each stream's first frame: the setup, then its journey from the schedule (which waits
  // kLeadUs and the stream's offset, the same with identity) to the sink.
  for (const auto& s : streams)
    if (!s.journeys.arrived_us.empty() && s.journeys.arrived_us[0] != 0)
      o.first_frames_s = std::max(
          o.first_frames_s, o.setup_s + double(s.journeys.arrived_us[0] - scheduled_us(t0, s, 0)) / 1e6);
  const Tally t = tally(streams, settings, t0, o);
  if (o.feeders > 0) {  // not when the setup failed: nothing ran
    print_report(options, settings, o, t);
    print_result(options, settings, o, t);
  }
  if (!o.error.empty()) std::fprintf(stderr, "vkcompute-bench: error: %s\n", o.error.c_str());
  if (o.error.empty() && t.delivered == 0) std::fprintf(stderr, "vkcompute-bench: no frame arrived\n");
  return o.error.empty() && t.delivered > 0 ? 0 : 1;
}

}  // namespace bench
