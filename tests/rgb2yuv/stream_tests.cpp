// Stream behaviour: renegotiation while frames are in flight, EOS draining and flushing.
#include <string>

#include "common/flush_while_pushing.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "conversion_stream.h"
#include "formats.h"
#include "tcases.h"
#include "verify.h"

namespace rgb2yuv_test {
namespace {

using vktest::MemoryKind;

void ExpectPushOk(GstFlowReturn flow, const std::string& name) {
  fail_unless(flow == GST_FLOW_OK, "%s: push returned %s, %s", name.c_str(), gst_flow_get_name(flow),
              vktest::SeedDescription().c_str());
}

// `count` RandomRgbFrame()s of one format and size, each push expected to return OK.
void PushRandomFrames(ConversionStream& stream, int count, GstVideoFormat format, int width, int height,
                      std::mt19937& rng, const std::string& name) {
  for (int i = 0; i < count; ++i) ExpectPushOk(stream.Push(RandomRgbFrame(format, width, height, rng)), name);
}

// Index in `items` of the first event of `type`, or items.size().
size_t FindEvent(const std::vector<vktest::RecordedItem>& items, GstEventType type) {
  for (size_t i = 0; i < items.size(); ++i) {
    if (!items[i].is_buffer && items[i].event_type == type) return i;
  }
  return items.size();
}

// Outputs that came out before a flush may be any subset of the frames pushed before it, but
// each must still be the right conversion of the frame with its timestamp.
void ExpectOutputsBeforeFlushValid(const ConversionStream& stream,
                                   const std::vector<vktest::RecordedItem>& items, size_t end,
                                   const std::string& name) {
  for (size_t i = 0; i < end; ++i) {
    if (!items[i].is_buffer) continue;
    const PushedFrame* input = nullptr;
    size_t index = 0;
    for (; index < stream.pushed().size(); ++index) {
      if (stream.pushed()[index].pts == items[i].pts) {
        input = &stream.pushed()[index];
        break;
      }
    }
    fail_unless(input != nullptr, "%s: output with unknown pts %" GST_TIME_FORMAT, WithSeed(name).c_str(),
                GST_TIME_ARGS(items[i].pts));
    ExpectOutputMatchesReference(items[i], *input, name + ": " + DescribeFrame(*input, index), std::nullopt);
  }
}

// After FLUSH_STOP exactly the frames pushed after it come out, in order.
void ExpectOutputsAfterFlushExact(const ConversionStream& stream,
                                  const std::vector<vktest::RecordedItem>& items, size_t flush_stop,
                                  size_t first_input_after, const std::string& name) {
  std::vector<const vktest::RecordedItem*> after;
  for (size_t i = flush_stop; i < items.size(); ++i) {
    if (items[i].is_buffer) after.push_back(&items[i]);
  }
  const size_t expected = stream.pushed().size() - first_input_after;
  fail_unless(after.size() == expected, "%s: %zu frames pushed after the flush, %zu came out",
              WithSeed(name).c_str(), expected, after.size());
  for (size_t k = 0; k < after.size(); ++k) {
    const size_t index = first_input_after + k;
    ExpectOutputMatchesReference(*after[k], stream.pushed()[index],
                                 name + ": " + DescribeFrame(stream.pushed()[index], index), std::nullopt);
  }
}

// Ends the stream and checks both sides of its FLUSH_STOP: what left before it is valid output,
// and the frames pushed from `first_after` on come out exactly once, correct.
void ExpectFlushedStreamEnds(ConversionStream& stream, size_t first_after, const std::string& name) {
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  const std::vector<vktest::RecordedItem> items = stream.recorder().Items();
  const size_t flush_stop = FindEvent(items, GST_EVENT_FLUSH_STOP);
  fail_unless(flush_stop < items.size(), "%s: FLUSH_STOP did not come out", WithSeed(name).c_str());
  ExpectOutputsBeforeFlushValid(stream, items, flush_stop, name);
  ExpectOutputsAfterFlushExact(stream, items, flush_stop, first_after, name);
}

}  // namespace

// Input size, input format and output format/colorimetry change while nothing is pulled, so
// a pipelining element has frames in flight at every change. Every frame must come out once,
// converted with the caps in force when it was pushed, with its own timestamp.
GST_START_TEST(test_renegotiation_in_flight) {
  const std::string name = "renegotiation";
  std::mt19937 rng = vktest::RngFor(name);
  ConversionStream stream("rgb2yuv", OutputSpec{GST_VIDEO_FORMAT_I420, "bt709", "jpeg"});
  auto push = [&](GstVideoFormat format, int width, int height, const InputPlacement& placement = {}) {
    ExpectPushOk(stream.Push(RandomRgbFrame(format, width, height, rng), placement), name);
  };
  push(GST_VIDEO_FORMAT_RGB, 33, 17);
  push(GST_VIDEO_FORMAT_RGB, 33, 17, {MemoryKind::kSystem, 9, 3});
  push(GST_VIDEO_FORMAT_RGB, 64, 48);                                     // size change
  push(GST_VIDEO_FORMAT_BGRA, 64, 48);                                    // input format change
  stream.SetOutput(OutputSpec{GST_VIDEO_FORMAT_NV12, "bt601", "mpeg2"});  // output change
  push(GST_VIDEO_FORMAT_BGRA, 64, 48);
  push(GST_VIDEO_FORMAT_xRGB, 1, 1);  // both input caps fields change at once
  push(GST_VIDEO_FORMAT_xRGB, 1, 1);
  stream.SetOutput(OutputSpec{GST_VIDEO_FORMAT_YUY2, "bt2020", "jpeg"});
  push(GST_VIDEO_FORMAT_ABGR, 97, 61, {MemoryKind::kSplit, 4, 0});  // both sides change
  stream.SetOutput(OutputSpec{GST_VIDEO_FORMAT_AYUV, kColorSetups[3].CapsString(), "jpeg"});
  push(GST_VIDEO_FORMAT_RGBA, 7, 5);
  stream.SetOutput(OutputSpec{GST_VIDEO_FORMAT_I420, "bt709", "mpeg2"});
  push(GST_VIDEO_FORMAT_RGB, 33, 17);  // back to the first input caps
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectMatchesReference(stream, name);
}
GST_END_TEST;

// EOS must drain: every frame pushed before it comes out before it.
GST_START_TEST(test_eos_drains) {
  const std::string name = "eos drain";
  std::mt19937 rng = vktest::RngFor(name);
  ConversionStream stream("rgb2yuv", OutputSpec{GST_VIDEO_FORMAT_NV12, "bt709", "jpeg"});
  constexpr int kFrames = 8;
  PushRandomFrames(stream, kFrames, GST_VIDEO_FORMAT_BGRx, 97, 61, rng, name);
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());

  const std::vector<vktest::RecordedItem> items = stream.recorder().Items();
  const size_t eos = FindEvent(items, GST_EVENT_EOS);
  size_t before = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!items[i].is_buffer) continue;
    fail_unless(i < eos, "%s: a buffer came out after EOS", WithSeed(name).c_str());
    ++before;
  }
  fail_unless_equals_int(before, kFrames);
  ExpectMatchesReference(stream, name);
}
GST_END_TEST;

// A flush between pushes (frames may still be in flight in a pipelining element).
GST_START_TEST(test_flush_between_frames) {
  const std::string name = "flush";
  std::mt19937 rng = vktest::RngFor(name);
  ConversionStream stream("rgb2yuv", OutputSpec{GST_VIDEO_FORMAT_I420, "bt601", "jpeg"});
  PushRandomFrames(stream, 3, GST_VIDEO_FORMAT_RGBA, 64, 48, rng, name);
  stream.Flush();
  const size_t first_after = stream.pushed().size();
  PushRandomFrames(stream, 3, GST_VIDEO_FORMAT_RGBA, 64, 48, rng, name);
  // The stream also survives a caps change right after the flush.
  ExpectPushOk(stream.Push(RandomRgbFrame(GST_VIDEO_FORMAT_RGB, 31, 9, rng)), name);
  ExpectFlushedStreamEnds(stream, first_after, name);
}
GST_END_TEST;

// FLUSH_START from another thread while the streaming thread keeps pushing, as a seek does:
// the streaming thread must be released (push returns FLUSHING) and the stream must continue
// correctly after FLUSH_STOP.
GST_START_TEST(test_flush_while_streaming) {
  const std::string name = "flush while streaming";
  std::mt19937 rng = vktest::RngFor(name);
  ConversionStream stream("rgb2yuv", OutputSpec{GST_VIDEO_FORMAT_NV21, "bt709", "mpeg2"});
  std::vector<RgbFrame> frames;
  for (int i = 0; i < 4; ++i) frames.push_back(RandomRgbFrame(GST_VIDEO_FORMAT_BGR, 97, 61, rng));
  const vktest::FlushWhilePushingResult flush =
      vktest::FlushWhilePushing(stream, frames, [&] { return stream.recorder().WaitForBuffers(3, 60000); });
  fail_unless(flush.started, "%s: no output before the flush", WithSeed(name).c_str());
  fail_unless(flush.saw_flushing, "%s: pushing never returned FLUSHING (last flow %s)",
              WithSeed(name).c_str(), gst_flow_get_name(stream.pushed().back().flow));
  stream.FlushStop();

  const size_t first_after = stream.pushed().size();
  PushRandomFrames(stream, 3, GST_VIDEO_FORMAT_BGR, 97, 61, rng, name);
  ExpectFlushedStreamEnds(stream, first_after, name);
}
GST_END_TEST;

TCase* StreamTCase() {
  TCase* tcase = vktest::NewTCase("stream", 120);
  tcase_add_test(tcase, test_renegotiation_in_flight);
  tcase_add_test(tcase, test_eos_drains);
  tcase_add_test(tcase, test_flush_between_frames);
  tcase_add_test(tcase, test_flush_while_streaming);
  return tcase;
}

}  // namespace rgb2yuv_test
