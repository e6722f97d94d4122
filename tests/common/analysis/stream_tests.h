// The stream tests every analysis element must pass, written once: message timestamps against a
// non-trivial segment, all messages posted before EOS leaves the element, flushing (between
// pushes and while another thread pushes), post-messages=false, and teardown with results
// pending. Each suite adds them for its element's case (element_case.h) with AddStreamTests();
// the helpers before them (pushing, settings changed while playing, flushing) serve the suites'
// own stream tests too.
#pragma once

#include <gst/check/gstcheck.h>

#include <atomic>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "analysis_stream.h"
#include "check_test.h"
#include "common/bus_wait.h"
#include "common/flush_while_pushing.h"
#include "common/input_placement.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "element_case.h"
#include "message_log.h"
#include "reference/luma_roi.h"
#include "stream_checks.h"

namespace analysis_test {

inline void ExpectPushOk(GstFlowReturn flow, const std::string& name) {
  fail_unless(flow == GST_FLOW_OK, "%s: push returned %s", vktest::WithSeed(name).c_str(),
              gst_flow_get_name(flow));
}

// `count` random frames of one format and size, each push expected to return OK.
template <const auto& kCase>
void PushRandomFrames(AnalysisStream<kCase>& stream, int count, GstVideoFormat format, int width, int height,
                      std::mt19937& rng, const std::string& name) {
  for (int i = 0; i < count; ++i)
    ExpectPushOk(stream.Push(kCase.random_frame(format, width, height, rng)), name);
}

// A frame's message comes when its GPU work is done, whether or not more frames follow: after
// each push of `count` frames (of format_of(i), 97x61), its message arrives with no further
// input (the generous timeout only guards against a hang; nothing here is timed).
template <const auto& kCase, typename FormatOf>
void PushEachAwaitingItsMessage(AnalysisStream<kCase>& stream, size_t count, FormatOf format_of,
                                std::mt19937& rng, const std::string& name) {
  for (size_t i = 0; i < count; ++i) {
    ExpectPushOk(stream.Push(kCase.random_frame(format_of(i), 97, 61, rng)), name);
    fail_unless(stream.log().WaitFor(i + 1, 30000),
                "%s: frame %zu's message did not come without a further frame (%zu posted)",
                vktest::WithSeed(name).c_str(), i, stream.log().Count());
  }
}

// The settings of one frame of a properties-while-playing test.
template <typename Params>
struct Settings {
  Params params;
  bool post_messages = true;
};

// The element's own properties `own` (the other fields at their defaults) with `roi` and `matrix`.
template <typename Params>
Settings<Params> With(Params own, const reference::Roi& roi, reference::Matrix matrix,
                      bool post_messages = true) {
  own.roi = roi;
  own.matrix = matrix;
  return Settings<Params>{own, post_messages};
}

// Every property applies from the frame pushed after it was set: a 33x17 frame of `format`
// pushed under each of `frames` in turn, what differs from the frame before set while playing
// (the properties, then post-messages).
template <const auto& kCase>
void ExpectSettingsApplyFromNextFrame(const std::vector<Settings<ParamsOf<kCase>>>& frames,
                                      GstVideoFormat format, const std::string& name) {
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream<kCase> stream(frames.front().params, frames.front().post_messages);
  for (size_t i = 0; i < frames.size(); ++i) {
    // Params have no operator==; their descriptions name every field.
    if (i > 0 && kCase.describe_params(frames[i].params) != kCase.describe_params(frames[i - 1].params))
      stream.SetParams(frames[i].params);
    if (i > 0 && frames[i].post_messages != frames[i - 1].post_messages)
      stream.SetPostMessages(frames[i].post_messages);
    ExpectPushOk(stream.Push(kCase.random_frame(format, 33, 17, rng)), name);
  }
  EndAndExpectStreamMatches(stream, name);
}

// Across a flush (FLUSH_STOP before frame `first_after`): pushes before it returned OK or, when
// the flush interrupted them, FLUSHING; pushes after it OK, every frame passed on unchanged. A
// flush may drop pending results, so before it any frames may lack their message, but the
// messages posted are right and in frame order, and every frame after the flush has one.
template <const auto& kCase>
void ExpectMessagesAcrossFlush(const AnalysisStream<kCase>& stream, size_t first_after,
                               const std::string& name) {
  const auto& frames = stream.pushed();
  for (size_t i = 0; i < frames.size(); ++i) {
    if (i < first_after && frames[i].flow == GST_FLOW_FLUSHING) continue;
    ExpectPassedThrough(frames[i], name);
  }

  const auto messages = stream.log().Messages();
  size_t next = 0;  // each message must be for a later frame than the one before it
  std::set<size_t> matched;
  for (const auto& message : messages) {
    while (next < frames.size() && frames[next].pts != message.timestamp) ++next;
    fail_unless(next < frames.size(), "%s: message out of order or with unknown timestamp: %s",
                vktest::WithSeed(name).c_str(), message.text.c_str());
    kCase.expect_message_matches(message, frames[next], name + ": " + frames[next].description);
    matched.insert(next++);
  }
  for (size_t i = first_after; i < frames.size(); ++i) {
    fail_unless(matched.count(i) == 1, "%s: no message for %s, pushed after the flush", name.c_str(),
                frames[i].description.c_str());
  }
}

// Right after FLUSH_STOP: the stream goes on with new caps (the flush tests push RGBA 97x61
// before it) and ends; then both sides of the flush are checked.
template <const auto& kCase>
void ExpectStreamGoesOnAfterFlush(AnalysisStream<kCase>& stream, std::mt19937& rng, const std::string& name) {
  const size_t first_after = stream.pushed().size();
  PushRandomFrames(stream, 3, kCase.after_flush_format, 33, 17, rng, name);
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", vktest::WithSeed(name).c_str());
  ExpectMessagesAcrossFlush(stream, first_after, name);
}

// timestamp/duration are the buffer's; running-time and stream-time follow the segment, also
// after a second segment mid-stream.
template <const auto& kCase>
struct TimestampsFollowSegment {
  static constexpr const char* kName = "test_timestamps_follow_segment";
  static void Run() {
    const std::string name = "segment timestamps";
    std::mt19937 rng = vktest::RngFor(name);
    AnalysisStream<kCase> stream(typename AnalysisStream<kCase>::Params{});
    GstSegment segment;
    gst_segment_init(&segment, GST_FORMAT_TIME);
    segment.start = 2 * GST_SECOND;
    segment.time = 10 * GST_SECOND;
    segment.base = 7 * GST_SECOND;
    stream.SetSegment(segment);
    PushRandomFrames(stream, 3, GST_VIDEO_FORMAT_I420, 16, 9, rng, name);
    segment.start = 5 * GST_SECOND;
    segment.time = 1 * GST_SECOND;
    segment.base = 40 * GST_SECOND;
    segment.stop = 9 * GST_SECOND;
    segment.rate = 2.0;  // running time runs at half the speed of the timestamps
    stream.SetSegment(segment);
    PushRandomFrames(stream, 3, GST_VIDEO_FORMAT_I420, 16, 9, rng, name);

    // The three times differ for every frame, so a swapped or unconverted field shows.
    for (const FrameRecord& frame : stream.pushed()) {
      const GstClockTime running = gst_segment_to_running_time(&frame.segment, GST_FORMAT_TIME, frame.pts);
      const GstClockTime stream_time = gst_segment_to_stream_time(&frame.segment, GST_FORMAT_TIME, frame.pts);
      fail_unless(running != frame.pts && stream_time != frame.pts && running != stream_time,
                  "test data: trivial segment");
    }
    EndAndExpectStreamMatches(stream, name);
  }
};

// appsrc ! <element> ! fakesink: when EOS passes the element's src pad, all N messages must
// already have been posted, and they must be the N frames' results in order.
template <const auto& kCase>
struct EosAfterAllMessages {
  static constexpr const char* kName = "test_eos_after_all_messages";

  struct EosProbe {
    const MessageLog<kCase>* log;
    std::atomic<int> messages_at_eos{-1};
    std::atomic<int> buffers{0};
  };

  static GstPadProbeReturn OnData(GstPad*, GstPadProbeInfo* info, gpointer data) {
    auto* p = static_cast<EosProbe*>(data);
    if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
      ++p->buffers;
    } else if (GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info)) == GST_EVENT_EOS) {
      p->messages_at_eos = static_cast<int>(p->log->Count());
    }
    return GST_PAD_PROBE_OK;
  }

  static void Run() {
    using Frame = typename AnalysisStream<kCase>::Frame;
    const std::string name = "eos after messages";
    const char* element = kCase.element;
    std::mt19937 rng = vktest::RngFor(name);
    vktest::RequirePhysicalDevice();
    constexpr int kFrames = 12;
    const std::string description =
        std::string(
            "appsrc name=src format=time caps=video/x-raw,format=BGRA,width=97,height=61,"
            "framerate=30/1 ! ") +
        element + " name=analyse ! fakesink sync=false";
    GstElement* pipeline = vktest::ParsePipeline(description.c_str());
    MessageLog<kCase> log(pipeline);

    EosProbe probe;
    probe.log = &log;
    GstElement* analyse = gst_bin_get_by_name(GST_BIN(pipeline), "analyse");
    const auto& params = kCase.eos_params;
    kCase.apply_params(analyse, params);
    GstPad* srcpad = gst_element_get_static_pad(analyse, "src");
    gst_pad_add_probe(
        srcpad, static_cast<GstPadProbeType>(GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM),
        OnData, &probe, nullptr);
    gst_object_unref(srcpad);

    std::vector<Frame> frames;
    GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    fail_if(gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
    for (int i = 0; i < kFrames; ++i) {
      const TestFrame frame = kCase.random_frame(GST_VIDEO_FORMAT_BGRA, 97, 61, rng);
      GstBuffer* buffer = gst_buffer_new_memdup(frame.bytes.data(), frame.bytes.size());
      Frame pushed;
      pushed.format = frame.format();
      pushed.pts = i * HarnessDriver::kFrameDuration;
      pushed.duration = HarnessDriver::kFrameDuration;
      gst_segment_init(&pushed.segment, GST_FORMAT_TIME);  // appsrc's default segment
      pushed.params = params;
      pushed.post_messages = true;
      pushed.expected = kCase.analyze_buffer(buffer, frame.info, params);
      pushed.description =
          frame.Describe() + " frame#" + std::to_string(i) + ", " + vktest::SeedDescription();
      frames.push_back(pushed);

      GST_BUFFER_PTS(buffer) = pushed.pts;
      GST_BUFFER_DURATION(buffer) = pushed.duration;
      GstFlowReturn flow = GST_FLOW_OK;
      g_signal_emit_by_name(src, "push-buffer", buffer, &flow);
      gst_buffer_unref(buffer);
      ExpectPushOk(flow, name);
    }
    GstFlowReturn flow = GST_FLOW_OK;
    g_signal_emit_by_name(src, "end-of-stream", &flow);
    gst_object_unref(src);

    fail_unless(log.WaitForErrorOrEos(60000), "%s: no EOS on the bus", vktest::WithSeed(name).c_str());
    const std::vector<PostedError> errors = log.Errors();
    fail_unless(errors.empty(), "%s: %s", name.c_str(), errors.empty() ? "" : errors[0].description.c_str());
    fail_unless_equals_int(probe.buffers.load(), kFrames);
    fail_unless(probe.messages_at_eos.load() == kFrames,
                "%s: EOS left %s when %d of %d messages had been posted", vktest::WithSeed(name).c_str(),
                element, probe.messages_at_eos.load(), kFrames);
    const auto messages = log.Messages();
    fail_unless_equals_int(messages.size(), kFrames);
    for (int i = 0; i < kFrames; ++i) {
      fail_unless(messages[i].source == GST_OBJECT(analyse), "message %d not from %s", i, element);
      kCase.expect_message_matches(messages[i], frames[i], name + ": " + frames[i].description);
    }
    gst_object_unref(analyse);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
  }
};

// A flush may drop pending results; messages that are posted are right, in frame order, and
// every frame after the flush (with new caps) gets its message.
template <const auto& kCase>
struct FlushMidStream {
  static constexpr const char* kName = "test_flush_mid_stream";
  static void Run() {
    const std::string name = "flush";
    std::mt19937 rng = vktest::RngFor(name);
    AnalysisStream<kCase> stream(kCase.flush_params);
    PushRandomFrames(stream, 4, GST_VIDEO_FORMAT_RGBA, 97, 61, rng, name);
    stream.Flush();
    ExpectStreamGoesOnAfterFlush(stream, rng, name);
  }
};

// FLUSH_START from another thread while the streaming thread keeps pushing (as a seek does),
// so the element may be waiting for the GPU with frames in flight: the push must return
// FLUSHING, and the stream must go on correctly after FLUSH_STOP.
template <const auto& kCase>
struct FlushWhileStreaming {
  static constexpr const char* kName = "test_flush_while_streaming";
  static void Run() {
    const std::string name = "flush while streaming";
    std::mt19937 rng = vktest::RngFor(name);
    AnalysisStream<kCase> stream(kCase.flush_while_streaming_params);
    std::vector<TestFrame> frames;
    for (int i = 0; i < 4; ++i) frames.push_back(kCase.random_frame(GST_VIDEO_FORMAT_RGBA, 97, 61, rng));
    const vktest::FlushWhilePushingResult flush =
        vktest::FlushWhilePushing(stream, frames, [&] { return stream.log().WaitFor(3, 60000); });
    fail_unless(flush.started, "%s: no messages before the flush", vktest::WithSeed(name).c_str());
    fail_unless(flush.saw_flushing, "%s: pushing never returned FLUSHING (last flow %s)",
                vktest::WithSeed(name).c_str(), gst_flow_get_name(stream.pushed().back().flow));
    stream.FlushStop();
    ExpectStreamGoesOnAfterFlush(stream, rng, name);
  }
};

template <const auto& kCase>
struct PostMessagesFalse {
  static constexpr const char* kName = "test_post_messages_false";
  static void Run() {
    const std::string name = "post-messages=false";
    std::mt19937 rng = vktest::RngFor(name);
    AnalysisStream<kCase> stream(typename AnalysisStream<kCase>::Params{}, /*post_messages=*/false);
    for (int i = 0; i < 3; ++i) stream.Push(kCase.random_frame(GST_VIDEO_FORMAT_xRGB, 33, 17, rng));
    stream.Push(kCase.random_frame(kCase.odd_placement_format, 2, 3, rng),
                vktest::InputPlacement{vktest::MemoryKind::kSystem, 3, 1});
    fail_unless(stream.EndOfStream(), "%s: EOS did not come out", vktest::WithSeed(name).c_str());
    ExpectFramesPassedThrough(stream, name);
    fail_unless(stream.log().Count() == 0, "%s: %zu %s messages posted", name.c_str(), stream.log().Count(),
                kCase.element);
  }
};

// Stopping the element with results pending: no crash, no validation error (the fixture checks),
// and whatever was posted is right.
template <const auto& kCase>
struct TeardownWithResultsPending {
  static constexpr const char* kName = "test_teardown_with_results_pending";
  static void Run() {
    const std::string name = "teardown pending";
    std::mt19937 rng = vktest::RngFor(name);
    std::vector<typename MessageLog<kCase>::Message> messages;
    std::vector<typename AnalysisStream<kCase>::Frame> frames;
    {
      AnalysisStream<kCase> stream(typename AnalysisStream<kCase>::Params{});
      PushRandomFrames(stream, 3, GST_VIDEO_FORMAT_ABGR, 97, 61, rng, name);
      frames = stream.pushed();
      // Taken before the stream (and its log) go away; teardown may post the rest.
      messages = stream.log().Messages();
    }
    fail_unless(messages.size() <= frames.size());
    for (size_t i = 0; i < messages.size(); ++i) {
      kCase.expect_message_matches(messages[i], frames[i], name + ": " + frames[i].description);
    }
  }
};

// Adds the tests above to `tcase`.
template <const auto& kCase>
void AddStreamTests(TCase* tcase) {
  AddCheckTest<TimestampsFollowSegment<kCase>>(tcase);
  AddCheckTest<EosAfterAllMessages<kCase>>(tcase);
  AddCheckTest<FlushMidStream<kCase>>(tcase);
  AddCheckTest<FlushWhileStreaming<kCase>>(tcase);
  AddCheckTest<PostMessagesFalse<kCase>>(tcase);
  AddCheckTest<TeardownWithResultsPending<kCase>>(tcase);
}

}  // namespace analysis_test
