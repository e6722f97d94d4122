// The full conversion matrix against the float64 reference: every input format x output format
// x colorimetry x chroma siting, at sizes from 1x1 to odd 97x61, with padded and odd strides,
// plane offsets and every kind of input memory.
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

// One iteration per input format, so that a failure names its format and the iterations can
// run (and be re-run) separately.
GST_START_TEST(test_matrix_against_reference) {
  const GstVideoFormat input = kInputFormats[__i__];
  for (GstVideoFormat output : kOutputFormats) {
    for (const ColorSetup& color : kColorSetups) {
      for (const SitingSetup& siting : kSitingSetups)
        RunAgainstReference("matrix", input, output, color, siting, kSteps);
    }
  }
}
GST_END_TEST;

TCase* MatrixTCase() {
  TCase* tcase = vktest::NewTCase("matrix", 300);
  tcase_add_loop_test(tcase, test_matrix_against_reference, 0, kNumInputFormats);
  return tcase;
}

}  // namespace rgb2yuv_test
