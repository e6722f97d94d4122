// Stream behaviour: message timestamps against a non-trivial segment, when messages are posted
// (before EOS leaves the element, without further frames), flushing, post-messages=false,
// property changes while playing and teardown with results pending.
#include <atomic>
#include <set>
#include <string>

#include "analysis_stream.h"
#include "buffer_reference.h"
#include "common/bus_wait.h"
#include "common/flush_while_pushing.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "message_log.h"
#include "tcases.h"
#include "verify.h"

namespace histogram_test {
namespace {

constexpr int kTimeoutMs = 30000;

void ExpectPushOk(GstFlowReturn flow, const std::string& name) {
  fail_unless(flow == GST_FLOW_OK, "%s: push returned %s", WithSeed(name).c_str(), gst_flow_get_name(flow));
}

// `count` RandomFrame()s of one format and size, each push expected to return OK.
void PushRandomFrames(AnalysisStream& stream, int count, GstVideoFormat format, int width, int height,
                      std::mt19937& rng, const std::string& name) {
  for (int i = 0; i < count; ++i) ExpectPushOk(stream.Push(RandomFrame(format, width, height, rng)), name);
}

// Across a flush (FLUSH_STOP before frame `first_after`): pushes before it returned OK or, when
// the flush interrupted them, FLUSHING; pushes after it OK, every frame passed on unchanged. A
// flush may drop pending results, so before it any frames may lack their message, but the
// messages posted are right and in frame order, and every frame after the flush has one.
void ExpectMessagesAcrossFlush(const AnalysisStream& stream, size_t first_after, const std::string& name) {
  const std::vector<PushedFrame>& frames = stream.pushed();
  for (size_t i = 0; i < frames.size(); ++i) {
    if (i < first_after && frames[i].flow == GST_FLOW_FLUSHING) continue;
    fail_unless(frames[i].flow == GST_FLOW_OK, "%s: %s: push returned %s", name.c_str(),
                frames[i].description.c_str(), gst_flow_get_name(frames[i].flow));
    fail_unless(frames[i].output_problem.empty(), "%s: %s: %s", name.c_str(), frames[i].description.c_str(),
                frames[i].output_problem.c_str());
  }

  const std::vector<HistogramMessage> messages = stream.log().Histograms();
  size_t next = 0;  // each message must be for a later frame than the one before it
  std::set<size_t> matched;
  for (const HistogramMessage& message : messages) {
    while (next < frames.size() && frames[next].pts != message.timestamp) ++next;
    fail_unless(next < frames.size(), "%s: message out of order or with unknown timestamp: %s",
                WithSeed(name).c_str(), message.text.c_str());
    ExpectMessageMatches(message, frames[next], name + ": " + frames[next].description);
    matched.insert(next++);
  }
  for (size_t i = first_after; i < frames.size(); ++i) {
    fail_unless(matched.count(i) == 1, "%s: no message for %s, pushed after the flush", name.c_str(),
                frames[i].description.c_str());
  }
}

// Right after FLUSH_STOP: the stream goes on with new caps (the flush tests push RGBA 97x61
// before it) and ends; then both sides of the flush are checked.
void ExpectStreamGoesOnAfterFlush(AnalysisStream& stream, std::mt19937& rng, const std::string& name) {
  const size_t first_after = stream.pushed().size();
  PushRandomFrames(stream, 3, GST_VIDEO_FORMAT_NV12, 33, 17, rng, name);
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectMessagesAcrossFlush(stream, first_after, name);
}

}  // namespace

// timestamp/duration are the buffer's; running-time and stream-time follow the segment, also
// after a second segment mid-stream.
GST_START_TEST(test_timestamps_follow_segment) {
  const std::string name = "segment timestamps";
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(histogram_ref::Params{});
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
  for (const PushedFrame& frame : stream.pushed()) {
    const GstClockTime running = gst_segment_to_running_time(&frame.segment, GST_FORMAT_TIME, frame.pts);
    const GstClockTime stream_time = gst_segment_to_stream_time(&frame.segment, GST_FORMAT_TIME, frame.pts);
    fail_unless(running != frame.pts && stream_time != frame.pts && running != stream_time,
                "test data: trivial segment");
  }
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectStreamMatches(stream, name);
}
GST_END_TEST;

// appsrc ! histogram ! fakesink: when EOS passes histogram's src pad, all N messages must already
// have been posted, and they must be the N frames' results in order.
GST_START_TEST(test_eos_after_all_messages) {
  const std::string name = "eos after messages";
  std::mt19937 rng = vktest::RngFor(name);
  vktest::RequirePhysicalDevice();
  constexpr int kFrames = 12;
  GstElement* pipeline = vktest::ParsePipeline(
      "appsrc name=src format=time caps=video/x-raw,format=BGRA,width=97,height=61,"
      "framerate=30/1 ! histogram name=analyse bins=64 ! fakesink sync=false");
  MessageLog log(pipeline);

  struct EosProbe {
    MessageLog* log;
    std::atomic<int> messages_at_eos{-1};
    std::atomic<int> buffers{0};
  } probe{&log};
  GstElement* analyse = gst_bin_get_by_name(GST_BIN(pipeline), "analyse");
  GstPad* srcpad = gst_element_get_static_pad(analyse, "src");
  gst_pad_add_probe(
      srcpad, static_cast<GstPadProbeType>(GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM),
      [](GstPad*, GstPadProbeInfo* info, gpointer data) {
        auto* p = static_cast<EosProbe*>(data);
        if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
          ++p->buffers;
        } else if (GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info)) == GST_EVENT_EOS) {
          p->messages_at_eos = static_cast<int>(p->log->HistogramCount());
        }
        return GST_PAD_PROBE_OK;
      },
      &probe, nullptr);
  gst_object_unref(srcpad);

  histogram_ref::Params params;
  params.bins = 64;
  std::vector<PushedFrame> frames;
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  fail_if(gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
  for (int i = 0; i < kFrames; ++i) {
    const TestFrame frame = RandomFrame(GST_VIDEO_FORMAT_BGRA, 97, 61, rng);
    PushedFrame pushed;
    pushed.format = frame.format();
    pushed.pts = i * AnalysisStream::kFrameDuration;
    pushed.duration = AnalysisStream::kFrameDuration;
    gst_segment_init(&pushed.segment, GST_FORMAT_TIME);  // appsrc's default segment
    pushed.params = params;
    pushed.post_messages = true;
    pushed.expected = histogram_ref::Analyze(ViewOf(frame), params);
    pushed.description = frame.Describe() + " frame#" + std::to_string(i) + ", " + vktest::SeedDescription();
    frames.push_back(pushed);

    GstBuffer* buffer = gst_buffer_new_memdup(frame.bytes.data(), frame.bytes.size());
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

  fail_unless(log.WaitForErrorOrEos(60000), "%s: no EOS on the bus", WithSeed(name).c_str());
  const std::vector<PostedError> errors = log.Errors();
  fail_unless(errors.empty(), "%s: %s", name.c_str(), errors.empty() ? "" : errors[0].description.c_str());
  fail_unless_equals_int(probe.buffers.load(), kFrames);
  fail_unless(probe.messages_at_eos.load() == kFrames,
              "%s: EOS left histogram when %d of %d messages had been posted", WithSeed(name).c_str(),
              probe.messages_at_eos.load(), kFrames);
  const std::vector<HistogramMessage> messages = log.Histograms();
  fail_unless_equals_int(messages.size(), kFrames);
  for (int i = 0; i < kFrames; ++i) {
    fail_unless(messages[i].source == GST_OBJECT(analyse), "message %d not from histogram", i);
    ExpectMessageMatches(messages[i], frames[i], name + ": " + frames[i].description);
  }
  gst_object_unref(analyse);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}
GST_END_TEST;

// A frame's message comes when its GPU work is done, whether or not more frames follow: after
// each push, its message arrives with no further input (the generous timeout only guards against
// a hang; nothing here is timed).
GST_START_TEST(test_messages_posted_without_further_frames) {
  const std::string name = "message without further frames";
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(histogram_ref::Params{});
  constexpr size_t kFrames = 6;
  for (size_t i = 0; i < kFrames; ++i) {
    const GstVideoFormat format = i % 2 == 0 ? GST_VIDEO_FORMAT_Y444 : GST_VIDEO_FORMAT_ARGB;
    ExpectPushOk(stream.Push(RandomFrame(format, 97, 61, rng)), name);
    fail_unless(stream.log().WaitForHistograms(i + 1, kTimeoutMs),
                "%s: frame %zu's message did not come without a further frame (%zu posted)",
                WithSeed(name).c_str(), i, stream.log().HistogramCount());
  }
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectStreamMatches(stream, name);
}
GST_END_TEST;

// More frames than any sensible number of in-flight slots, pushed back to back with no wait: each
// frame's counts must still be its own (no slot reused before its result was read), in order.
GST_START_TEST(test_many_frames_in_flight) {
  const std::string name = "many frames in flight";
  std::mt19937 rng = vktest::RngFor(name);
  histogram_ref::Params params;
  params.bins = 64;
  AnalysisStream stream(params);
  std::vector<TestFrame> frames;
  for (int i = 0; i < 4; ++i) frames.push_back(RandomFrame(GST_VIDEO_FORMAT_I420, 320, 240, rng));
  for (int i = 0; i < 40; ++i) ExpectPushOk(stream.Push(frames[i % frames.size()]), name);
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectStreamMatches(stream, name);
}
GST_END_TEST;

// A flush may drop pending results; messages that are posted are right, in frame order, and
// every frame after the flush (with new caps) gets its message.
GST_START_TEST(test_flush_mid_stream) {
  const std::string name = "flush";
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(histogram_ref::Params{});
  PushRandomFrames(stream, 4, GST_VIDEO_FORMAT_RGBA, 97, 61, rng, name);
  stream.Flush();
  ExpectStreamGoesOnAfterFlush(stream, rng, name);
}
GST_END_TEST;

// FLUSH_START from another thread while the streaming thread keeps pushing (as a seek does),
// so the element may be waiting for the GPU with frames in flight: the push must return
// FLUSHING, and the stream must go on correctly after FLUSH_STOP.
GST_START_TEST(test_flush_while_streaming) {
  const std::string name = "flush while streaming";
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(histogram_ref::Params{});
  std::vector<TestFrame> frames;
  for (int i = 0; i < 4; ++i) frames.push_back(RandomFrame(GST_VIDEO_FORMAT_RGBA, 97, 61, rng));
  const vktest::FlushWhilePushingResult flush =
      vktest::FlushWhilePushing(stream, frames, [&] { return stream.log().WaitForHistograms(3, 60000); });
  fail_unless(flush.started, "%s: no messages before the flush", WithSeed(name).c_str());
  fail_unless(flush.saw_flushing, "%s: pushing never returned FLUSHING (last flow %s)",
              WithSeed(name).c_str(), gst_flow_get_name(stream.pushed().back().flow));
  stream.FlushStop();
  ExpectStreamGoesOnAfterFlush(stream, rng, name);
}
GST_END_TEST;

GST_START_TEST(test_post_messages_false) {
  const std::string name = "post-messages=false";
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(histogram_ref::Params{}, /*post_messages=*/false);
  for (int i = 0; i < 3; ++i) stream.Push(RandomFrame(GST_VIDEO_FORMAT_xRGB, 33, 17, rng));
  stream.Push(RandomFrame(GST_VIDEO_FORMAT_I420, 2, 3, rng), Placement{Memory::kSystem, 3, 1});
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectFramesPassedThrough(stream, name);
  fail_unless(stream.log().HistogramCount() == 0, "%s: %zu histogram messages posted", name.c_str(),
              stream.log().HistogramCount());
}
GST_END_TEST;

// Every property applies from the frame pushed after it was set, post-messages included.
GST_START_TEST(test_properties_change_while_playing) {
  const std::string name = "properties while playing";
  std::mt19937 rng = vktest::RngFor(name);
  histogram_ref::Params params;
  AnalysisStream stream(params);
  auto push = [&] { ExpectPushOk(stream.Push(RandomFrame(GST_VIDEO_FORMAT_RGBA, 33, 17, rng)), name); };
  push();
  params.bins = 10;
  stream.SetParams(params);
  push();
  params.roi = {5, 3, 10, 8};
  stream.SetParams(params);
  push();
  stream.SetPostMessages(false);
  push();
  push();
  params.roi = {};
  params.matrix = histogram_ref::Matrix::kBt2020;
  params.bins = 256;
  stream.SetParams(params);
  stream.SetPostMessages(true);
  push();
  params.bins = 1;
  params.roi = {30, 0, 0, 0};
  stream.SetParams(params);
  push();
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectStreamMatches(stream, name);
}
GST_END_TEST;

// Stopping the element with results pending: no crash, no validation error (the fixture checks),
// and whatever was posted is right.
GST_START_TEST(test_teardown_with_results_pending) {
  const std::string name = "teardown pending";
  std::mt19937 rng = vktest::RngFor(name);
  std::vector<HistogramMessage> messages;
  std::vector<PushedFrame> frames;
  {
    AnalysisStream stream(histogram_ref::Params{});
    PushRandomFrames(stream, 3, GST_VIDEO_FORMAT_ABGR, 97, 61, rng, name);
    frames = stream.pushed();
    // Taken before the stream (and its log) go away; teardown may post the rest.
    messages = stream.log().Histograms();
  }
  fail_unless(messages.size() <= frames.size());
  for (size_t i = 0; i < messages.size(); ++i) {
    ExpectMessageMatches(messages[i], frames[i], name + ": " + frames[i].description);
  }
}
GST_END_TEST;

TCase* StreamTCase() {
  TCase* tcase = vktest::NewTCase("stream", 120);
  tcase_add_test(tcase, test_timestamps_follow_segment);
  tcase_add_test(tcase, test_eos_after_all_messages);
  tcase_add_test(tcase, test_messages_posted_without_further_frames);
  tcase_add_test(tcase, test_many_frames_in_flight);
  tcase_add_test(tcase, test_flush_mid_stream);
  tcase_add_test(tcase, test_flush_while_streaming);
  tcase_add_test(tcase, test_post_messages_false);
  tcase_add_test(tcase, test_properties_change_while_playing);
  tcase_add_test(tcase, test_teardown_with_results_pending);
  return tcase;
}

}  // namespace histogram_test
