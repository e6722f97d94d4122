// vkcompute-decode-bench: K streams of a clip decoded by NVIDIA's decoders into our elements, in one
// process, on the lent GPU (bench/gpu-decode.sh, issue 31):
//
//   vkcompute-decode-bench --clip FILE --decoder "qtdemux ! h264parse ! nvh264dec" --streams K
//       --memory gpu|system [--elements "lumamax ! histogram"] [--live] [--warmup S] [--window S]
//
// Each stream is `filesrc ! DECODER [! video/x-raw] [! ELEMENTS] ! fakesink`: with --memory gpu the
// frames stay in the decoder's memory (NVIDIA's CUDA memory, or the Vulkan images of GStreamer's
// Vulkan decoders: our elements read them on the GPU), with system they go through system memory
// (`video/x-raw` after the decoder, or a DECODER that ends in vulkandownload); without --elements, decode
// alone, the ceiling. After --warmup seconds (2) it counts, over --window seconds (3), the frames that reach
// the sinks and the CPU time of the whole process (getrusage): frames/s and CPU per frame. With --live the
// sinks play in real time (sync=true, 30 frames/s for the clips of bundle.sh --media; stream i's frames due
// i/K of a frame interval later than stream 0's) and a frame that reaches its sink after its time is late
// (the first ones listed after the result: stream, frame, how late, when); unpaced otherwise. Also reports
// the uploads and downloads our elements counted (0 on the GPU path: no CPU copy of a frame), and whether a
// stream ended inside the window (the numbers then undercount: use a longer clip or fewer streams). With
// --queue a queue after the decoder runs the elements in a thread of their own: the CPU of the queues'
// threads and of our completion service's, per frame, is then the elements' own (with the queue's, which
// decode alone with --queue shows), apart from the decoder's, whose CUDA calls spin while the GPU is busy
// (the whole process's CPU per frame grows with the GPU's load). The same CPU by group of threads (the
// queues', our completion service's "wait", its workers' "done"), with how often they went to sleep, per
// frame: where an element's cost sits, and how many hand-overs a frame takes.
#include <dirent.h>
#include <gst/base/gstbasesink.h>
#include <gst/gst.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

constexpr gint64 kFrameInterval = GST_SECOND / 30;  // the clips' (bundle.sh --media)

struct Options {
  std::string clip;
  std::string decoder = "qtdemux ! h264parse ! nvh264dec";
  std::string elements;
  std::string memory = "gpu";
  int streams = 8;
  bool live = false;
  double warmup_s = 2;
  double window_s = 3;
  bool queue = false;
};

// What the sinks' probes count.
struct Counts {
  std::atomic<bool> window_open{false};
  std::atomic<uint64_t> frames{0};  // at the sinks, from the start
  std::atomic<uint64_t> late{0};    // in the window (--live)
  std::atomic<uint64_t> ended{0};   // streams that reached EOS
};
Counts g_counts;

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// Whether a thread runs the elements after the decoder: a queue's (--queue) or one of our plugin's
// ("vkc0:wait", "vkc:reaper"). Not every "vkc" name: threads made by the main thread, the Vulkan and
// CUDA drivers' among them, are named after this program ("vkcompute-decod").
bool element_thread(const std::string& comm) {
  return comm.rfind("queue", 0) == 0 ||
         (comm.rfind("vkc", 0) == 0 && comm.size() > 3 && (comm[3] == ':' || g_ascii_isdigit(comm[3])));
}

// A group of element threads (element_thread()): "queue" for the queues', else the part of our
// threads' names after the colon ("wait" for the completion service, "done" for its workers).
std::string thread_group(const std::string& comm) {
  if (comm.rfind("queue", 0) == 0) return "queue";
  const size_t colon = comm.find(':');
  return colon == std::string::npos ? comm : comm.substr(colon + 1);
}

// CPU time (ns, from /proc's schedstat) and the times a thread went to sleep (voluntary context
// switches), of the process's element threads by thread_group(); the threads' sum under "all".
struct ThreadCost {
  uint64_t cpu_ns = 0;
  uint64_t sleeps = 0;
};
using ThreadCosts = std::map<std::string, ThreadCost>;

ThreadCosts element_thread_costs() {
  ThreadCosts costs;
  DIR* tasks = opendir("/proc/self/task");
  if (!tasks) return costs;
  while (dirent* task = readdir(tasks)) {
    if (task->d_name[0] == '.') continue;
    const std::string dir = std::string("/proc/self/task/") + task->d_name;
    std::string comm;
    std::getline(std::ifstream(dir + "/comm"), comm);
    uint64_t ns = 0;
    if (!element_thread(comm) || !(std::ifstream(dir + "/schedstat") >> ns)) continue;
    uint64_t sleeps = 0;
    std::ifstream status(dir + "/status");
    for (std::string line; std::getline(status, line);)
      if (line.rfind("voluntary_ctxt_switches:", 0) == 0)
        sleeps = std::strtoull(line.c_str() + 24, nullptr, 10);
    for (const std::string& group : {std::string("all"), thread_group(comm)}) {
      costs[group].cpu_ns += ns;
      costs[group].sleeps += sleeps;
    }
  }
  closedir(tasks);
  return costs;
}

// "group:us/sleeps ..." per frame for each group, from the costs at the window's start and end
// (threads that came or went meanwhile count what they ran inside it).
std::string per_frame(const ThreadCosts& before, const ThreadCosts& after, uint64_t frames) {
  std::string text;
  for (const auto& [group, cost] : after) {
    if (group == "all") continue;
    const auto it = before.find(group);
    const ThreadCost start = it == before.end() ? ThreadCost{} : it->second;
    char part[96];
    std::snprintf(part, sizeof part, "%s%s:%.1f/%.2f", text.empty() ? "" : ",", group.c_str(),
                  double(cost.cpu_ns - std::min(start.cpu_ns, cost.cpu_ns)) / 1e3 / double(frames),
                  double(cost.sleeps - std::min(start.sleeps, cost.sleeps)) / double(frames));
    text += part;
  }
  return text;
}

// The first late frames (--live): which stream, which frame, how late, when in the window; where
// late frames come from (one stream, the window's start, all at once) tells a stall from a pace.
struct LateFrame {
  std::string sink;
  GstClockTime pts, by;
  gint64 at_us;  // since the window opened
};
constexpr size_t kLateFramesShown = 12;
std::mutex g_late_lock;
std::vector<LateFrame> g_late_frames;
gint64 g_window_start_us = 0;

void note_late(const char* sink, GstClockTime pts, GstClockTime by) {
  std::lock_guard<std::mutex> guard(g_late_lock);
  if (g_late_frames.size() < kLateFramesShown)
    g_late_frames.push_back({sink, pts, by, g_get_monotonic_time() - g_window_start_us});
}

// A frame at a sink: counted; with --live, late when the sink's clock is past the moment the sink
// renders it: its running time, plus the pipeline's latency and the sink's ts-offset. (Until run 114
// the offset was left out: the streams with the largest offsets, whose frames reach the sink up to
// a frame interval before they render, counted as late by a fraction of a millisecond.)
GstPadProbeReturn at_sink(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
  if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    if (GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info)) == GST_EVENT_EOS) g_counts.ended++;
    return GST_PAD_PROBE_OK;
  }
  g_counts.frames++;
  if (!data || !g_counts.window_open) return GST_PAD_PROBE_OK;
  GstElement* sink = GST_ELEMENT(data);
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  GstEvent* event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0);
  GstClock* clock = gst_element_get_clock(sink);
  if (event && clock) {
    const GstSegment* segment = nullptr;
    gst_event_parse_segment(event, &segment);
    const GstClockTime running =
        gst_segment_to_running_time(segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
    const GstClockTime due = gst_element_get_base_time(sink) + running +
                             gst_base_sink_get_latency(GST_BASE_SINK(sink)) +
                             GstClockTime(gst_base_sink_get_ts_offset(GST_BASE_SINK(sink)));
    const GstClockTime now = gst_clock_get_time(clock);
    if (GST_CLOCK_TIME_IS_VALID(running) && now > due) {
      g_counts.late++;
      note_late(GST_OBJECT_NAME(sink), GST_BUFFER_PTS(buffer), now - due);
    }
  }
  if (clock) gst_object_unref(clock);
  if (event) gst_event_unref(event);
  return GST_PAD_PROBE_OK;
}

// Pops the bus for `seconds`; false (with the error printed) when an error comes.
bool wait(GstElement* pipeline, double seconds) {
  GstBus* bus = gst_element_get_bus(pipeline);
  const gint64 until = g_get_monotonic_time() + gint64(seconds * 1e6);
  bool ok = true;
  for (gint64 now = g_get_monotonic_time(); ok && now < until; now = g_get_monotonic_time()) {
    GstMessage* msg = gst_bus_timed_pop_filtered(bus, GstClockTime(until - now) * 1000, GST_MESSAGE_ERROR);
    if (!msg) break;
    GError* error = nullptr;
    gst_message_parse_error(msg, &error, nullptr);
    std::fprintf(stderr, "ERROR from %s: %s\n", GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)), error->message);
    g_error_free(error);
    gst_message_unref(msg);
    ok = false;
  }
  gst_object_unref(bus);
  return ok;
}

// The sum of property `name` (uploads, downloads) over our elements in `pipeline`.
guint64 sum_counter(GstElement* pipeline, const char* name) {
  guint64 sum = 0;
  GstIterator* it = gst_bin_iterate_recurse(GST_BIN(pipeline));
  GValue item = G_VALUE_INIT;
  while (gst_iterator_next(it, &item) == GST_ITERATOR_OK) {
    GObject* element = G_OBJECT(g_value_get_object(&item));
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(element), name)) {
      guint64 value = 0;
      g_object_get(element, name, &value, nullptr);
      sum += value;
    }
    g_value_reset(&item);
  }
  g_value_unset(&item);
  gst_iterator_free(it);
  return sum;
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--live") {
      o.live = true;
    } else if (a == "--queue") {
      o.queue = true;
    } else if (a == "--clip" && has_value) {
      o.clip = argv[++i];
    } else if (a == "--decoder" && has_value) {
      o.decoder = argv[++i];
    } else if (a == "--elements" && has_value) {
      o.elements = argv[++i];
    } else if (a == "--memory" && has_value) {
      o.memory = argv[++i];
    } else if (a == "--streams" && has_value) {
      o.streams = std::atoi(argv[++i]);
    } else if (a == "--warmup" && has_value) {
      o.warmup_s = std::atof(argv[++i]);
    } else if (a == "--window" && has_value) {
      o.window_s = std::atof(argv[++i]);
    } else {
      return false;
    }
  }
  return !o.clip.empty() && o.streams > 0 && o.window_s > 0 && (o.memory == "gpu" || o.memory == "system");
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  Options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr,
                 "usage: %s --clip FILE [--decoder D] [--elements E] [--memory gpu|system] [--streams K] "
                 "[--live] [--queue] [--warmup S] [--window S]\n",
                 argv[0]);
    return 2;
  }
  std::string description;
  for (int i = 0; i < o.streams; ++i) {
    description += " filesrc location=" + o.clip + " ! " + o.decoder;
    if (o.memory == "system") description += " ! video/x-raw";
    if (o.queue) description += " ! queue max-size-buffers=4";
    if (!o.elements.empty()) description += " ! " + o.elements;
    description += " ! fakesink name=s" + std::to_string(i) + (o.live ? " sync=true" : " sync=false");
    // Live streams' frames are due at times spread over a frame interval, as cameras' are (all at the
    // same instants, every decoder's frame would be due at once).
    if (o.live) description += " ts-offset=" + std::to_string(kFrameInterval * i / o.streams);
  }
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(description.c_str(), &error);
  if (!pipeline) {
    std::fprintf(stderr, "pipeline: %s\n", error ? error->message : "?");
    return 1;
  }
  for (int i = 0; i < o.streams; ++i) {
    GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), ("s" + std::to_string(i)).c_str());
    GstPad* pad = gst_element_get_static_pad(sink, "sink");
    gst_pad_add_probe(pad, GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM),
                      at_sink, o.live ? sink : nullptr, nullptr);
    gst_object_unref(pad);
    gst_object_unref(sink);
  }
  // The warm-up starts once every stream plays (hundreds of decoders take seconds to start).
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  const gint64 start = g_get_monotonic_time();
  bool ok = gst_element_get_state(pipeline, nullptr, nullptr, 120 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS;
  if (!ok) std::fprintf(stderr, "ERROR: the streams did not start within 120 s\n");
  const double start_s = double(g_get_monotonic_time() - start) / 1e6;
  ok = ok && wait(pipeline, o.warmup_s);
  const uint64_t frames0 = g_counts.frames;
  const uint64_t ended0 = g_counts.ended;
  const double cpu0 = cpu_seconds();
  const ThreadCosts costs0 = element_thread_costs();
  const gint64 t0 = g_get_monotonic_time();
  g_window_start_us = t0;
  g_counts.window_open = true;
  ok = ok && wait(pipeline, o.window_s);
  g_counts.window_open = false;
  const double seconds = double(g_get_monotonic_time() - t0) / 1e6;
  const double cpu = cpu_seconds() - cpu0;
  const ThreadCosts costs = element_thread_costs();
  const double element_cpu = double(costs.count("all") ? costs.at("all").cpu_ns : 0) / 1e9 -
                             double(costs0.count("all") ? costs0.at("all").cpu_ns : 0) / 1e9;
  const uint64_t frames = g_counts.frames - frames0;
  const bool ended_inside = g_counts.ended != ended0 || ended0 > 0;
  const guint64 uploads = sum_counter(pipeline, "uploads");
  const guint64 downloads = sum_counter(pipeline, "downloads");
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  std::printf(
      "RESULT memory=%s streams=%d elements=\"%s\" %s frames_per_s=%.0f cpu_us_per_frame=%.1f "
      "element_threads_us_per_frame=%.1f by_thread_us_sleeps_per_frame=%s late=%llu "
      "frames=%llu uploads=%llu downloads=%llu start_s=%.1f%s%s\n",
      o.memory.c_str(), o.streams, o.elements.empty() ? "(decode alone)" : o.elements.c_str(),
      o.live ? "live" : "unpaced", frames / seconds, frames ? cpu * 1e6 / double(frames) : 0.0,
      frames ? element_cpu * 1e6 / double(frames) : 0.0,
      frames ? per_frame(costs0, costs, frames).c_str() : "-", (unsigned long long)g_counts.late.load(),
      (unsigned long long)frames, (unsigned long long)uploads, (unsigned long long)downloads, start_s,
      ended_inside ? " ENDED-INSIDE-WINDOW" : "", ok ? "" : " ERROR");
  for (const LateFrame& late : g_late_frames)
    std::printf("LATE %s: the frame at %.3f s, %.2f ms late, %.3f s into the window\n", late.sink.c_str(),
                double(late.pts) / GST_SECOND, double(late.by) / GST_MSECOND, double(late.at_us) / 1e6);
  return ok ? 0 : 1;
}
