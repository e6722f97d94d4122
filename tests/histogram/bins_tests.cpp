// The bins property: 256, 64, 10 (bins of unequal width: 25 or 26 values each) and 1 (every
// value in one bin), and beyond 256: 1 024 (in shared memory for YUV planes, straight to the
// frame's counts for RGB's five histograms) and 65 536 (one bin per 16-bit code value); on packed
// RGB with and without alpha, planar and semi-planar YUV and gray, at 8 bits and deeper.
#include <string>

#include "common/input_placement.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "histogram_case.h"
#include "tcases.h"
#include "verify.h"

namespace histogram_test {
namespace {

constexpr guint kBins[] = {256, 64, 10, 1, 1024, 65536};

const GstVideoFormat kBinsFormats[] = {
    GST_VIDEO_FORMAT_RGBA,      GST_VIDEO_FORMAT_BGR,       GST_VIDEO_FORMAT_xRGB,
    GST_VIDEO_FORMAT_I420,      GST_VIDEO_FORMAT_NV12,      GST_VIDEO_FORMAT_Y444,
    GST_VIDEO_FORMAT_GRAY8,     GST_VIDEO_FORMAT_P010_10LE, GST_VIDEO_FORMAT_I420_12LE,
    GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_FORMAT_BGR10A2_LE};

}  // namespace

GST_START_TEST(test_bins) {
  const std::string name = "bins=" + std::to_string(kBins[__i__]);
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(Bins(kBins[__i__]));
  const vktest::InputPlacement odd_stride{vktest::MemoryKind::kSystem, 3, 7};
  for (GstVideoFormat format : kBinsFormats) {
    stream.Push(RandomFrame(format, 97, 61, rng));
    stream.Push(RandomFrame(format, 33, 17, rng), odd_stride);
  }
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

// bins changes while playing apply from the next frame, within one caps.
GST_START_TEST(test_bins_change_while_playing) {
  const std::string name = "bins change";
  std::mt19937 rng = vktest::RngFor(name);
  histogram_ref::Params params;
  AnalysisStream stream(params);
  // Across 256: the counts buffer's layout changes with the bins.
  for (guint bins : {256u, 10u, 1u, 64u, 1024u, 255u, 2u, 4096u, 65536u, 256u}) {
    params.bins = bins;
    stream.SetParams(params);
    stream.Push(RandomFrame(GST_VIDEO_FORMAT_NV12, 33, 17, rng));
  }
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

TCase* BinsTCase() {
  TCase* tcase = vktest::NewTCase("bins", 120);
  tcase_add_loop_test(tcase, test_bins, 0, G_N_ELEMENTS(kBins));
  tcase_add_test(tcase, test_bins_change_while_playing);
  return tcase;
}

}  // namespace histogram_test
