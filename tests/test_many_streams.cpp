// Many pipelines of vkcompute elements in one process. They all run on lavapipe's one VkDevice, and
// one completion service finishes the frames of every element on it (gst/base/completions.hpp: one
// thread looks at every element's oldest frame, a few workers push outputs and post messages). 64
// live pipelines fed at once give, frame for frame and message for message, what each gives alone;
// the process's threads do not grow with the elements; a pipeline whose sink never takes its frames
// holds up none of the others; and a frame that outlives its timeout stops its own pipeline only.
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include <dirent.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "chain/chain_frames.h"
#include "common/bus_wait.h"
#include "common/test_seed.h"
#include "common/vktest.h"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

namespace {

using chaintest::kTimeout;

constexpr guint kFrames = 3;  // per pipeline
// How long the pipelines beside a stuck or failed one may take to give everything: a failure
// condition (the test waits this long at most), not a measure of speed.
constexpr GstClockTime kDeadline = 30 * GST_SECOND;

// The five elements in a chain, with the settings that run several kernels of each.
std::string FiveChain(const char* output_format) {
  return chaintest::Lut() +
         " name=e0 ! morph name=e1 operation=close width=3 height=3 ! lumamax name=e2 count=2 ! "
         "histogram name=e3 bins=16 ! rgb2yuv name=e4 ! video/x-raw,format=" +
         output_format;
}

// What the pipelines run between their source and sink, in rotation. Every element is named so that
// its messages come from the same source in every run.
std::vector<std::string> Rotation() {
  return {
      "lumamax name=e0 count=2",
      "histogram name=e0 bins=64 draw=true",
      "rgb2yuv name=e0 ! video/x-raw,format=NV12",
      FiveChain("I420"),
      "morph name=e0 operation=open shape=ellipse width=5 height=3",
  };
}

// One pipeline, `appsrc is-live=true format=time ! <elements> ! <sink>`, and its input: seeded random
// frames, made once, so that its run alone gets the very same buffers. The sink neither syncs to the
// clock nor waits for a frame to reach PAUSED (live sources give none before PLAYING).
class Spec {
 public:
  Spec(const std::string& elements, GstVideoFormat format, int width, int height, std::string seed_name,
       guint count, const std::string& sink = "appsink name=sink sync=false async=false")
      : seed_name_(std::move(seed_name)) {
    GstVideoInfo info;
    gst_video_info_set_format(&info, format, width, height);
    GstCaps* caps = gst_video_info_to_caps(&info);
    gst_caps_set_simple(caps, "framerate", GST_TYPE_FRACTION, 30, 1, nullptr);
    gchar* caps_text = gst_caps_to_string(caps);
    description_ = std::string("appsrc name=src is-live=true format=time caps=\"") + caps_text + "\" ! " +
                   elements + " ! " + sink;
    g_free(caps_text);
    gst_caps_unref(caps);
    std::mt19937 rng = vktest::RngFor(seed_name_);
    for (guint n = 0; n < count; ++n) frames_.push_back(chaintest::RandomFrame(rng, info, n));
  }
  ~Spec() {
    for (GstBuffer* frame : frames_) gst_buffer_unref(frame);
  }
  Spec(const Spec&) = delete;
  Spec& operator=(const Spec&) = delete;

  const std::string& description() const { return description_; }
  const std::vector<GstBuffer*>& frames() const { return frames_; }
  // For failure messages: the seed and the pipeline.
  std::string What() const { return vktest::WithSeed(seed_name_) + ", " + description_; }

 private:
  std::string seed_name_, description_;
  std::vector<GstBuffer*> frames_;
};

// `count` pipelines of the rotation, at 64x48 and 33x17 in turn (each element at both), from RGBA
// and BGRx; the frames of each seeded by `name` and its number.
std::vector<std::unique_ptr<Spec>> Specs(const std::string& name, int count, guint frames = kFrames) {
  const std::vector<std::string> rotation = Rotation();
  std::vector<std::unique_ptr<Spec>> specs;
  for (int i = 0; i < count; ++i) {
    const int turn = i / int(rotation.size());
    const bool small = turn % 2 == 1;
    specs.push_back(std::make_unique<Spec>(
        rotation[i % rotation.size()], (turn / 2) % 2 ? GST_VIDEO_FORMAT_BGRx : GST_VIDEO_FORMAT_RGBA,
        small ? 33 : 64, small ? 17 : 48, name + " " + std::to_string(i), frames));
  }
  return specs;
}

// What came out of a pipeline: each frame (caps, then visible bytes) and every element message
// ("source: structure", grouped by source, each source's in the order posted).
struct Output {
  std::vector<std::string> frames;
  std::vector<std::string> messages;
};

GstClockTime Left(gint64 deadline_us) {
  const gint64 left = deadline_us - g_get_monotonic_time();
  return left > 0 ? left * GST_USECOND : 0;
}

// A Spec's pipeline, built and left in NULL; back to NULL when it goes.
class Pipeline {
 public:
  explicit Pipeline(const Spec& spec) : spec_(spec) {
    pipeline_ = vktest::ParsePipeline(spec.description().c_str());
    src_ = gst_bin_get_by_name(GST_BIN(pipeline_), "src");
    sink_ = gst_bin_get_by_name(GST_BIN(pipeline_), "sink");
  }
  ~Pipeline() {
    gst_element_set_state(pipeline_, GST_STATE_NULL);
    gst_object_unref(sink_);
    gst_object_unref(src_);
    gst_object_unref(pipeline_);
  }
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  const Spec& spec() const { return spec_; }
  GstElement* pipeline() const { return pipeline_; }
  GstElement* sink() const { return sink_; }

  // PLAYING: the elements have started when this returns (the source is live: nothing prerolls).
  void Play() {
    fail_if(gst_element_set_state(pipeline_, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE, "%s",
            spec_.What().c_str());
  }
  // Any thread.
  GstFlowReturn Push(guint n) {
    return gst_app_src_push_buffer(GST_APP_SRC(src_), gst_buffer_ref(spec_.frames()[n]));
  }
  void EndOfStream() { gst_app_src_end_of_stream(GST_APP_SRC(src_)); }
  // The next frames out, until `out` holds `count`, before `deadline_us` (g_get_monotonic_time());
  // a frame missing then fails the test.
  void Pull(Output& out, size_t count, gint64 deadline_us) {
    while (out.frames.size() < count) {
      GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink_), Left(deadline_us));
      fail_unless(sample != nullptr, "%s: %zu of %zu frames came out", spec_.What().c_str(),
                  out.frames.size(), spec_.frames().size());
      gchar* caps = gst_caps_to_string(gst_sample_get_caps(sample));
      out.frames.push_back(std::string(caps) + "\n" + chaintest::VisibleBytes(sample));
      g_free(caps);
      gst_sample_unref(sample);
    }
  }
  // The rest of the frames, then EOS, before `deadline_us`, with the element messages posted until
  // then; a missing frame, an error or no EOS fails the test.
  Output Collect(gint64 deadline_us, Output out = {}) {
    Pull(out, spec_.frames().size(), deadline_us);
    vktest::ExpectEos(pipeline_, Left(deadline_us), spec_.What(), &out.messages);
    chaintest::GroupBySource(out.messages);
    return out;
  }

 private:
  const Spec& spec_;
  GstElement *pipeline_, *src_, *sink_;
};

std::vector<std::unique_ptr<Pipeline>> Build(const std::vector<std::unique_ptr<Spec>>& specs) {
  std::vector<std::unique_ptr<Pipeline>> pipelines;
  for (const auto& spec : specs) pipelines.push_back(std::make_unique<Pipeline>(*spec));
  return pipelines;
}

// Pushes frames [first, last) of every pipeline from `feeders` threads, each with its share of the
// pipelines, frame by frame (frame n into each of its pipelines, then frame n + 1), and EOS after the
// last frame when `eos`. Fails when a push was refused.
void Feed(const std::vector<std::unique_ptr<Pipeline>>& pipelines, guint first, guint last, bool eos,
          int feeders = 2) {
  std::vector<std::string> refused(feeders);  // by feeder: check's fail() belongs to the test's thread
  std::vector<std::thread> threads;
  for (int t = 0; t < feeders; ++t)
    threads.emplace_back([&, t] {
      for (guint n = first; n < last; ++n)
        for (size_t p = t; p < pipelines.size(); p += feeders)
          if (pipelines[p]->Push(n) != GST_FLOW_OK && refused[t].empty())
            refused[t] = pipelines[p]->spec().What() + ": frame " + std::to_string(n) + " refused";
      if (eos)
        for (size_t p = t; p < pipelines.size(); p += feeders) pipelines[p]->EndOfStream();
    });
  for (std::thread& thread : threads) thread.join();
  for (const std::string& text : refused) fail_unless(text.empty(), "%s", text.c_str());
}

// What the pipelines give together, fed at once (all of them started first).
std::vector<Output> RunTogether(const std::vector<std::unique_ptr<Pipeline>>& pipelines, gint64 deadline_us) {
  for (const auto& pipeline : pipelines) pipeline->Play();
  Feed(pipelines, 0, kFrames, true);
  std::vector<Output> outputs;
  for (const auto& pipeline : pipelines) outputs.push_back(pipeline->Collect(deadline_us));
  return outputs;
}

// What `spec` gives alone, the only pipeline in the process.
Output RunAlone(const Spec& spec) {
  Pipeline pipeline(spec);
  pipeline.Play();
  for (guint n = 0; n < spec.frames().size(); ++n)
    fail_unless(pipeline.Push(n) == GST_FLOW_OK, "%s alone: frame %u refused", spec.What().c_str(), n);
  pipeline.EndOfStream();
  return pipeline.Collect(g_get_monotonic_time() + GST_TIME_AS_USECONDS(kTimeout));
}

// The first field in which `a` and `b` differ ("" when none does): the name, a field only one has, or
// a field whose values are not equal (gst_value_compare: doubles exactly, arrays entry by entry).
std::string StructureDifference(const GstStructure* a, const GstStructure* b) {
  if (!gst_structure_has_name(b, gst_structure_get_name(a)))
    return std::string("named ") + gst_structure_get_name(a) + " and " + gst_structure_get_name(b);
  for (int i = 0; i < gst_structure_n_fields(a); ++i) {
    const char* field = gst_structure_nth_field_name(a, i);
    const GValue* other = gst_structure_get_value(b, field);
    if (other == nullptr) return std::string(field) + " is missing";
    const GValue* value = gst_structure_get_value(a, field);
    if (gst_value_compare(value, other) == GST_VALUE_EQUAL) continue;
    gchar* one = gst_value_serialize(value);
    gchar* two = gst_value_serialize(other);
    const std::string text = std::string(field) + " is " + (one ? one : "?") + ", alone " + (two ? two : "?");
    g_free(one);
    g_free(two);
    return text;
  }
  for (int i = 0; i < gst_structure_n_fields(b); ++i)
    if (!gst_structure_has_field(a, gst_structure_nth_field_name(b, i)))
      return std::string(gst_structure_nth_field_name(b, i)) + " is there alone only";
  return "";
}

// The difference between two messages as Output holds them ("source: structure"), field by field.
std::string MessageDifference(const std::string& got, const std::string& alone) {
  const size_t got_colon = got.find(": "), alone_colon = alone.find(": ");
  if (got.substr(0, got_colon) != alone.substr(0, alone_colon))
    return "from " + got.substr(0, got_colon) + ", alone from " + alone.substr(0, alone_colon);
  GstStructure* a = gst_structure_from_string(got.c_str() + got_colon + 2, nullptr);
  GstStructure* b = gst_structure_from_string(alone.c_str() + alone_colon + 2, nullptr);
  fail_unless(a != nullptr && b != nullptr, "unreadable message: %s", (a ? alone : got).c_str());
  std::string difference = StructureDifference(a, b);
  gst_structure_free(a);
  gst_structure_free(b);
  return difference;
}

void ExpectSameAsAlone(const Spec& spec, const Output& got, const Output& alone) {
  const std::string what = spec.What();
  for (size_t f = 0; f < got.frames.size(); ++f)
    fail_unless(got.frames[f] == alone.frames[f], "%s: frame %zu differs from the pipeline's run alone",
                what.c_str(), f);
  fail_unless(got.messages.size() == alone.messages.size(), "%s: %zu messages, %zu alone", what.c_str(),
              got.messages.size(), alone.messages.size());
  for (size_t m = 0; m < got.messages.size(); ++m) {
    const std::string difference = MessageDifference(got.messages[m], alone.messages[m]);
    fail_unless(difference.empty(), "%s: message %zu (%s): %s", what.c_str(), m,
                got.messages[m].substr(0, got.messages[m].find(',')).c_str(), difference.c_str());
  }
}

}  // namespace

// 64 live pipelines in one process, fed at once from two threads: every element alone and the five in
// a chain, at two sizes and from two formats. Each gives the frames and messages it gives alone (run
// one at a time afterwards): nothing of one pipeline's frames reaches another's, and no frame or
// message is lost, duplicated or reordered.
GST_START_TEST(test_64_pipelines_give_what_each_gives_alone) {
  const auto specs = Specs("together", 64);
  std::vector<Output> together;
  {
    const auto pipelines = Build(specs);
    together = RunTogether(pipelines, g_get_monotonic_time() + GST_TIME_AS_USECONDS(kTimeout));
  }
  for (size_t i = 0; i < specs.size(); ++i) ExpectSameAsAlone(*specs[i], together[i], RunAlone(*specs[i]));
}
GST_END_TEST;

namespace {

// The process's threads now, by name (/proc/self/task/*/comm; a thread a library starts without a
// name has its creator's).
std::map<std::string, int> ThreadsByName() {
  std::map<std::string, int> names;
  DIR* dir = opendir("/proc/self/task");
  fail_unless(dir != nullptr, "cannot list /proc/self/task");
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    std::ifstream comm(std::string("/proc/self/task/") + entry->d_name + "/comm");
    std::string name;
    if (std::getline(comm, name)) names[name]++;  // a thread that just ended has none
  }
  closedir(dir);
  return names;
}

// The threads that count: all of them, less those GLib keeps idle for reuse (a stopped pipeline's
// streaming thread waits there for the next pipeline's task), and the completion service's.
struct ThreadCount {
  int all = 0;
  int service = 0;  // "vkcN:wait" and "vkcN:done" (completions.hpp)
  // "src:src": the streaming threads of the appsrcs, one per pipeline playing, and a pooled thread
  // of a pipeline stopped before, still waiting for another task of its pool (GLib's half-second
  // can stretch on a loaded machine: CI once counted 34 for 32 pipelines).
  int sources = 0;
  std::string names;

  static ThreadCount Now() {
    ThreadCount count;
    for (const auto& [name, n] : ThreadsByName()) {
      count.all += n;
      if (g_str_has_prefix(name.c_str(), "vkc") &&
          (g_str_has_suffix(name.c_str(), ":wait") || g_str_has_suffix(name.c_str(), ":done")))
        count.service += n;
      if (name == "src:src") count.sources += n;
      count.names += (count.names.empty() ? "" : ", ") + name + " x" + std::to_string(n);
    }
    count.all -= int(g_thread_pool_get_num_unused_threads());
    return count;
  }
  int others() const { return all - service; }
  // The same without the pooled threads of stopped pipelines, with `pipelines` playing.
  int all_playing(int pipelines) const { return all - std::max(0, sources - pipelines); }
  int others_playing(int pipelines) const { return others() - std::max(0, sources - pipelines); }
};

// Starts the pipelines and sends `rounds` frames through each (a frame into every pipeline, then one
// out of each), EOS after the last: the most threads seen, counted after each push and each pull.
// First a second's wait: GLib keeps the thread of a task that ended (a streaming thread of a pipeline
// stopped before) waiting for another task of its pool for half a second, then lets it end or join
// its unused threads (not counted). The sinks change state without GStreamer's asynchronous
// continuation (async=false), which would run on such pooled threads too.
// With more than one round, the first is not counted, and the next waits until the completion
// service's workers idle since then have gone (vkc::Workers::kIdleLife): each element times its
// first frame for `gpu-time`, and lavapipe's vkGetQueryPoolResults waits until the device is idle,
// so each such finish blocks its worker while the other pipelines' frames run (one CI run counted
// 18 workers then), a start of lavapipe's only.
ThreadCount MostThreadsWhileFlowing(const std::vector<std::unique_ptr<Spec>>& specs, guint rounds) {
  g_usleep(G_USEC_PER_SEC);
  const auto pipelines = Build(specs);
  for (const auto& pipeline : pipelines) pipeline->Play();
  ThreadCount most;
  auto count = [&most] {
    const ThreadCount now = ThreadCount::Now();
    if (now.all > most.all) most = now;
  };
  for (guint n = 0; n < rounds; ++n) {
    if (n == 1) g_usleep(G_USEC_PER_SEC * 5 / 2);
    Feed(pipelines, n, n + 1, n + 1 == rounds, 1);
    if (n > 0 || rounds == 1) count();
    for (const auto& pipeline : pipelines) {
      GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(pipeline->sink()), kTimeout);
      fail_unless(sample != nullptr, "%s: frame %u did not come out", pipeline->spec().What().c_str(), n);
      gst_sample_unref(sample);
    }
    if (n > 0 || rounds == 1) count();
  }
  for (const auto& pipeline : pipelines)
    vktest::ExpectEos(pipeline->pipeline(), kTimeout, pipeline->spec().What());
  return most;
}

// `count` pipelines of `elements`, each fed `frames` seeded random 64x48 RGBA frames.
std::vector<std::unique_ptr<Spec>> Same(const std::string& elements, int count, guint frames) {
  std::vector<std::unique_ptr<Spec>> specs;
  for (int i = 0; i < count; ++i)
    specs.push_back(std::make_unique<Spec>(elements, GST_VIDEO_FORMAT_RGBA, 64, 48,
                                           "threads " + std::to_string(i), frames));
  return specs;
}

}  // namespace

// 32 live five-element chains (160 elements) with frames flowing hold no more threads than the same
// pipelines with identity in place of each element, plus a few of the process: the old design ran a
// completion thread per element (160 more). Those few are
// - lavapipe's and the validation layer's, per VkDevice (and queue), not per element, and the
//   plugin's reaper (gst/vk/reaper.cpp: one per process, for GPU work left to finish after its owner
//   let go, a new device frame's zeroing among it; it keeps the name of the thread that started it):
//   measured here as what one such chain adds to one of identity, the completion service's threads
//   left out, and checked to be all that 32 of them add besides the service's. With Mesa 22.3 and
//   LP_NUM_THREADS=n (by default the cores: 2 here), lavapipe runs n rasterizer threads
//   (llvmpipe-N), n + 1 it leaves unnamed and its shader cache's; the layer 2 more with
//   synchronization validation: 9 in all here.
// - the completion service's (kServiceThreads below).
GST_START_TEST(test_threads_do_not_grow_with_elements) {
  constexpr int kPipelines = 32;
  constexpr guint kRounds = 4;
  // The completion service's threads: its waiting thread, the two workers it starts at once, and
  // those it adds for finishes that waited a millisecond behind workers all blocked (workers.hpp), a
  // tenth of the elements at most here; finishes that wait for a core (2 cores kept busy by
  // lavapipe's kernels) or for the service's lock add none: 2 in all on the CI machine (2026-11-29).
  // A worker per element would be 160.
  constexpr int kServiceThreads = 16;

  const std::string identities = "identity ! identity ! identity ! identity ! identity";
  const ThreadCount identity = MostThreadsWhileFlowing(Same(identities, kPipelines, kRounds), kRounds);
  const ThreadCount one_identity = MostThreadsWhileFlowing(Same(identities, 1, 1), 1);
  // As many rounds as the 32: a thread that the device starts lazily (lavapipe's shader cache writer
  // after the first kernels) is counted in one chain too, not only in the 32 (CI once saw one chain add
  // 8 threads, counted after a single frame, and the 32 hold 9).
  const ThreadCount one_ours = MostThreadsWhileFlowing(Same(FiveChain("NV12"), 1, kRounds), kRounds);
  const ThreadCount ours = MostThreadsWhileFlowing(Same(FiveChain("NV12"), kPipelines, kRounds), kRounds);
  const int process_threads = one_ours.others_playing(1) - one_identity.all_playing(1);
  std::printf(
      "threads: %d pipelines of 5 identity %d; 1 of them %d, 1 five-element chain %d (%d of the service): "
      "the device and process %d; %d five-element chains %d (%d of the service)\n  identity: %s\n"
      "  chains: %s\n",
      kPipelines, identity.all, one_identity.all, one_ours.all, one_ours.service, process_threads, kPipelines,
      ours.all, ours.service, identity.names.c_str(), ours.names.c_str());
  std::fflush(stdout);
  fail_unless(ours.others_playing(kPipelines) <= identity.all_playing(kPipelines) + process_threads,
              "%d five-element chains hold %d threads besides the completion service's, %d with identity "
              "(one chain adds %d)\n  chains: %s\n  identity: %s",
              kPipelines, ours.others_playing(kPipelines), identity.all_playing(kPipelines), process_threads,
              ours.names.c_str(), identity.names.c_str());
  fail_unless(ours.service <= kServiceThreads, "the completion service holds %d threads: %s", ours.service,
              ours.names.c_str());
}
GST_END_TEST;

namespace {

// Counts the buffers that reach a pad, and lets a test wait for a number of them.
struct Arrivals {
  std::mutex lock;
  std::condition_variable changed;
  int buffers = 0;  // lock

  static GstPadProbeReturn Count(GstPad*, GstPadProbeInfo*, gpointer data) {
    auto* arrivals = static_cast<Arrivals*>(data);
    std::lock_guard<std::mutex> guard(arrivals->lock);
    arrivals->buffers++;
    arrivals->changed.notify_all();
    return GST_PAD_PROBE_OK;
  }
  int Now() {
    std::lock_guard<std::mutex> guard(lock);
    return buffers;
  }
  bool WaitFor(int count, GstClockTime timeout) {
    std::unique_lock<std::mutex> guard(lock);
    return changed.wait_for(guard, std::chrono::nanoseconds(timeout), [&] { return buffers >= count; });
  }
};

// Sets `pipeline` to NULL on another thread and fails unless that returns success within kDeadline.
void ExpectNullWithoutHang(Pipeline& pipeline) {
  GstElement* element = pipeline.pipeline();
  auto change =
      std::async(std::launch::async, [element] { return gst_element_set_state(element, GST_STATE_NULL); });
  fail_unless(change.wait_for(std::chrono::nanoseconds(kDeadline)) == std::future_status::ready,
              "%s: NULL not reached within %" GST_TIME_FORMAT, pipeline.spec().What().c_str(),
              GST_TIME_ARGS(kDeadline));
  fail_unless(change.get() == GST_STATE_CHANGE_SUCCESS, "%s: NULL failed", pipeline.spec().What().c_str());
}

// No ERROR or EOS on the pipeline's bus now.
void ExpectNoErrorOrEos(GstElement* pipeline, const std::string& what) {
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* message = gst_bus_pop_filtered(bus, GstMessageType(GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
  gst_object_unref(bus);
  if (message == nullptr) return;
  const std::string text = vktest::Describe(message);
  gst_message_unref(message);
  fail("%s: %s", what.c_str(), text.c_str());
}

}  // namespace

// A pipeline whose appsink holds one frame and is never pulled: its next frame blocks in the sink
// (on whichever thread finishes rgb2yuv's frames: a worker of the device's service, or the streaming
// thread), and the frames behind it wait. Ten other pipelines of our elements on the same device
// meanwhile give all their frames and messages (those of their runs alone) within kDeadline, while
// the stuck one stays stuck; then it reaches NULL.
GST_START_TEST(test_a_stuck_sink_delays_no_other_pipeline) {
  Spec stuck_spec("lumamax name=e0 ! rgb2yuv name=e1 ! video/x-raw,format=NV12", GST_VIDEO_FORMAT_RGBA, 64,
                  48, "stuck", 6, "appsink name=sink max-buffers=1 drop=false sync=false async=false");
  Pipeline stuck(stuck_spec);
  Arrivals arrivals;
  GstPad* sink_pad = gst_element_get_static_pad(stuck.sink(), "sink");
  gst_pad_add_probe(sink_pad, GST_PAD_PROBE_TYPE_BUFFER, Arrivals::Count, &arrivals, nullptr);
  gst_object_unref(sink_pad);
  stuck.Play();
  for (guint n = 0; n < stuck_spec.frames().size(); ++n)
    fail_unless(stuck.Push(n) == GST_FLOW_OK, "%s: frame %u refused", stuck_spec.What().c_str(), n);
  // The first frame waits in the sink, the second in the sink's chain function for room.
  fail_unless(arrivals.WaitFor(2, kDeadline), "%s: %d frames reached the sink", stuck_spec.What().c_str(),
              arrivals.Now());

  const auto specs = Specs("beside stuck", 10);
  std::vector<Output> outputs;
  {
    const auto others = Build(specs);
    outputs = RunTogether(others, g_get_monotonic_time() + GST_TIME_AS_USECONDS(kDeadline));
  }
  fail_unless(arrivals.Now() == 2, "%s: %d frames reached the sink, which took none",
              stuck_spec.What().c_str(), arrivals.Now());
  ExpectNoErrorOrEos(stuck.pipeline(), stuck_spec.What());
  ExpectNullWithoutHang(stuck);
  for (size_t i = 0; i < specs.size(); ++i) ExpectSameAsAlone(*specs[i], outputs[i], RunAlone(*specs[i]));
}
GST_END_TEST;

// One pipeline started with the frame timeout lowered to 1 ms (GST_VKCOMPUTE_FRAME_TIMEOUT_MS, read
// at start), whose morph frames take a tenth of a second or more on lavapipe: its element posts the
// "took longer" error on that pipeline's bus. Eight pipelines started with the default timeout give
// every frame and message of their runs alone, with no error: two frames each before the slow ones
// go in, two more pushed right behind them (on lavapipe's one queue they wait for the slow frames).
// The eight time none of their frames (GST_VKCOMPUTE_TIMESTAMP_INTERVAL=0, read at start): an
// element reads a timed frame's timestamps as it finishes it, and lavapipe's vkGetQueryPoolResults
// waits until the device is idle, slow frames included; on the device's completion thread (an
// analysis element's frame) that wait would keep it from seeing the slow frame outlive its timeout.
GST_START_TEST(test_a_frame_timeout_stops_only_its_pipeline) {
  Spec slow_spec("morph name=e0 operation=gradient shape=ellipse width=5 height=5", GST_VIDEO_FORMAT_RGBx,
                 640, 480, "slow", 2);
  Pipeline slow(slow_spec);
  g_setenv("GST_VKCOMPUTE_FRAME_TIMEOUT_MS", "1", TRUE);
  slow.Play();
  g_unsetenv("GST_VKCOMPUTE_FRAME_TIMEOUT_MS");

  const auto specs = Specs("beside failure", 8, 4);
  const auto others = Build(specs);
  std::vector<Output> outputs(others.size());
  g_setenv("GST_VKCOMPUTE_TIMESTAMP_INTERVAL", "0", TRUE);
  for (const auto& pipeline : others) pipeline->Play();
  g_unsetenv("GST_VKCOMPUTE_TIMESTAMP_INTERVAL");
  Feed(others, 0, 2, false);
  const gint64 deadline = g_get_monotonic_time() + GST_TIME_AS_USECONDS(kDeadline);
  for (size_t i = 0; i < others.size(); ++i) others[i]->Pull(outputs[i], 2, deadline);
  for (guint n = 0; n < slow_spec.frames().size(); ++n) slow.Push(n);  // refused once it failed
  Feed(others, 2, 4, true);
  GstMessage* message = vktest::WaitForErrorOrEos(slow.pipeline(), kTimeout);
  fail_unless(message != nullptr, "%s: no error within %" GST_TIME_FORMAT, slow_spec.What().c_str(),
              GST_TIME_ARGS(kTimeout));
  const std::string error = vktest::Describe(message);
  const bool from_morph = g_strcmp0(GST_OBJECT_NAME(GST_MESSAGE_SRC(message)), "e0") == 0;
  gst_message_unref(message);
  fail_unless(from_morph && error.find("took longer than 1 ms") != std::string::npos,
              "%s: not morph's timeout: %s", slow_spec.What().c_str(), error.c_str());

  for (size_t i = 0; i < others.size(); ++i)
    outputs[i] = others[i]->Collect(g_get_monotonic_time() + GST_TIME_AS_USECONDS(kDeadline), outputs[i]);
  ExpectNullWithoutHang(slow);
  for (size_t i = 0; i < specs.size(); ++i) ExpectSameAsAlone(*specs[i], outputs[i], RunAlone(*specs[i]));
}
GST_END_TEST;

static Suite* many_streams_suite() {
  Suite* suite = suite_create("many_streams");
  TCase* tc = vktest::NewTCase("many_streams", 300);
  tcase_add_test(tc, test_64_pipelines_give_what_each_gives_alone);
  tcase_add_test(tc, test_threads_do_not_grow_with_elements);
  tcase_add_test(tc, test_a_stuck_sink_delays_no_other_pipeline);
  tcase_add_test(tc, test_a_frame_timeout_stops_only_its_pipeline);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  vktest::TestSeed();  // one seed for every test of the run, printed once
  return gst_check_run_suite(many_streams_suite(), "many_streams", __FILE__);
}
