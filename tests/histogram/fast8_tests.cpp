// 256 bins of 8-bit samples over one region, in pixels of 1, 2 or 4 bytes: histogram's 8-bit kernel
// (shaders/histogram_fast8.comp), a bounded grid of workgroups striding over 16-byte loads. These
// cases make it do its hard parts, against the reference on random bytes: regions starting at odd
// columns and inside one load (rows that are not 16-byte aligned: word loads), strides that are not
// a multiple of 16, and frames of more tiles than the grid has workgroups (the stride loop runs). The
// count-heavy frames (one colour) are in solid_tests.cpp.
#include <string>

#include "common/analysis/load_cases.h"
#include "common/input_placement.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "histogram_case.h"
#include "tcases.h"
#include "verify.h"

namespace histogram_test {
namespace {

using analysis_test::ManyTilesCase;
using vktest::InputPlacement;
using vktest::MemoryKind;

// Pixels of 4 bytes with and without alpha and its luma, of 1 byte, and NV12's planes of 1 and 2.
const GstVideoFormat kEightBitFormats[] = {GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_BGRx,
                                           GST_VIDEO_FORMAT_xRGB, GST_VIDEO_FORMAT_GRAY8,
                                           GST_VIDEO_FORMAT_NV12};

}  // namespace

GST_START_TEST(test_fast8_roi) {
  const analysis_test::LoadRoiCase& roi_case = analysis_test::kLoadRoiCases[__i__];
  const std::string name = std::string("fast8 roi ") + roi_case.label;
  std::mt19937 rng = vktest::RngFor(name);
  histogram_ref::Params params;
  params.roi = roi_case.roi;
  AnalysisStream stream(params);
  for (GstVideoFormat format : kEightBitFormats)
    for (const InputPlacement& placement : analysis_test::kLoadPlacements)
      stream.Push(RandomFrame(format, 97, 61, rng), placement);
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

// Frames of more tiles (256 loads of 16 bytes) than the grid has workgroups, several times over: a
// 1-pixel-wide frame (a load per row), 4-byte frames of rows 16-byte aligned, NV12 with a stride of
// no multiple of 16, and regions from odd columns.
GST_START_TEST(test_fast8_many_tiles) {
  const ManyTilesCase cases[] = {
      {GST_VIDEO_FORMAT_GRAY8, 1, 600000, {MemoryKind::kUpstreamPool, 0, 0}, {}},
      {GST_VIDEO_FORMAT_RGBA, 2048, 1080, {MemoryKind::kUpstreamPool, 0, 0}, {}},
      {GST_VIDEO_FORMAT_NV12, 1930, 1081, {MemoryKind::kSystem, 6, 2}, {}},
      {GST_VIDEO_FORMAT_GRAY8, 2050, 1100, {MemoryKind::kSystem, 3, 1}, {7, 3, 0, 0}},
      {GST_VIDEO_FORMAT_BGRx, 1500, 900, {MemoryKind::kUpstreamPool, 0, 0}, {3, 1, 1401, 0}},
  };
  for (const ManyTilesCase& c : cases) {
    const std::string name = c.Name("fast8 many tiles");
    std::mt19937 rng = vktest::RngFor(name);
    histogram_ref::Params params;
    params.roi = c.roi;
    AnalysisStream stream(params);
    stream.Push(RandomFrame(c.format, c.width, c.height, rng), c.placement);
    analysis_test::EndAndExpectStreamMatches(stream, name);
  }
}
GST_END_TEST;

TCase* Fast8TCase() {
  TCase* tcase = vktest::NewTCase("fast8", 240);
  tcase_add_loop_test(tcase, test_fast8_roi, 0, G_N_ELEMENTS(analysis_test::kLoadRoiCases));
  tcase_add_test(tcase, test_fast8_many_tiles);
  return tcase;
}

}  // namespace histogram_test
