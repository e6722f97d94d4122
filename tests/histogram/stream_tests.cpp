// Stream behaviour of histogram: the shared analysis stream tests (message timestamps against a
// non-trivial segment, messages before EOS leaves the element, flushing, post-messages=false,
// teardown with results pending), plus messages without further frames, many frames in flight
// and property changes while playing.
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "analysis_stream.h"
#include "common/analysis/check_test.h"
#include "common/analysis/stream_tests.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "tcases.h"
#include "verify.h"

namespace histogram_test {
namespace {

using analysis_test::ExpectPushOk;
using analysis_test::PushRandomFrames;

// What the shared stream tests (common/analysis/stream_tests.h) need to know of histogram.
struct StreamCase {
  using Stream = AnalysisStream;
  static constexpr const char* kElement = "histogram";
  static constexpr GstVideoFormat kAfterFlushFormat = GST_VIDEO_FORMAT_NV12;
  static constexpr GstVideoFormat kOddPlacementFormat = GST_VIDEO_FORMAT_I420;
  static constexpr const char* kEosProperties = "bins=64";

  static TestFrame RandomFrame(GstVideoFormat format, int width, int height, std::mt19937& rng) {
    return histogram_test::RandomFrame(format, width, height, rng);
  }
  static std::optional<histogram_ref::Result> AnalyzeFrame(const TestFrame& frame,
                                                           const histogram_ref::Params& params) {
    return histogram_ref::Analyze(ViewOf(frame), params);
  }
  static void ExpectMessageMatches(const HistogramMessage& got, const PushedFrame& frame,
                                   const std::string& where) {
    histogram_test::ExpectMessageMatches(got, frame, where);
  }
  static void ExpectStreamMatches(const AnalysisStream& stream, const std::string& context) {
    histogram_test::ExpectStreamMatches(stream, context);
  }
  static histogram_ref::Params EosParams() {
    histogram_ref::Params params;
    params.bins = 64;
    return params;
  }
  static histogram_ref::Params FlushParams() { return histogram_ref::Params{}; }
  static histogram_ref::Params FlushWhileStreamingParams() { return histogram_ref::Params{}; }
};

}  // namespace

// A frame's message comes when its GPU work is done, whether or not more frames follow: after
// each push, its message arrives with no further input (the generous timeout only guards against
// a hang; nothing here is timed).
GST_START_TEST(test_messages_posted_without_further_frames) {
  const std::string name = "message without further frames";
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(histogram_ref::Params{});
  constexpr size_t kFrames = 6;
  analysis_test::PushEachAwaitingItsMessage<StreamCase>(
      stream, kFrames, [](size_t i) { return i % 2 == 0 ? GST_VIDEO_FORMAT_Y444 : GST_VIDEO_FORMAT_ARGB; },
      rng, name);
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

TCase* StreamTCase() {
  TCase* tcase = vktest::NewTCase("stream", 120);
  analysis_test::AddCheckTest<analysis_test::TimestampsFollowSegment<StreamCase>>(tcase);
  analysis_test::AddCheckTest<analysis_test::EosAfterAllMessages<StreamCase>>(tcase);
  tcase_add_test(tcase, test_messages_posted_without_further_frames);
  tcase_add_test(tcase, test_many_frames_in_flight);
  analysis_test::AddCheckTest<analysis_test::FlushMidStream<StreamCase>>(tcase);
  analysis_test::AddCheckTest<analysis_test::FlushWhileStreaming<StreamCase>>(tcase);
  analysis_test::AddCheckTest<analysis_test::PostMessagesFalse<StreamCase>>(tcase);
  tcase_add_test(tcase, test_properties_change_while_playing);
  analysis_test::AddCheckTest<analysis_test::TeardownWithResultsPending<StreamCase>>(tcase);
  return tcase;
}

}  // namespace histogram_test
