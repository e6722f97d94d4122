// Stream behaviour of histogram: the shared analysis stream tests (message timestamps against a
// non-trivial segment, messages before EOS leaves the element, flushing, post-messages=false,
// teardown with results pending), plus messages without further frames, many frames in flight
// and property changes while playing.
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "common/analysis/stream_tests.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "histogram_case.h"
#include "tcases.h"
#include "verify.h"

namespace histogram_test {
namespace {

using analysis_test::ExpectPushOk;

}  // namespace

// A frame's message comes when its GPU work is done, whether or not more frames follow: after
// each push, its message arrives with no further input (the generous timeout only guards against
// a hang; nothing here is timed).
GST_START_TEST(test_messages_posted_without_further_frames) {
  const std::string name = "message without further frames";
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(histogram_ref::Params{});
  constexpr size_t kFrames = 6;
  analysis_test::PushEachAwaitingItsMessage(
      stream, kFrames, [](size_t i) { return i % 2 == 0 ? GST_VIDEO_FORMAT_Y444 : GST_VIDEO_FORMAT_ARGB; },
      rng, name);
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

// More frames than any sensible number of in-flight slots, pushed back to back with no wait: each
// frame's counts must still be its own (no slot reused before its result was read), in order.
GST_START_TEST(test_many_frames_in_flight) {
  const std::string name = "many frames in flight";
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(Bins(64));
  std::vector<TestFrame> frames;
  for (int i = 0; i < 4; ++i) frames.push_back(RandomFrame(GST_VIDEO_FORMAT_I420, 320, 240, rng));
  for (int i = 0; i < 40; ++i) ExpectPushOk(stream.Push(frames[i % frames.size()]), name);
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

// Every property applies from the frame pushed after it was set, post-messages included.
GST_START_TEST(test_properties_change_while_playing) {
  using analysis_test::With;
  using reference::Matrix;
  const reference::Roi inside{5, 3, 10, 8};
  analysis_test::ExpectSettingsApplyFromNextFrame<kHistogramCase>(
      {With(Bins(256), {}, Matrix::kBt709), With(Bins(10), {}, Matrix::kBt709),
       With(Bins(10), inside, Matrix::kBt709), With(Bins(10), inside, Matrix::kBt709, false),
       With(Bins(10), inside, Matrix::kBt709, false), With(Bins(256), {}, Matrix::kBt2020),
       With(Bins(1), {30, 0, 0, 0}, Matrix::kBt2020)},
      GST_VIDEO_FORMAT_RGBA, "properties while playing");
}
GST_END_TEST;

TCase* StreamTCase() {
  TCase* tcase = vktest::NewTCase("stream", 120);
  analysis_test::AddStreamTests<kHistogramCase>(tcase);
  tcase_add_test(tcase, test_messages_posted_without_further_frames);
  tcase_add_test(tcase, test_many_frames_in_flight);
  tcase_add_test(tcase, test_properties_change_while_playing);
  return tcase;
}

}  // namespace histogram_test
