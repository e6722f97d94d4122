// count = 1 over the frame or one region, with pixels of 1, 2 or 4 bytes: lumamax's frame kernel
// (shaders/lumamax_frame.comp), a bounded grid of workgroups striding over tiles of 16-byte loads.
// These cases make it do its hard parts: every format in every input memory, regions starting at
// odd columns (rows that are not 16-byte aligned: word loads), strides not a multiple of 16,
// frames of more tiles than the grid has workgroups (the stride loop runs, and frames taller
// than a grid of tiles may be), flat frames and frames of many equal extremes (ties to the first
// pixel across loads, invocations and workgroups). Against the reference; the mean also against
// the sum the element specifies (L >> d per pixel), exactly.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "common/analysis/format_steps.h"
#include "common/analysis/formats.h"
#include "common/analysis/load_cases.h"
#include "common/format_names.h"
#include "common/input_placement.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "lumamax_case.h"
#include "tcases.h"
#include "verify.h"

namespace lumamax_test {
namespace {

using vktest::InputPlacement;
using vktest::MemoryKind;

// The mean-luma the element reports (docs/elements/lumamax.md): the sum of L >> d over the
// region's pixels, with the reference's L, on the messages' 0..1 scale.
double SummedMean(const TestFrame& frame, const lumamax_ref::Params& params) {
  const lumamax_ref::View view = ViewOf(frame);
  const reference::Rect rect = reference::ClampRoi(params.roi, view.width, view.height);
  const int depth = lumamax_ref::DepthOf(view.format);
  int64_t sum = 0;
  for (int y = rect.y0; y < rect.y1; ++y)
    for (int x = rect.x0; x < rect.x1; ++x) sum += lumamax_ref::LumaValue(view, params.matrix, x, y) >> depth;
  return lumamax_ref::LumaOf(sum << depth, depth) / double(rect.Area());
}

// Relative: two means whose sums differ by one differ by more than this for any sum below 2^43,
// far more than these frames' sums.
constexpr double kSummedMeanTolerance = 1e-13;

// The suite's stream at count = 1 (whatever else `params` says), which also checks each message's
// mean against SummedMean().
class FrameKernelStream {
 public:
  explicit FrameKernelStream(lumamax_ref::Params params) : params_(Count1(params)), stream_(params_) {}

  void Push(const TestFrame& frame, const InputPlacement& placement = {}) {
    means_.push_back(SummedMean(frame, params_));
    stream_.Push(frame, placement);
  }

  void EndAndExpectMatches(const std::string& name) {
    analysis_test::EndAndExpectStreamMatches(stream_, name);
    const auto messages = stream_.log().Messages();
    for (size_t i = 0; i < messages.size(); ++i)
      fail_unless(std::fabs(messages[i].mean_luma - means_[i]) <= kSummedMeanTolerance * means_[i],
                  "%s: %s: mean-luma %.17g, the sum of L >> d gives %.17g", name.c_str(),
                  stream_.pushed()[i].description.c_str(), messages[i].mean_luma, means_[i]);
  }

 private:
  static lumamax_ref::Params Count1(lumamax_ref::Params params) {
    params.count = 1;
    return params;
  }

  lumamax_ref::Params params_;
  AnalysisStream stream_;
  std::vector<double> means_;
};

// Every byte random, so that deep values tie often (raster order decides); 8-bit formats get the
// suite's random frame with its planted extremes.
TestFrame AnyFrame(GstVideoFormat format, int width, int height, std::mt19937& rng) {
  if (lumamax_ref::DepthOf(format) == 8) return RandomFrame(format, width, height, rng);
  TestFrame frame = NewTestFrame(format, width, height);
  for (uint8_t& byte : frame.bytes) byte = uint8_t(rng());
  return frame;
}

// AnyFrame(), and for 8-bit formats `ties` pixels of level 255 and as many of level 0 at random
// places of `roi`: the extremes tie across loads, invocations and workgroups.
TestFrame TiedFrame(GstVideoFormat format, int width, int height, const reference::Roi& roi, int ties,
                    std::mt19937& rng) {
  TestFrame frame = AnyFrame(format, width, height, rng);
  if (lumamax_ref::DepthOf(format) != 8) return frame;
  const reference::Rect rect = reference::ClampRoi(roi, width, height);
  std::uniform_int_distribution<int> x(rect.x0, rect.x1 - 1), y(rect.y0, rect.y1 - 1);
  for (int k = 0; k < ties; ++k) {
    SetGrey(frame, x(rng), y(rng), 255);
    SetGrey(frame, x(rng), y(rng), 0);
  }
  return frame;
}

// A format of each pixel size the frame kernel takes: 1 and 2 bytes (Y samples, 10 bits in the high
// bits), 4 bytes (8-bit RGB, 10-bit RGB in a word).
const GstVideoFormat kPixelSizes[] = {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_P010_10LE,
                                      GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGR10A2_LE};

}  // namespace

// Every format (3- and 8-byte pixels take the tiles) in every input memory, at count = 1.
GST_START_TEST(test_frame_kernel_formats) {
  const GstVideoFormat format = __i__ < int(analysis_test::kFormats.size())
                                    ? analysis_test::kFormats[__i__]
                                    : analysis_test::kDeepFormats[__i__ - analysis_test::kFormats.size()];
  const std::string name = std::string("frame kernel format ") + vktest::FormatName(format);
  std::mt19937 rng = vktest::RngFor(name);
  FrameKernelStream stream{lumamax_ref::Params{}};
  for (const analysis_test::FormatStep& step : analysis_test::kFormatSteps)
    stream.Push(AnyFrame(format, step.width, step.height, rng), step.placement);
  stream.EndAndExpectMatches(name);
}
GST_END_TEST;

GST_START_TEST(test_frame_kernel_roi) {
  const analysis_test::LoadRoiCase& roi_case = analysis_test::kLoadRoiCases[__i__];
  const std::string name = std::string("frame kernel roi ") + roi_case.label;
  std::mt19937 rng = vktest::RngFor(name);
  lumamax_ref::Params params;
  params.roi = roi_case.roi;
  FrameKernelStream stream(params);
  for (GstVideoFormat format : kPixelSizes)
    for (const InputPlacement& placement : analysis_test::kLoadPlacements)
      stream.Push(TiedFrame(format, 97, 61, roi_case.roi, 3, rng), placement);
  stream.EndAndExpectMatches(name);
}
GST_END_TEST;

// Frames of more tiles than the grid has workgroups, several times over: the workgroups take
// several rounds of loads. A 1-pixel-wide frame taller than the tiles' grid allows on lavapipe
// (65 535 rows of workgroups of 4 rows), a 4-byte frame of rows 16-byte aligned, a 2-byte one with
// a stride of no multiple of 16, and a 4-byte region from an odd column.
GST_START_TEST(test_frame_kernel_many_tiles) {
  const analysis_test::ManyTilesCase cases[] = {
      {GST_VIDEO_FORMAT_GRAY8, 1, 600000, {MemoryKind::kUpstreamPool, 0, 0}, {}},
      {GST_VIDEO_FORMAT_RGBA, 2048, 1080, {MemoryKind::kUpstreamPool, 0, 0}, {}},
      {GST_VIDEO_FORMAT_GRAY16_LE, 1930, 1081, {MemoryKind::kSystem, 6, 2}, {}},
      {GST_VIDEO_FORMAT_BGR10A2_LE, 1500, 900, {MemoryKind::kSystem, 4, 4}, {7, 3, 0, 0}},
      {GST_VIDEO_FORMAT_xRGB, 1500, 900, {MemoryKind::kUpstreamPool, 0, 0}, {3, 1, 1401, 0}},
  };
  for (const analysis_test::ManyTilesCase& c : cases) {
    const std::string name = c.Name("frame kernel many tiles");
    std::mt19937 rng = vktest::RngFor(name);
    lumamax_ref::Params params;
    params.roi = c.roi;
    FrameKernelStream stream(params);
    stream.Push(TiedFrame(c.format, c.width, c.height, c.roi, 64, rng), c.placement);
    stream.EndAndExpectMatches(name);
  }
}
GST_END_TEST;

// Every pixel of the region equal, black or the format's white (all bits set): the first pixel of
// the region is both the brightest and the darkest, also where no pixel is brighter than black.
GST_START_TEST(test_frame_kernel_flat_frames) {
  const std::string name = "frame kernel flat frames";
  const reference::Roi rois[] = {{}, {3, 2, 50, 40}};
  for (const reference::Roi& roi : rois) {
    lumamax_ref::Params params;
    params.roi = roi;
    FrameKernelStream stream(params);
    for (GstVideoFormat format : kPixelSizes) {
      for (uint8_t byte : {uint8_t(0), uint8_t(0xff)}) {
        TestFrame frame = NewTestFrame(format, 97, 61);
        std::fill(frame.bytes.begin(), frame.bytes.end(), byte);
        for (const InputPlacement& placement : analysis_test::kLoadPlacements) stream.Push(frame, placement);
      }
    }
    stream.EndAndExpectMatches(name);
  }
}
GST_END_TEST;

TCase* FrameKernelTCase() {
  TCase* tcase = vktest::NewTCase("frame kernel", 240);
  tcase_add_loop_test(tcase, test_frame_kernel_formats, 0,
                      analysis_test::kFormats.size() + G_N_ELEMENTS(analysis_test::kDeepFormats));
  tcase_add_loop_test(tcase, test_frame_kernel_roi, 0, G_N_ELEMENTS(analysis_test::kLoadRoiCases));
  tcase_add_test(tcase, test_frame_kernel_many_tiles);
  tcase_add_test(tcase, test_frame_kernel_flat_frames);
  return tcase;
}

}  // namespace lumamax_test
