// Regions of interest: counts over the ROI only, with the ROI clamped to the frame, and chroma
// counted over every chroma sample that covers a pixel of it (odd edges on 4:2:0 round outwards);
// an empty ROI is a settings error, at start or when set while playing.
#include <string>
#include <vector>

#include "common/analysis/check_test.h"
#include "common/analysis/roi_checks.h"
#include "common/input_placement.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "histogram_case.h"
#include "tcases.h"
#include "verify.h"

namespace histogram_test {
namespace {

// Larger than a few workgroup tiles (64x64 in the current kernel) both ways, and odd.
constexpr int kWidth = 147;
constexpr int kHeight = 133;
constexpr int kTimeoutMs = 30000;

struct RoiCase {
  const char* label;
  reference::Roi roi;
};

const RoiCase kRoiCases[] = {
    {"offset", {20, 11, 101, 97}},                 // [20,121) x [11,108): across tile edges
    {"to the edges", {65, 63, 0, 0}},              // width/height 0: up to the frame edge
    {"partially outside", {140, 125, 50, 50}},     // clamped to [140,147) x [125,133)
    {"one pixel", {64, 64, 1, 1}},                 // chroma (32,32), from its top-left corner
    {"one odd pixel", {63, 65, 1, 1}},             // chroma (31,32), from its bottom-right corner
    {"odd start", {3, 5, 7, 9}},                   // [3,10) x [5,14): chroma [1,5) x [2,7)
    {"odd end", {4, 6, 5, 3}},                     // [4,9) x [6,9): chroma [2,5) x [3,5)
    {"last column", {kWidth - 1, 0, 0, kHeight}},  // one pixel wide; the frame's half chroma column
    {"last row", {0, kHeight - 1, 0, 0}},          // one pixel high; the frame's half chroma row
};

// The subsampled formats, full-resolution chroma, 3- and 4-byte RGB and gray.
const GstVideoFormat kRoiFormats[] = {GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_Y444,
                                      GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_RGB,  GST_VIDEO_FORMAT_BGRx,
                                      GST_VIDEO_FORMAT_GRAY8};

}  // namespace

// One stream per format going through every ROI case (set while playing), each on a frame from
// the proposed pool and one in system memory with odd strides.
GST_START_TEST(test_roi) {
  const GstVideoFormat format = kRoiFormats[__i__];
  const std::string name = std::string("roi on ") + gst_video_format_to_string(format);
  std::mt19937 rng = vktest::RngFor(name);
  histogram_ref::Params params;
  AnalysisStream stream(params);
  const vktest::InputPlacement odd_stride{vktest::MemoryKind::kSystem, 3, 7};
  for (const RoiCase& roi_case : kRoiCases) {
    params.roi = roi_case.roi;
    stream.SetParams(params);
    stream.Push(RandomFrame(format, kWidth, kHeight, rng));
    stream.Push(RandomFrame(format, kWidth, kHeight, rng), odd_stride);
    fail_unless(stream.pushed().back().expected.has_value(), "test data: %s: empty ROI", roi_case.label);
  }
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

// Moving the ROI off the frame while playing fails the next frame with a settings error; the
// frames before it were analysed correctly (their messages come without further frames).
GST_START_TEST(test_empty_roi_while_playing) {
  const std::string name = "empty roi while playing";
  std::mt19937 rng = vktest::RngFor(name);
  histogram_ref::Params params;
  AnalysisStream stream(params);
  for (int i = 0; i < 3; ++i) {
    const GstFlowReturn flow = stream.Push(RandomFrame(GST_VIDEO_FORMAT_RGBx, 33, 17, rng));
    fail_unless(flow == GST_FLOW_OK, "%s: a frame with a valid ROI returned %s", WithSeed(name).c_str(),
                gst_flow_get_name(flow));
  }
  fail_unless(stream.log().WaitFor(3, kTimeoutMs), "%s: the good frames' messages never came",
              WithSeed(name).c_str());

  params.roi.y = 17;
  stream.SetParams(params);
  analysis_test::ExpectEmptyRoiPushFails(stream, RandomFrame(GST_VIDEO_FORMAT_RGBx, 33, 17, rng), name);

  analysis_test::ExpectGoodFramesMessages(stream, name);
}
GST_END_TEST;

TCase* RoiTCase() {
  TCase* tcase = vktest::NewTCase("roi", 120);
  tcase_add_loop_test(tcase, test_roi, 0, G_N_ELEMENTS(kRoiFormats));
  analysis_test::AddCheckTest<analysis_test::EmptyRoiAtStart<kHistogramCase>>(tcase);
  tcase_add_test(tcase, test_empty_roi_while_playing);
  return tcase;
}

}  // namespace histogram_test
