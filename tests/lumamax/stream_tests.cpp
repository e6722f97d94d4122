// Stream behaviour of lumamax: the shared analysis stream tests (message timestamps against a
// non-trivial segment, messages before EOS leaves the element, flushing, post-messages=false,
// teardown with results pending), plus when messages are posted (boundedly after their frame,
// at any serialized event) and property changes while playing.
#include <optional>
#include <random>
#include <string>

#include "common/analysis/stream_tests.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "lumamax_case.h"
#include "tcases.h"
#include "verify.h"

namespace lumamax_test {
namespace {

using analysis_test::ExpectPushOk;
using analysis_test::PushRandomFrames;

}  // namespace

// A frame's message comes when its GPU work is done, whether or not more frames follow: after
// each push, its message arrives with no further input (the generous timeout only guards against
// a hang; nothing here is timed). A serialized event makes the element post everything pending.
GST_START_TEST(test_messages_posted_without_further_frames) {
  const std::string name = "message latency";
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(lumamax_ref::Params{});
  constexpr size_t kFrames = 8;
  analysis_test::PushEachAwaitingItsMessage(
      stream, kFrames, [](size_t) { return GST_VIDEO_FORMAT_NV12; }, rng, name);
  PushRandomFrames(stream, kFrames, GST_VIDEO_FORMAT_NV12, 97, 61, rng, name);
  stream.PushSerializedEvent();
  fail_unless(stream.log().Count() == 2 * kFrames,
              "%s: after a serialized event %zu of %zu messages were posted", WithSeed(name).c_str(),
              stream.log().Count(), 2 * kFrames);
  // New caps (a new size) are a serialized event too: the two frames before them are posted by
  // the time the frame after them has been pushed.
  PushRandomFrames(stream, 2, GST_VIDEO_FORMAT_NV12, 97, 61, rng, name);
  ExpectPushOk(stream.Push(RandomFrame(GST_VIDEO_FORMAT_NV12, 33, 17, rng)), name);
  fail_unless(stream.log().Count() >= 2 * kFrames + 2,
              "%s: after a caps change %zu of the %zu frames before it had their message",
              WithSeed(name).c_str(), stream.log().Count(), 2 * kFrames + 2);
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

// Every property applies from the frame pushed after it was set.
GST_START_TEST(test_properties_change_while_playing) {
  using analysis_test::With;
  using reference::Matrix;
  analysis_test::ExpectSettingsApplyFromNextFrame<kLumamaxCase>(
      {With(PeakParams(1, 0), {}, Matrix::kBt709), With(PeakParams(6, 2), {}, Matrix::kBt709),
       With(PeakParams(6, 2), {5, 3, 10, 8}, Matrix::kBt709), With(PeakParams(64, 0), {}, Matrix::kBt2020),
       With(PeakParams(1, 0), {30, 0, 0, 0}, Matrix::kBt2020)},
      GST_VIDEO_FORMAT_RGBx, "properties while playing");
}
GST_END_TEST;

TCase* StreamTCase() {
  TCase* tcase = vktest::NewTCase("stream", 120);
  analysis_test::AddStreamTests<kLumamaxCase>(tcase);
  tcase_add_test(tcase, test_messages_posted_without_further_frames);
  tcase_add_test(tcase, test_properties_change_while_playing);
  return tcase;
}

}  // namespace lumamax_test
