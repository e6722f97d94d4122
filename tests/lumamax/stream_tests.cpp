// Stream behaviour of lumamax: the shared analysis stream tests (message timestamps against a
// non-trivial segment, messages before EOS leaves the element, flushing, post-messages=false,
// teardown with results pending), plus when messages are posted (boundedly after their frame,
// at any serialized event) and property changes while playing.
#include <optional>
#include <random>
#include <string>

#include "analysis_stream.h"
#include "common/analysis/check_test.h"
#include "common/analysis/stream_tests.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "tcases.h"
#include "verify.h"

namespace lumamax_test {
namespace {

using analysis_test::ExpectPushOk;
using analysis_test::PushRandomFrames;

// What the shared stream tests (common/analysis/stream_tests.h) need to know of lumamax.
struct StreamCase {
  using Stream = AnalysisStream;
  static constexpr const char* kElement = "lumamax";
  static constexpr GstVideoFormat kAfterFlushFormat = GST_VIDEO_FORMAT_GRAY8;
  static constexpr GstVideoFormat kOddPlacementFormat = GST_VIDEO_FORMAT_Y444;
  static constexpr const char* kEosProperties = "count=3 min-distance=4";

  static TestFrame RandomFrame(GstVideoFormat format, int width, int height, std::mt19937& rng) {
    return lumamax_test::RandomFrame(format, width, height, rng);
  }
  static std::optional<lumamax_ref::Result> AnalyzeFrame(const TestFrame& frame,
                                                         const lumamax_ref::Params& params) {
    return lumamax_ref::Analyze(ViewOf(frame), params);
  }
  static void ExpectMessageMatches(const LumamaxMessage& got, const PushedFrame& frame,
                                   const std::string& where) {
    lumamax_test::ExpectMessageMatches(got, frame, where);
  }
  static void ExpectStreamMatches(const AnalysisStream& stream, const std::string& context) {
    lumamax_test::ExpectStreamMatches(stream, context);
  }
  static lumamax_ref::Params EosParams() {
    lumamax_ref::Params params;
    params.count = 3;
    params.min_distance = 4;
    return params;
  }
  static lumamax_ref::Params FlushParams() {
    lumamax_ref::Params params;
    params.count = 4;
    params.min_distance = 3;
    return params;
  }
  static lumamax_ref::Params FlushWhileStreamingParams() {
    lumamax_ref::Params params;
    params.count = 2;
    return params;
  }
};

}  // namespace

// A frame's message comes when its GPU work is done, whether or not more frames follow: after
// each push, its message arrives with no further input (the generous timeout only guards against
// a hang; nothing here is timed). A serialized event makes the element post everything pending.
GST_START_TEST(test_messages_posted_without_further_frames) {
  const std::string name = "message latency";
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(lumamax_ref::Params{});
  constexpr size_t kFrames = 8;
  analysis_test::PushEachAwaitingItsMessage<StreamCase>(
      stream, kFrames, [](size_t) { return GST_VIDEO_FORMAT_NV12; }, rng, name);
  PushRandomFrames<StreamCase>(stream, kFrames, GST_VIDEO_FORMAT_NV12, 97, 61, rng, name);
  stream.PushSerializedEvent();
  fail_unless(stream.log().Count() == 2 * kFrames,
              "%s: after a serialized event %zu of %zu messages were posted", WithSeed(name).c_str(),
              stream.log().Count(), 2 * kFrames);
  // New caps (a new size) are a serialized event too: the two frames before them are posted by
  // the time the frame after them has been pushed.
  PushRandomFrames<StreamCase>(stream, 2, GST_VIDEO_FORMAT_NV12, 97, 61, rng, name);
  ExpectPushOk(stream.Push(RandomFrame(GST_VIDEO_FORMAT_NV12, 33, 17, rng)), name);
  fail_unless(stream.log().Count() >= 2 * kFrames + 2,
              "%s: after a caps change %zu of the %zu frames before it had their message",
              WithSeed(name).c_str(), stream.log().Count(), 2 * kFrames + 2);
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectStreamMatches(stream, name);
}
GST_END_TEST;

// Every property applies from the frame pushed after it was set.
GST_START_TEST(test_properties_change_while_playing) {
  const std::string name = "properties while playing";
  std::mt19937 rng = vktest::RngFor(name);
  lumamax_ref::Params params;
  AnalysisStream stream(params);
  auto push = [&] { ExpectPushOk(stream.Push(RandomFrame(GST_VIDEO_FORMAT_RGBx, 33, 17, rng)), name); };
  push();
  params.count = 6;
  params.min_distance = 2;
  stream.SetParams(params);
  push();
  params.roi = {5, 3, 10, 8};
  stream.SetParams(params);
  push();
  params.roi = {};
  params.matrix = lumamax_ref::Matrix::kBt2020;
  params.count = 64;
  params.min_distance = 0;
  stream.SetParams(params);
  push();
  params.count = 1;
  params.roi = {30, 0, 0, 0};
  stream.SetParams(params);
  push();
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectStreamMatches(stream, name);
}
GST_END_TEST;

TCase* StreamTCase() {
  TCase* tcase = vktest::NewTCase("stream", 120);
  analysis_test::AddCheckTest<analysis_test::TimestampsFollowSegment<StreamCase>>(tcase);
  analysis_test::AddCheckTest<analysis_test::EosAfterAllMessages<StreamCase>>(tcase);
  tcase_add_test(tcase, test_messages_posted_without_further_frames);
  analysis_test::AddCheckTest<analysis_test::FlushMidStream<StreamCase>>(tcase);
  analysis_test::AddCheckTest<analysis_test::FlushWhileStreaming<StreamCase>>(tcase);
  analysis_test::AddCheckTest<analysis_test::PostMessagesFalse<StreamCase>>(tcase);
  tcase_add_test(tcase, test_properties_change_while_playing);
  analysis_test::AddCheckTest<analysis_test::TeardownWithResultsPending<StreamCase>>(tcase);
  return tcase;
}

}  // namespace lumamax_test
