// A chain of vkcompute elements through what applications do to a pipeline while frames flow in
// device memory between them: PAUSED and PLAYING in turn, NULL and back to PLAYING, properties
// changed while PLAYING, and an element that fails mid-stream. The frames and messages that come
// out are those of the same chain set up once with the same settings, and a failure stops the
// pipeline with the failing element's error, after which it starts again.
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/gsttracer.h>
#include <gst/video/video.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "chain/chain_frames.h"
#include "common/bus_wait.h"
#include "common/test_data.h"
#include "common/test_seed.h"
#include "common/vktest.h"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

namespace {

using chaintest::kTimeout;

constexpr int kWidth = 97, kHeight = 61;

// The chain's elements, e0 to e4, each with its settings ("name=value" pairs).
using Settings = std::vector<std::vector<std::string>>;

Settings DefaultSettings() {
  return {{}, {"operation=close", "width=5", "height=3"}, {"count=2"}, {"bins=16"}, {}};
}

std::string Describe(const Settings& settings) {
  const char* const elements[] = {"", "morph", "lumamax", "histogram", "rgb2yuv"};
  std::string text;
  for (size_t i = 0; i < settings.size(); ++i) {
    text += (i ? " ! " : "") + (i == 0 ? chaintest::Lut() : std::string(elements[i])) + " name=e" +
            std::to_string(i);
    for (const std::string& setting : settings[i]) text += " " + setting;
  }
  return text + " ! video/x-raw,format=NV12";
}

// Seeded random RGBA frames, frame n timestamped n / 30 s; the same for every run of a test.
std::vector<GstBuffer*> Frames(const std::string& seed_name, guint count) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_RGBA, kWidth, kHeight);
  std::mt19937 rng = vktest::RngFor(seed_name);
  std::vector<GstBuffer*> frames;
  for (guint n = 0; n < count; ++n) frames.push_back(chaintest::RandomFrame(rng, info, n));
  return frames;
}

// The appsrc every stream here starts with, and the link after it: Frames() into it.
std::string Source() {
  return "appsrc name=src format=time caps=video/x-raw,format=RGBA,width=" + std::to_string(kWidth) +
         ",height=" + std::to_string(kHeight) + ",framerate=30/1 ! ";
}

// appsrc ! the chain ! appsink, driven frame by frame.
class Stream {
 public:
  explicit Stream(const Settings& settings)
      : description_(Source() + Describe(settings) + " ! appsink name=sink sync=false") {
    pipeline_ = vktest::ParsePipeline(description_.c_str());
    src_ = gst_bin_get_by_name(GST_BIN(pipeline_), "src");
    sink_ = gst_bin_get_by_name(GST_BIN(pipeline_), "sink");
  }
  ~Stream() {
    gst_element_set_state(pipeline_, GST_STATE_NULL);
    gst_object_unref(sink_);
    gst_object_unref(src_);
    gst_object_unref(pipeline_);
  }

  const std::string& description() const { return description_; }
  GstElement* element(int i) const {
    GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline_), ("e" + std::to_string(i)).c_str());
    gst_object_unref(e);  // the pipeline holds it
    return e;
  }

  // Without waiting for PAUSED or PLAYING, which complete once a frame reaches the sink; NULL is
  // reached at once (the elements stop their threads and hand their frames over).
  void SetState(GstState state) {
    const GstStateChangeReturn change = gst_element_set_state(pipeline_, state);
    fail_if(change == GST_STATE_CHANGE_FAILURE, "%s: to %s", description_.c_str(),
            gst_element_state_get_name(state));
    fail_unless(state != GST_STATE_NULL || change == GST_STATE_CHANGE_SUCCESS, "%s: NULL not reached at once",
                description_.c_str());
  }
  void Push(GstBuffer* frame) {
    fail_unless(gst_app_src_push_buffer(GST_APP_SRC(src_), gst_buffer_ref(frame)) == GST_FLOW_OK);
  }
  // The next `count` frames out (their visible bytes) and the element messages posted until then.
  void Pull(guint count) {
    for (guint n = 0; n < count; ++n) {
      GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink_), kTimeout);
      fail_unless(sample != nullptr, "%s: frame %zu did not come out", description_.c_str(), frames.size());
      frames.push_back(chaintest::VisibleBytes(sample));
      gst_sample_unref(sample);
    }
    TakeMessages();
  }
  void EndOfStream() {
    gst_app_src_end_of_stream(GST_APP_SRC(src_));
    vktest::ExpectEos(pipeline_, kTimeout, description_, &messages);
    chaintest::GroupBySource(messages);
  }
  GstBus* bus() const { return GST_ELEMENT_BUS(pipeline_); }
  // Waits until `count` element messages in all have come (before a stop to NULL, which drops
  // those not yet taken), grouped by source (chaintest::GroupBySource()).
  void AwaitMessages(size_t count) {
    while (messages.size() < count) {
      GstMessage* message = gst_bus_timed_pop_filtered(bus(), kTimeout, kWatched);
      fail_unless(message != nullptr, "%s: %zu of %zu messages came", description_.c_str(), messages.size(),
                  count);
      Keep(message);
    }
    chaintest::GroupBySource(messages);
  }

  std::vector<std::string> frames;
  std::vector<std::string> messages;

 private:
  // The messages posted so far (a frame's may come after the frame left the chain); an error
  // fails the test with its own text.
  void TakeMessages() {
    while (GstMessage* message = gst_bus_pop_filtered(bus(), kWatched)) Keep(message);
  }
  void Keep(GstMessage* message) {
    const bool error = GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR;
    const std::string text = error ? vktest::Describe(message) : vktest::DescribeElementMessage(message);
    gst_message_unref(message);
    fail_if(error, "%s: %s", description_.c_str(), text.c_str());
    messages.push_back(text);
  }
  static constexpr GstMessageType kWatched = GstMessageType(GST_MESSAGE_ELEMENT | GST_MESSAGE_ERROR);

  std::string description_;
  GstElement *pipeline_, *src_, *sink_;
};

// The frames and messages of `frames` through the chain set up once with `settings`.
std::pair<std::vector<std::string>, std::vector<std::string>> SetUpOnce(
    const Settings& settings, const std::vector<GstBuffer*>& frames) {
  Stream stream(settings);
  stream.SetState(GST_STATE_PLAYING);
  for (GstBuffer* frame : frames) stream.Push(frame);
  stream.Pull(guint(frames.size()));
  stream.EndOfStream();
  return {stream.frames, stream.messages};
}

void ExpectSame(const Stream& stream, const std::vector<std::string>& frames,
                const std::vector<std::string>& messages, const std::string& seed_name) {
  const std::string what = vktest::WithSeed(seed_name) + ", " + stream.description();
  fail_unless(stream.frames.size() == frames.size(), "%s: %zu frames, %zu expected", what.c_str(),
              stream.frames.size(), frames.size());
  for (size_t f = 0; f < frames.size(); ++f)
    fail_unless(stream.frames[f] == frames[f], "%s: frame %zu differs from the chain set up once",
                what.c_str(), f);
  fail_unless(stream.messages == messages, "%s: %zu messages, %zu from the chain set up once; first: %s",
              what.c_str(), stream.messages.size(), messages.size(),
              stream.messages.empty() ? "none" : stream.messages.front().c_str());
}

void Unref(std::vector<GstBuffer*>& frames) {
  for (GstBuffer* frame : frames) gst_buffer_unref(frame);
  frames.clear();
}

}  // namespace

// PLAYING, PAUSED with frames pushed meanwhile (the sink prerolls one, and the chain's last push
// may block behind it), PLAYING again, and a quick PAUSED and PLAYING between two frames.
GST_START_TEST(test_paused_and_playing_in_turn) {
  std::vector<GstBuffer*> frames = Frames("paused", 6);
  const auto [expected_frames, expected_messages] = SetUpOnce(DefaultSettings(), frames);
  Stream stream(DefaultSettings());
  stream.SetState(GST_STATE_PLAYING);
  stream.Push(frames[0]);
  stream.Push(frames[1]);
  stream.Pull(2);
  stream.SetState(GST_STATE_PAUSED);
  stream.Push(frames[2]);
  stream.Push(frames[3]);
  stream.SetState(GST_STATE_PLAYING);
  stream.Pull(2);
  stream.Push(frames[4]);
  stream.SetState(GST_STATE_PAUSED);
  stream.SetState(GST_STATE_PLAYING);
  stream.Push(frames[5]);  // completes the state change if frame 4 passed before PAUSED
  stream.Pull(2);
  stream.EndOfStream();
  ExpectSame(stream, expected_frames, expected_messages, "paused");
  Unref(frames);
}
GST_END_TEST;

// NULL and back to PLAYING between frames, twice: each start is a fresh stream (caps, segment) on
// fresh pools and rings.
GST_START_TEST(test_null_and_playing_in_turn) {
  std::vector<GstBuffer*> frames = Frames("null", 6);
  const auto [expected_frames, expected_messages] = SetUpOnce(DefaultSettings(), frames);
  Stream stream(DefaultSettings());
  for (guint start = 0; start < 3; ++start) {
    stream.SetState(GST_STATE_PLAYING);
    stream.Push(frames[2 * start]);
    stream.Push(frames[2 * start + 1]);
    stream.Pull(2);
    stream.AwaitMessages(4 * (start + 1));  // lumamax's and histogram's for each frame so far
    if (start < 2) stream.SetState(GST_STATE_NULL);
  }
  stream.EndOfStream();
  ExpectSame(stream, expected_frames, expected_messages, "null");
  Unref(frames);
}
GST_END_TEST;

// Settings of every element changed while PLAYING, between two frames (each pulled before the
// next goes in): each frame is that of the chain set up with the settings of its time, including
// histogram starting and stopping to draw (its output then leaves in its own memory, not passed
// through).
GST_START_TEST(test_property_changes_while_playing) {
  std::vector<GstBuffer*> frames = Frames("properties", 4);
  const std::vector<Settings> steps = {
      DefaultSettings(),
      {{"intensity=0.5"}, {"operation=dilate", "width=3", "height=7"}, {"count=1"}, {"draw=true"}, {}},
      {{"intensity=0.25"},
       {"operation=tophat", "width=1", "height=1"},
       {"roi-x=10", "roi-width=20"},
       {"draw=false", "bins=64"},
       {}},
      {{"location=" + vktest::TestDataDir() + "/lookup_soft_elegance_1.png"},
       {"operation=erode"},
       {"count=3"},
       {"draw=true", "bins=8"},
       {}},
  };
  Stream stream(steps[0]);
  stream.SetState(GST_STATE_PLAYING);
  std::vector<std::string> expected_frames, expected_messages;
  for (size_t step = 0; step < steps.size(); ++step) {
    for (int e = 0; e < int(steps[step].size()); ++e)
      for (const std::string& setting : steps[step][e]) {
        const size_t eq = setting.find('=');
        gst_util_set_object_arg(G_OBJECT(stream.element(e)), setting.substr(0, eq).c_str(),
                                setting.substr(eq + 1).c_str());
      }
    stream.Push(frames[step]);
    stream.Pull(1);
    // The settings so far, as a chain set up with them would have from the start.
    Settings so_far(steps[0].size());
    for (size_t s = 0; s <= step; ++s)
      for (size_t e = 0; e < so_far.size(); ++e)
        so_far[e].insert(so_far[e].end(), steps[s][e].begin(), steps[s][e].end());
    const auto [once_frames, once_messages] = SetUpOnce(so_far, {frames[step]});
    expected_frames.push_back(once_frames.front());
    expected_messages.insert(expected_messages.end(), once_messages.begin(), once_messages.end());
  }
  stream.EndOfStream();
  chaintest::GroupBySource(expected_messages);
  ExpectSame(stream, expected_frames, expected_messages, "properties");
  Unref(frames);
}
GST_END_TEST;

// lumamax (the chain's middle element) given a region outside the frame while PLAYING: its error
// reaches the bus, the pipeline stops to NULL without waiting, and with the region back inside
// it starts again and gives the frames of a chain set up once.
GST_START_TEST(test_an_element_fails_mid_stream) {
  std::vector<GstBuffer*> frames = Frames("failure", 5);
  const auto [expected_frames, expected_messages] = SetUpOnce(DefaultSettings(), {frames[0], frames[1]});
  const auto [restart_frames, restart_messages] = SetUpOnce(DefaultSettings(), {frames[3], frames[4]});
  Stream stream(DefaultSettings());
  stream.SetState(GST_STATE_PLAYING);
  stream.Push(frames[0]);
  stream.Push(frames[1]);
  stream.Pull(2);
  stream.AwaitMessages(4);
  ExpectSame(stream, expected_frames, expected_messages, "failure");
  GstElement* lumamax = stream.element(2);
  g_object_set(lumamax, "roi-x", 5000u, nullptr);
  stream.Push(frames[2]);
  GstMessage* error =
      gst_bus_timed_pop_filtered(stream.bus(), kTimeout, GstMessageType(GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
  fail_unless(error != nullptr && GST_MESSAGE_TYPE(error) == GST_MESSAGE_ERROR,
              "no error for a region outside the frame");
  fail_unless(GST_MESSAGE_SRC(error) == GST_OBJECT(lumamax), "the error came from %s, not lumamax",
              GST_OBJECT_NAME(GST_MESSAGE_SRC(error)));
  gst_message_unref(error);
  stream.SetState(GST_STATE_NULL);
  g_object_set(lumamax, "roi-x", 0u, nullptr);
  stream.frames.clear();
  stream.messages.clear();
  stream.SetState(GST_STATE_PLAYING);
  stream.Push(frames[3]);
  stream.Push(frames[4]);
  stream.Pull(2);
  stream.EndOfStream();
  ExpectSame(stream, restart_frames, restart_messages, "failure");
  Unref(frames);
}
GST_END_TEST;

namespace {

// `appsrc ! queue ! lut ! <after_lut>`, which ends in `appsink name=a`: lut's frames go on in
// device memory. (The queue upstream, as after a decoder, does not retry a push refused as not
// negotiated, which a source next to lut would.) While PLAYING a branch (`branch`, ending in
// `appsink name=b`) is added after a tee, or replaces what follows lut, as applications add a
// recording branch or swap an element.
class DynamicStream {
 public:
  DynamicStream(const std::string& after_lut, const std::string& branch)
      : description_(Source() + "queue ! " + chaintest::Lut() + " name=lut ! " + after_lut),
        branch_description_(branch) {
    pipeline_ = vktest::ParsePipeline(description_.c_str());
    src_ = gst_bin_get_by_name(GST_BIN(pipeline_), "src");
    lut_ = gst_bin_get_by_name(GST_BIN(pipeline_), "lut");
    a_ = gst_bin_get_by_name(GST_BIN(pipeline_), "a");
    GError* error = nullptr;
    branch_ = gst_parse_bin_from_description(branch.c_str(), TRUE, &error);
    fail_unless(branch_ != nullptr, "%s: %s", branch.c_str(), error ? error->message : "");
    gst_object_ref_sink(branch_);
    b_ = gst_bin_get_by_name(GST_BIN(branch_), "b");
    chaintest::CountMemoryAt(lut_, "src", &lut_out_);
    fail_unless(gst_element_set_state(pipeline_, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE, "%s",
                description_.c_str());
  }
  ~DynamicStream() {
    gst_element_set_state(pipeline_, GST_STATE_NULL);
    for (GstElement* e : {b_, branch_, a_, lut_, src_, pipeline_}) gst_object_unref(e);
  }

  std::string what() const { return description_ + ", then " + branch_description_; }
  GstElement* lut() const { return lut_; }

  // Adds the branch after a new pad of the tee `t`; any thread.
  void AddBranchToTee() {
    GstElement* tee = gst_bin_get_by_name(GST_BIN(pipeline_), "t");
    GstPad* pad = gst_element_request_pad_simple(tee, "src_%u");
    LinkBranch(pad);
    gst_object_unref(pad);
    gst_object_unref(tee);
  }
  // Replaces what follows lut (up to the appsink a, which stops receiving) by the branch; on the
  // streaming thread, while a probe blocks lut's source pad.
  void ReplaceAfterLut() {
    GstPad* src = gst_element_get_static_pad(lut_, "src");
    GstPad* peer = gst_pad_get_peer(src);
    GstElement* next = gst_pad_get_parent_element(peer);
    gst_pad_unlink(src, peer);
    for (GstElement* e : {next, a_}) {
      gst_element_set_state(e, GST_STATE_NULL);
      gst_bin_remove(GST_BIN(pipeline_), e);
    }
    LinkBranch(src);
    gst_object_unref(next);
    gst_object_unref(peer);
    gst_object_unref(src);
  }
  // Waits until the branch is linked (by another thread).
  void AwaitBranch() {
    std::unique_lock<std::mutex> lock(linked_lock_);
    fail_unless(
        linked_changed_.wait_for(lock, std::chrono::nanoseconds(kTimeout), [this] { return linked_; }),
        "%s: the branch was never linked", what().c_str());
  }
  void Push(GstBuffer* frame) {
    fail_unless(gst_app_src_push_buffer(GST_APP_SRC(src_), gst_buffer_ref(frame)) == GST_FLOW_OK, "%s",
                what().c_str());
  }
  // The next `count` frames out of the appsink `sink` (a_ or b_), appended to `frames`.
  void Pull(GstElement* sink, guint count, std::vector<std::string>& frames) {
    for (guint n = 0; n < count; ++n) {
      GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), kTimeout);
      fail_unless(sample != nullptr, "%s: %s's frame %zu did not come out", what().c_str(),
                  GST_OBJECT_NAME(sink), frames.size());
      frames.push_back(chaintest::VisibleBytes(sample));
      gst_sample_unref(sample);
    }
  }
  void EndOfStream() {
    gst_app_src_end_of_stream(GST_APP_SRC(src_));
    vktest::ExpectEos(pipeline_, kTimeout, what());
  }
  // Whether lut's frames are in device memory so far (every one that left it).
  bool LutFramesInDeviceMemory() const {
    return lut_out_.buffers > 0 && lut_out_.in_device == lut_out_.buffers;
  }
  // Whether lut's source caps are in device memory now.
  bool LutCapsInDeviceMemory() const {
    GstPad* pad = gst_element_get_static_pad(lut_, "src");
    GstCaps* caps = gst_pad_get_current_caps(pad);
    const bool device =
        caps && gst_caps_features_contains(gst_caps_get_features(caps, 0), chaintest::kFeature);
    if (caps) gst_caps_unref(caps);
    gst_object_unref(pad);
    return device;
  }

  GstElement *a_ = nullptr, *b_ = nullptr;

 private:
  // Adds the branch (PLAYING) and links `from` to it.
  void LinkBranch(GstPad* from) {
    gst_bin_add(GST_BIN(pipeline_), branch_);
    gst_element_sync_state_with_parent(branch_);
    GstPad* sink = gst_element_get_static_pad(branch_, "sink");
    fail_unless(gst_pad_link(from, sink) == GST_PAD_LINK_OK, "%s: the branch did not link", what().c_str());
    gst_object_unref(sink);
    std::lock_guard<std::mutex> lock(linked_lock_);
    linked_ = true;
    linked_changed_.notify_all();
  }

  std::string description_, branch_description_;
  GstElement *pipeline_, *src_, *lut_, *branch_;
  chaintest::MemoryCount lut_out_;
  std::mutex linked_lock_;
  std::condition_variable linked_changed_;
  bool linked_ = false;  // linked_lock_
};

// A tee after lut, its first branch ours.
const char* const kTee = "tee name=t allow-not-linked=true t. ! queue ! morph ! appsink name=a sync=false";

// The visible bytes of `frames` through `description` (between an appsrc and an appsink).
std::vector<std::string> Through(const std::string& description, const std::string& seed_name, guint count) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_RGBA, kWidth, kHeight);
  const std::string full = Source() + description + " ! appsink name=sink sync=false";
  GstElement* pipeline = vktest::ParsePipeline(full.c_str());
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE, "%s",
              full.c_str());
  chaintest::PushRandomFrames(src, info, seed_name, count);
  return chaintest::PullAllAndStop(pipeline, src, sink, count, full);
}

// What the recording branch does to lut's frames, and the branch's sink.
const char* const kRecording = "videoconvert ! video/x-raw,format=I420";
const char* const kBranchSink = " ! appsink name=b sync=false async=false";

struct LinkAt {
  DynamicStream* stream;
  GstClockTime pts;
  bool linked = false;
};

// Links the branch as the frame at `pts` leaves lut, before the tee has it.
GstPadProbeReturn LinkAsFrameLeaves(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto* at = static_cast<LinkAt*>(data);
  if (at->linked || GST_BUFFER_PTS(GST_PAD_PROBE_INFO_BUFFER(info)) != at->pts) return GST_PAD_PROBE_OK;
  at->linked = true;
  at->stream->AddBranchToTee();
  return GST_PAD_PROBE_REMOVE;
}

// After the stream ended: lut's caps are in system memory (behind a tee they always are; after the
// element replaced, the new one is not ours), the first branch gave morph's frames of the first
// frames, and the added branch lut's frames in I420 from frame `first_b` on.
void ExpectBranchFrames(const DynamicStream& stream, const std::string& seed_name, guint count,
                        const std::vector<std::string>& a, const std::vector<std::string>& b, guint first_b) {
  const std::string what = vktest::WithSeed(seed_name) + ", " + stream.what();
  fail_if(stream.LutCapsInDeviceMemory(), "%s: lut's caps are in device memory", what.c_str());
  const auto expected_a = Through(chaintest::Lut() + " ! morph", seed_name, count);
  const auto expected_b = Through(chaintest::Lut() + " ! " + kRecording, seed_name, count);
  for (size_t f = 0; f < a.size(); ++f)
    fail_unless(a[f] == expected_a[f], "%s: frame %zu of the first branch differs", what.c_str(), f);
  for (guint f = first_b; f < count; ++f)
    fail_unless(b[f - first_b] == expected_b[f], "%s: frame %u of the added branch differs", what.c_str(), f);
}

}  // namespace

// A recording branch (`queue ! videoconvert ! I420`) added to a tee after lut while PLAYING, between
// two frames. Behind a tee lut's caps are in system memory from the start, its frames in device
// memory (morph is behind the tee): the new branch takes the caps the tee hands it, videoconvert
// maps the frames (reads them back), the branch records every frame pushed after it came, and the
// branch of ours keeps getting every frame, still in device memory.
GST_START_TEST(test_tee_branch_added_while_playing) {
  constexpr guint kFrames = 6, kBefore = 3;
  std::vector<GstBuffer*> frames = Frames("tee branch", kFrames);
  DynamicStream stream(kTee, std::string("queue ! ") + kRecording + kBranchSink);
  std::vector<std::string> a, b;
  for (guint f = 0; f < kBefore; ++f) stream.Push(frames[f]);
  stream.Pull(stream.a_, kBefore, a);
  fail_unless(stream.LutFramesInDeviceMemory() && !stream.LutCapsInDeviceMemory(),
              "%s: before the branch, lut's frames are %sin device memory, its caps %sin device memory",
              stream.what().c_str(), stream.LutFramesInDeviceMemory() ? "" : "not ",
              stream.LutCapsInDeviceMemory() ? "" : "not ");
  stream.AddBranchToTee();
  for (guint f = kBefore; f < kFrames; ++f) stream.Push(frames[f]);
  stream.Pull(stream.a_, kFrames - kBefore, a);
  stream.Pull(stream.b_, kFrames - kBefore, b);
  stream.EndOfStream();
  fail_unless(stream.LutFramesInDeviceMemory(), "%s: lut's frames left device memory", stream.what().c_str());
  ExpectBranchFrames(stream, "tee branch", kFrames, a, b, kBefore);
  Unref(frames);
}
GST_END_TEST;

// The branch linked at the worst moment: as a frame leaves lut in device memory, before the tee
// has it. The caps the tee hands the branch are in system memory (its capsfilter takes nothing
// else), so the branch takes that frame too: it gets every frame from that one on, the first branch
// every frame, and the stream goes on without an error.
GST_START_TEST(test_tee_branch_linked_as_a_frame_leaves) {
  constexpr guint kFrames = 6, kLinkAt = 2;
  std::vector<GstBuffer*> frames = Frames("tee link", kFrames);
  DynamicStream stream(kTee,
                       std::string("capsfilter caps=video/x-raw ! queue ! ") + kRecording + kBranchSink);
  LinkAt at{&stream, GST_BUFFER_PTS(frames[kLinkAt])};
  GstPad* lut_src = gst_element_get_static_pad(stream.lut(), "src");
  gst_pad_add_probe(lut_src, GST_PAD_PROBE_TYPE_BUFFER, LinkAsFrameLeaves, &at, nullptr);
  gst_object_unref(lut_src);
  std::vector<std::string> a, b;
  for (GstBuffer* frame : frames) stream.Push(frame);
  stream.Pull(stream.a_, kFrames, a);
  stream.AwaitBranch();
  stream.Pull(stream.b_, kFrames - kLinkAt, b);
  stream.EndOfStream();
  ExpectBranchFrames(stream, "tee link", kFrames, a, b, kLinkAt);
  Unref(frames);
}
GST_END_TEST;

namespace {

// Holds a thread right after its next push on `pad` until a frame reached `at`: lut's streaming
// thread, after the held frame went into the new branch, whose videoconvert (in its queue's thread)
// has read the frame back by then, while lut's chain call, at whose end its thread's batch of GPU
// work would go, has not returned.
struct HoldAfterPush {
  GstPad* pad = nullptr;
  std::mutex lock;
  std::condition_variable changed;
  bool armed = false, reached = false;  // lock
};
HoldAfterPush* hold_after_push = nullptr;

struct PushTracer {
  GstTracer parent;
};
struct PushTracerClass {
  GstTracerClass parent_class;
};
G_DEFINE_TYPE(PushTracer, push_tracer, GST_TYPE_TRACER)
void push_tracer_class_init(PushTracerClass*) {}
void push_tracer_init(PushTracer*) {}

void OnPushed(GObject*, GstClockTime, GstPad* pad, GstFlowReturn) {
  HoldAfterPush* hold = hold_after_push;
  if (!hold || pad != hold->pad) return;
  std::unique_lock<std::mutex> lock(hold->lock);
  if (!std::exchange(hold->armed, false)) return;
  hold->changed.wait_for(lock, std::chrono::seconds(30), [hold] { return hold->reached; });
}

GstPadProbeReturn Reached(GstPad*, GstPadProbeInfo*, gpointer data) {
  auto* hold = static_cast<HoldAfterPush*>(data);
  std::lock_guard<std::mutex> lock(hold->lock);
  hold->reached = true;
  hold->changed.notify_all();
  return GST_PAD_PROBE_REMOVE;
}

// Makes the thread that pushes the frame the blocking probe holds on `pad` (ReplaceWhenBlocked())
// wait after that push until a buffer reached `at`.
void HoldNextPushUntilReached(HoldAfterPush& hold, GstPad* pad, GstElement* at) {
  static GstTracer* tracer = [] {
    auto* created = GST_TRACER(g_object_new(push_tracer_get_type(), nullptr));
    gst_tracing_register_hook(created, "pad-push-post", G_CALLBACK(OnPushed));
    return created;
  }();
  (void)tracer;
  hold.pad = pad;
  hold_after_push = &hold;
  GstPad* sink = gst_element_get_static_pad(at, "sink");
  gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_BUFFER, Reached, &hold, nullptr);
  gst_object_unref(sink);
}

// The blocking probe on lut's source pad: replaces the elements after lut, and arms the hold (if
// any) for the push of the frame it held. Armed any earlier, the hold could catch the end of the
// push before, which returns after its frame reached the old branch's appsink (where the test
// waits for it): lut's thread then waited the hold's 30 s with no frame on its way.
GstPadProbeReturn ReplaceWhenBlocked(GstPad*, GstPadProbeInfo*, gpointer data) {
  static_cast<DynamicStream*>(data)->ReplaceAfterLut();
  if (HoldAfterPush* hold = hold_after_push) {
    std::lock_guard<std::mutex> lock(hold->lock);
    hold->armed = true;
  }
  return GST_PAD_PROBE_REMOVE;
}

}  // namespace

// The element after lut replaced while PLAYING the usual way (a probe blocks lut's source pad, the
// old elements go, the new ones are linked) by `queue ! videoconvert ! I420`, a stock element that
// converts only system memory. The frame the probe held was made in device memory for morph: lut
// hands the new peer its caps in system memory (device memory maps like any) and negotiates
// system memory for the next frames; the new branch gets every frame from the held one on. lut's
// thread is held after that push until videoconvert has read the frame back: lut's work for it was
// recorded to join its thread's batch for morph, and must have gone to the GPU with the caps.
GST_START_TEST(test_element_after_lut_replaced_while_playing) {
  constexpr guint kFrames = 6, kBefore = 3;
  std::vector<GstBuffer*> frames = Frames("replace", kFrames);
  DynamicStream stream("morph ! appsink name=a sync=false",
                       std::string("queue ! ") + kRecording + kBranchSink);
  std::vector<std::string> a, b;
  for (guint f = 0; f < kBefore; ++f) stream.Push(frames[f]);
  stream.Pull(stream.a_, kBefore, a);
  fail_unless(stream.LutCapsInDeviceMemory() && stream.LutFramesInDeviceMemory(),
              "%s: lut's frames are not in device memory before the change", stream.what().c_str());
  GstPad* lut_src = gst_element_get_static_pad(stream.lut(), "src");
  HoldAfterPush hold;
  HoldNextPushUntilReached(hold, lut_src, stream.b_);
  gst_pad_add_probe(lut_src, GST_PAD_PROBE_TYPE_BLOCK_DOWNSTREAM, ReplaceWhenBlocked, &stream, nullptr);
  gst_object_unref(lut_src);
  for (guint f = kBefore; f < kFrames; ++f) stream.Push(frames[f]);
  stream.AwaitBranch();
  stream.Pull(stream.b_, kFrames - kBefore, b);
  stream.EndOfStream();
  ExpectBranchFrames(stream, "replace", kFrames, a, b, kBefore);
  fail_unless(!hold.armed && hold.reached, "lut's push of the held frame was not held");
  hold_after_push = nullptr;
  Unref(frames);
}
GST_END_TEST;

namespace {

// Memory whose first map calls a hook: lut maps its input while it works on the frame (to import or
// stage it), after it looked for a pending reconfigure and before its output leaves.
struct HookMemory {
  GstMemory memory;
  guint8* data;
  std::function<void()> hook;
};
struct HookAllocator {
  GstAllocator parent;
};
struct HookAllocatorClass {
  GstAllocatorClass parent_class;
};
G_DEFINE_TYPE(HookAllocator, hook_allocator, GST_TYPE_ALLOCATOR)

gpointer HookMap(GstMemory* memory, gsize, GstMapFlags) {
  auto* hooked = reinterpret_cast<HookMemory*>(memory);
  if (auto hook = std::exchange(hooked->hook, nullptr)) hook();
  return hooked->data;
}
void HookUnmap(GstMemory*) {}
void HookFree(GstAllocator*, GstMemory* memory) {
  auto* hooked = reinterpret_cast<HookMemory*>(memory);
  g_free(hooked->data);
  delete hooked;
}
void hook_allocator_class_init(HookAllocatorClass* klass) {
  GST_ALLOCATOR_CLASS(klass)->free = HookFree;
}
void hook_allocator_init(HookAllocator* allocator) {
  GstAllocator* base = GST_ALLOCATOR(allocator);
  base->mem_type = "VkComputeTestHookMemory";
  base->mem_map = HookMap;
  base->mem_unmap = HookUnmap;
  GST_OBJECT_FLAG_SET(allocator, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

// A copy of `frame` in one HookMemory that calls `hook` when first mapped.
GstBuffer* HookedCopy(GstBuffer* frame, std::function<void()> hook) {
  static GstAllocator* allocator = GST_ALLOCATOR(g_object_new(hook_allocator_get_type(), nullptr));
  const gsize size = gst_buffer_get_size(frame);
  auto* hooked = new HookMemory{{}, static_cast<guint8*>(g_malloc(size)), std::move(hook)};
  gst_memory_init(&hooked->memory, GstMemoryFlags(0), allocator, nullptr, size, 0, 0, size);
  gst_buffer_extract(frame, 0, hooked->data, size);
  GstBuffer* copy = gst_buffer_new();
  gst_buffer_append_memory(copy, &hooked->memory);
  gst_buffer_copy_into(copy, frame, GST_BUFFER_COPY_METADATA, 0, -1);
  return copy;
}

}  // namespace

// The branch linked while lut works on a frame, after it looked for a pending reconfigure at the
// frame's start: lut negotiates again before that frame leaves (its device memory goes on under the
// same system-memory caps, read back by videoconvert), so the branch gets every frame from that one
// on and nothing is dropped.
GST_START_TEST(test_tee_branch_linked_while_lut_works) {
  constexpr guint kFrames = 6, kLinkAt = 2;
  std::vector<GstBuffer*> frames = Frames("tee working", kFrames);
  DynamicStream stream(kTee, std::string("queue ! ") + kRecording + kBranchSink);
  GstBuffer* hooked = HookedCopy(frames[kLinkAt], [&stream] { stream.AddBranchToTee(); });
  gst_buffer_unref(std::exchange(frames[kLinkAt], hooked));
  std::vector<std::string> a, b;
  for (GstBuffer* frame : frames) stream.Push(frame);
  stream.Pull(stream.a_, kFrames, a);
  stream.AwaitBranch();
  stream.Pull(stream.b_, kFrames - kLinkAt, b);
  stream.EndOfStream();
  ExpectBranchFrames(stream, "tee working", kFrames, a, b, kLinkAt);
  Unref(frames);
}
GST_END_TEST;

static Suite* chain_lifecycle_suite() {
  Suite* suite = suite_create("chain_lifecycle");
  TCase* tc = vktest::NewTCase("chain_lifecycle", 600);
  tcase_add_test(tc, test_paused_and_playing_in_turn);
  tcase_add_test(tc, test_null_and_playing_in_turn);
  tcase_add_test(tc, test_property_changes_while_playing);
  tcase_add_test(tc, test_an_element_fails_mid_stream);
  tcase_add_test(tc, test_tee_branch_added_while_playing);
  tcase_add_test(tc, test_tee_branch_linked_as_a_frame_leaves);
  tcase_add_test(tc, test_tee_branch_linked_while_lut_works);
  tcase_add_test(tc, test_element_after_lut_replaced_while_playing);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(chain_lifecycle_suite(), "chain_lifecycle", __FILE__);
}
