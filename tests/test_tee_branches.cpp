// Recording branches that come and go behind a tee after our elements, the usual idiom of
// applications: while a stream plays (unpaced, so that frames are always on their way through the
// tee when a branch comes), a branch is linked to a new pad of the tee, takes some
// frames and is unlinked behind a blocking probe, then the next one, of four kinds in turn: ours
// again, a converter to I420, a capsfilter to system memory before a converter, and ours ending in
// an appsink that drops. The stream never stops (no error, from any element), and every frame a
// branch took equals the frame of the same number through the same branch linked from the start.
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "chain/chain_frames.h"
#include "common/bus_wait.h"
#include "common/vktest.h"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

namespace {

constexpr GstClockTime kTimeout = chaintest::kTimeout;
// Runs of the stream; VKCOMPUTE_TEE_RUNS=N for more (docs/benchmarks.md counts 50).
int Runs() {
  const char* runs = g_getenv("VKCOMPUTE_TEE_RUNS");
  return runs ? std::max(1, std::atoi(runs)) : 3;
}
constexpr int kBranchesPerRun = 24;
constexpr int kFramesPerBranch = 2;  // taken before the branch is unlinked

const char* const kCaps = "video/x-raw,format=RGBA,width=64,height=48,framerate=60/1";

// The stream before the tee, and the branch that stays linked, as in the report that found the
// race: a queue between the source and lut, so no source retries a refused push.
// `frames` -1: until the pipeline stops.
std::string Trunk(int frames) {
  return "videotestsrc pattern=ball num-buffers=" + std::to_string(frames) + " ! " + kCaps + " ! queue ! " +
         chaintest::Lut() +
         " name=lut ! tee name=t allow-not-linked=true t. ! queue ! morph ! rgb2yuv ! fakesink sync=false";
}

// The branches, each ending in the appsink "b".
const std::vector<std::string>& Branches() {
  static const std::vector<std::string> branches = {
      "queue ! morph width=5 height=5 ! lumamax ! appsink name=b sync=false",
      "queue ! videoconvert ! video/x-raw,format=I420 ! appsink name=b sync=false",
      "capsfilter caps=video/x-raw ! queue ! videoconvert ! appsink name=b sync=false",
      "queue ! histogram ! rgb2yuv ! appsink name=b sync=false drop=true",
  };
  return branches;
}

// Frames out of an appsink, by frame number (the source's buffer offset, kept by every element).
struct Taken {
  std::mutex lock;
  std::condition_variable changed;
  std::map<guint64, std::string> frames;  // lock
};

GstFlowReturn OnSample(GstAppSink* sink, gpointer data) {
  auto* taken = static_cast<Taken*>(data);
  GstSample* sample = gst_app_sink_pull_sample(sink);
  if (!sample) return GST_FLOW_OK;
  const guint64 number = GST_BUFFER_OFFSET(gst_sample_get_buffer(sample));
  std::string bytes = chaintest::VisibleBytes(sample);
  gst_sample_unref(sample);
  std::lock_guard<std::mutex> guard(taken->lock);
  taken->frames[number] = std::move(bytes);
  taken->changed.notify_all();
  return GST_FLOW_OK;
}

void TakeFrom(GstElement* bin, Taken* taken) {
  GstElement* sink = gst_bin_get_by_name(GST_BIN(bin), "b");
  GstAppSinkCallbacks callbacks{};
  callbacks.new_sample = OnSample;
  gst_app_sink_set_callbacks(GST_APP_SINK(sink), &callbacks, taken, nullptr);
  gst_object_unref(sink);
}

GstElement* ParseBin(const std::string& description) {
  GError* error = nullptr;
  GstElement* bin = gst_parse_bin_from_description(description.c_str(), TRUE, &error);
  fail_unless(bin != nullptr, "%s: %s", description.c_str(), error ? error->message : "?");
  return bin;
}

// Fails with the first error any element posted.
void ExpectNoError(GstElement* pipeline, const std::string& what) {
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* error = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  gst_object_unref(bus);
  if (!error) return;
  GError* e = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_error(error, &e, &debug);
  fail("%s: %s stopped the stream: %s (%s)", what.c_str(), GST_OBJECT_NAME(GST_MESSAGE_SRC(error)),
       e->message, debug ? debug : "");
}

// The branch linked from the start: the first `frames` frames it gives, by number.
std::map<guint64, std::string> Reference(const std::string& branch, int frames) {
  const std::string description = Trunk(frames) + " t. ! " + branch;
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  Taken taken;
  TakeFrom(pipeline, &taken);
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE, "%s",
              description.c_str());
  vktest::ExpectEos(pipeline, kTimeout, description);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  fail_unless(taken.frames.size() == size_t(frames), "%s: %zu frames", description.c_str(),
              taken.frames.size());
  return std::move(taken.frames);
}

// One branch's life: linked to a new pad of the tee, until it has taken kFramesPerBranch frames,
// then unlinked behind a blocking probe and removed.
struct Branch {
  GstElement* pipeline;
  GstElement* tee;
  GstElement* bin;
  GstPad* tee_pad = nullptr;
  Taken taken;
  std::mutex lock;
  std::condition_variable unlinked_changed;
  bool unlinked = false;  // lock

  // Adds the branch and links it from a new pad of the tee behind a blocking probe: the pad is
  // linked by the streaming thread as the tee's next push reaches it.
  Branch(GstElement* pipeline, GstElement* tee, const std::string& description)
      : pipeline(pipeline), tee(tee), bin(ParseBin(description)) {
    TakeFrom(bin, &taken);
    gst_bin_add(GST_BIN(pipeline), bin);
    gst_element_sync_state_with_parent(bin);
    tee_pad = gst_element_request_pad_simple(tee, "src_%u");
    gst_pad_add_probe(
        tee_pad, GST_PAD_PROBE_TYPE_BLOCK_DOWNSTREAM,
        +[](GstPad* pad, GstPadProbeInfo*, gpointer data) {
          auto* branch = static_cast<Branch*>(data);
          GstPad* sink = gst_element_get_static_pad(branch->bin, "sink");
          fail_unless(gst_pad_link(pad, sink) == GST_PAD_LINK_OK, "the branch did not link");
          gst_object_unref(sink);
          return GST_PAD_PROBE_REMOVE;
        },
        this, nullptr);
  }

  // Waits for the frames, unlinks and removes the branch.
  void Run(const std::string& what) {
    // A stream that stopped fails at once, with its error, not at the timeout.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(kTimeout);
    for (bool enough = false; !enough;) {
      ExpectNoError(pipeline, what);
      std::unique_lock<std::mutex> guard(taken.lock);
      enough = taken.changed.wait_for(guard, std::chrono::milliseconds(100),
                                      [&] { return taken.frames.size() >= size_t(kFramesPerBranch); });
      fail_unless(enough || std::chrono::steady_clock::now() < deadline, "%s: the branch took %zu frames",
                  what.c_str(), taken.frames.size());
    }
    gst_pad_add_probe(
        tee_pad, GST_PAD_PROBE_TYPE_BLOCK_DOWNSTREAM,
        +[](GstPad* pad, GstPadProbeInfo*, gpointer data) {
          auto* branch = static_cast<Branch*>(data);
          GstPad* peer = gst_pad_get_peer(pad);
          gst_pad_unlink(pad, peer);
          gst_object_unref(peer);
          std::lock_guard<std::mutex> guard(branch->lock);
          branch->unlinked = true;
          branch->unlinked_changed.notify_all();
          return GST_PAD_PROBE_REMOVE;
        },
        this, nullptr);
    {
      std::unique_lock<std::mutex> guard(lock);
      fail_unless(
          unlinked_changed.wait_for(guard, std::chrono::nanoseconds(kTimeout), [&] { return unlinked; }),
          "%s: the tee's pad never blocked", what.c_str());
    }
    // Locked first: a state change of the pipeline still under way (its commit after the branch
    // prerolled runs on another thread) would otherwise bring the removed branch back to READY.
    gst_element_set_locked_state(bin, TRUE);
    gst_element_set_state(bin, GST_STATE_NULL);
    gst_bin_remove(GST_BIN(pipeline), bin);
    gst_element_release_request_pad(tee, tee_pad);
    gst_object_unref(tee_pad);
  }
};

GST_START_TEST(test_branches_come_and_go_while_playing) {
  // What each branch took, by kind: (what, frame number, bytes).
  struct Took {
    std::string what;
    guint64 number;
    std::string bytes;
  };
  std::vector<std::vector<Took>> took(Branches().size());
  std::vector<int> frames_needed(Branches().size(), 1);
  const int runs = Runs();
  for (int run = 0; run < runs; ++run) {
    const std::string trunk = Trunk(-1);
    GstElement* pipeline = vktest::ParsePipeline(trunk.c_str());
    GstElement* tee = gst_bin_get_by_name(GST_BIN(pipeline), "t");
    fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE, "%s",
                trunk.c_str());
    for (int n = 0; n < kBranchesPerRun; ++n) {
      const size_t kind = size_t(n) % Branches().size();
      const std::string what =
          "run " + std::to_string(run) + ", branch " + std::to_string(n) + " (" + Branches()[kind] + ")";
      Branch branch(pipeline, tee, Branches()[kind]);
      branch.Run(what);
      ExpectNoError(pipeline, what);
      for (auto& [number, bytes] : branch.taken.frames) {
        frames_needed[kind] = std::max(frames_needed[kind], int(number) + 1);
        took[kind].push_back({what, number, std::move(bytes)});
      }
    }
    ExpectNoError(pipeline, "run " + std::to_string(run));
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(tee);
    gst_object_unref(pipeline);
  }
  std::printf("%d runs of %d branches: no pipeline stopped\n", runs, kBranchesPerRun);
  for (size_t kind = 0; kind < Branches().size(); ++kind) {
    const auto reference = Reference(Branches()[kind], frames_needed[kind]);
    for (const Took& frame : took[kind])
      fail_unless(frame.bytes == reference.at(frame.number),
                  "%s: frame %" G_GUINT64_FORMAT " differs from the branch linked from the start",
                  frame.what.c_str(), frame.number);
  }
}
GST_END_TEST;

Suite* tee_branches_suite() {
  Suite* s = suite_create("tee_branches");
  TCase* tc = vktest::NewTCase("tee_branches", 600);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_branches_come_and_go_while_playing);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(tee_branches_suite(), "tee_branches", __FILE__);
}
