// Regions of interest: results over the ROI only, in frame coordinates, with the ROI clamped to
// the frame; an empty ROI is a settings error, at start or when set while playing.
#include <string>
#include <vector>

#include "common/analysis/check_test.h"
#include "common/analysis/roi_checks.h"
#include "common/input_placement.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "lumamax_case.h"
#include "tcases.h"
#include "verify.h"

namespace lumamax_test {
namespace {

constexpr int kWidth = 97;
constexpr int kHeight = 61;

struct RoiCase {
  const char* label;
  reference::Roi roi;
};

// Every case leaves (0,0) and (1,0) outside the ROI, where the frame's global extremes go.
const RoiCase kRoiCases[] = {
    {"offset", {20, 11, 31, 17}},
    {"to the edges", {40, 30, 0, 0}},              // width/height 0: up to the frame edge
    {"partially outside", {90, 55, 50, 50}},       // clamped to [90,97) x [55,61)
    {"one pixel", {50, 30, 1, 1}},                 //
    {"last column", {kWidth - 1, 0, 0, kHeight}},  // one pixel wide, the full height
};

// Random content; the frame's brightest (255) and darkest (0) pixels outside the ROI, the ROI's
// own extremes (250 and 8) at random positions inside it.
TestFrame RoiFrame(GstVideoFormat format, const reference::Roi& roi, std::mt19937& rng) {
  TestFrame frame = NewTestFrame(format, kWidth, kHeight);
  FillRandom(frame, rng, 16, 239);
  SetGrey(frame, 0, 0, 255);
  SetGrey(frame, 1, 0, 0);
  const reference::Rect rect = reference::ClampRoi(roi, kWidth, kHeight);
  std::uniform_int_distribution<int> x(rect.x0, rect.x1 - 1);
  std::uniform_int_distribution<int> y(rect.y0, rect.y1 - 1);
  const Position bright{x(rng), y(rng)};
  Position dark{x(rng), y(rng)};
  // Distinct positions, except in a one-pixel ROI, where the 8 simply replaces the 250.
  const bool one_pixel = rect.x1 - rect.x0 == 1 && rect.y1 - rect.y0 == 1;
  while (!one_pixel && dark.x == bright.x && dark.y == bright.y) dark = Position{x(rng), y(rng)};
  SetGrey(frame, bright.x, bright.y, 250);
  SetGrey(frame, dark.x, dark.y, 8);
  return frame;
}

// The frame must put the planted values where the test means them to be.
void ExpectRoiData(const PushedFrame& frame) {
  fail_unless(frame.expected.has_value(), "test data: %s: empty ROI", frame.description.c_str());
  const lumamax_ref::Result& result = *frame.expected;
  const bool one_pixel = result.max.x == result.min.x && result.max.y == result.min.y;
  fail_unless(one_pixel || (result.max.value == 250 * 65536 && result.min.value == 8 * 65536),
              "test data: %s: the planted ROI extremes are not the ROI's", frame.description.c_str());
}

}  // namespace

GST_START_TEST(test_roi) {
  const RoiCase& roi_case = kRoiCases[__i__];
  const std::string name = std::string("roi ") + roi_case.label;
  std::mt19937 rng = vktest::RngFor(name);
  lumamax_ref::Params params = PeakParams(4, 1);
  params.roi = roi_case.roi;
  AnalysisStream stream(params);
  const vktest::InputPlacement odd_stride{vktest::MemoryKind::kSystem, 3, 7};
  for (GstVideoFormat format : {GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_RGB}) {
    stream.Push(RoiFrame(format, roi_case.roi, rng));
    ExpectRoiData(stream.pushed().back());
    stream.Push(RoiFrame(format, roi_case.roi, rng), odd_stride);
    ExpectRoiData(stream.pushed().back());
  }
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

// Moving the ROI off the frame while playing fails the next frame with a settings error. The
// frames before it were analysed correctly: the first two are made to post their messages (by
// a serialized event) before the change; the third one's result may still be pending when the
// error happens, and is posted all the same (the element's completion thread does not depend on
// the stream going on).
GST_START_TEST(test_empty_roi_while_playing) {
  const std::string name = "empty roi while playing";
  std::mt19937 rng = vktest::RngFor(name);
  lumamax_ref::Params params;
  AnalysisStream stream(params);
  auto push_good_frame = [&] {
    const GstFlowReturn flow = stream.Push(RandomFrame(GST_VIDEO_FORMAT_GRAY8, 33, 17, rng));
    fail_unless(flow == GST_FLOW_OK, "%s: a frame with a valid ROI returned %s", WithSeed(name).c_str(),
                gst_flow_get_name(flow));
  };
  push_good_frame();
  push_good_frame();
  stream.PushSerializedEvent();
  push_good_frame();

  params.roi.y = 17;
  stream.SetParams(params);
  TestFrame frame = NewTestFrame(GST_VIDEO_FORMAT_GRAY8, 33, 17);
  FillRandom(frame, rng, 16, 239);
  analysis_test::ExpectEmptyRoiPushFails(stream, frame, name);

  fail_unless(stream.log().WaitFor(3, 30000), "%s: the third good frame's message never came",
              WithSeed(name).c_str());
  analysis_test::ExpectGoodFramesMessages(stream, name);
}
GST_END_TEST;

TCase* RoiTCase() {
  TCase* tcase = vktest::NewTCase("roi", 120);
  tcase_add_loop_test(tcase, test_roi, 0, G_N_ELEMENTS(kRoiCases));
  analysis_test::AddCheckTest<analysis_test::EmptyRoiAtStart<kLumamaxCase>>(tcase);
  tcase_add_test(tcase, test_empty_roi_while_playing);
  return tcase;
}

}  // namespace lumamax_test
