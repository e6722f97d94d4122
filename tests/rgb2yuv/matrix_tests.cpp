// The conversion matrix against the float64 reference, at sizes from 1x1 to odd 97x61, with padded
// and odd strides, plane offsets and every kind of input memory: every input format with every
// output format, and every output format with every colorimetry and chroma siting; each input
// meets every colorimetry and siting too. (The kernel reads an input format, converts with the
// matrix, range and siting, and writes an output format: no step depends on the input format and
// the colorimetry at once. The whole product, 720 streams, took 109 s of the CI's 15 minutes;
// these 90 cover every pair of the four.)
#include <string>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "conversion_stream.h"
#include "formats.h"
#include "tcases.h"
#include "verify.h"

namespace rgb2yuv_test {
namespace {

using vktest::MemoryKind;

// Pushed through one stream per combination; each size change renegotiates the element.
const std::vector<Step> kSteps = {
    {1, 1, {MemoryKind::kUpstreamPool, 0, 0}},
    {2, 3, {MemoryKind::kUpstreamPool, 0, 0}},
    {97, 61, {MemoryKind::kUpstreamPool, 0, 0}},
    {97, 61, {MemoryKind::kSystem, 12, 64}},  // padded stride, offset plane
    {97, 61, {MemoryKind::kSystem, 7, 5}},    // stride and offset not multiples of 4
    {2, 3, {MemoryKind::kSystem, 5, 3}},
    {97, 61, {MemoryKind::kSplit, 12, 16}},  // forces a staging copy
    {1, 1, {MemoryKind::kSplit, 1, 1}},
};

}  // namespace

// The colorimetry and siting of input `i` with output `o`: as i runs over the inputs, every pair of
// colorimetry and siting meets output o; as o runs over the outputs, input i meets every
// colorimetry and every siting.
static void SetupFor(int i, int o, const ColorSetup*& color, const SitingSetup*& siting) {
  static_assert(kNumInputFormats >= kNumColorSetups * kNumSitingSetups, "an output would miss a setup");
  static_assert(kNumOutputFormats >= kNumColorSetups * kNumSitingSetups, "an input would miss a setup");
  const int k = (i + o) % kNumInputFormats;
  color = &kColorSetups[k % kNumColorSetups];
  siting = &kSitingSetups[(k / kNumColorSetups) % kNumSitingSetups];
}

// One iteration per input format, so that a failure names its format and the iterations can
// run (and be re-run) separately.
GST_START_TEST(test_matrix_against_reference) {
  const GstVideoFormat input = kInputFormats[__i__];
  for (int o = 0; o < kNumOutputFormats; ++o) {
    const ColorSetup* color = nullptr;
    const SitingSetup* siting = nullptr;
    SetupFor(__i__, o, color, siting);
    RunAgainstReference("matrix", input, kOutputFormats[o], *color, *siting, kSteps);
  }
}
GST_END_TEST;

TCase* MatrixTCase() {
  TCase* tcase = vktest::NewTCase("matrix", 300);
  tcase_add_loop_test(tcase, test_matrix_against_reference, 0, kNumInputFormats);
  return tcase;
}

}  // namespace rgb2yuv_test
