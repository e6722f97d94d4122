// Deeper than 8 bits against the float64 reference: every deep input (RGBA64_LE, BGR10A2_LE,
// RGB10A2_LE) to every output, and 8-bit RGB to every deep output (P010_10LE, P016_LE,
// I420_10LE, I420_12LE, I422_10LE, Y444_10LE, Y444_16LE), limited and full range, both sitings,
// at odd sizes with padded and odd strides and split memory. Within ±1 code value at the output's
// depth, as at 8 bits.
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

const std::vector<Step> kSteps = {
    {1, 1, {MemoryKind::kUpstreamPool, 0, 0}},
    {97, 61, {MemoryKind::kUpstreamPool, 0, 0}},
    {97, 61, {MemoryKind::kSystem, 7, 5}},  // stride and offset not multiples of 4
    {33, 17, {MemoryKind::kSplit, 12, 16}},
};

// BT.2020 limited (the HDR matrix) with centred chroma, BT.709 full range with cosited chroma:
// every range and siting once (the 8-bit matrix test crosses them all, through the same code).
void RunCombination(GstVideoFormat input, GstVideoFormat output) {
  RunAgainstReference("deep", input, output, kColorSetups[2], kSitingSetups[0], kSteps);
  RunAgainstReference("deep", input, output, kColorSetups[3], kSitingSetups[1], kSteps);
}

}  // namespace

// One iteration per deep input format, to every output format.
GST_START_TEST(test_deep_input) {
  const GstVideoFormat input = kDeepInputFormats[__i__];
  for (GstVideoFormat output : kOutputFormats) RunCombination(input, output);
  for (GstVideoFormat output : kDeepOutputFormats) RunCombination(input, output);
}
GST_END_TEST;

// 8-bit input, one packed and one 24-bit layout, to every deep output.
GST_START_TEST(test_deep_output) {
  for (GstVideoFormat input : {GST_VIDEO_FORMAT_BGRA, GST_VIDEO_FORMAT_RGB})
    for (GstVideoFormat output : kDeepOutputFormats) RunCombination(input, output);
}
GST_END_TEST;

TCase* DeepTCase() {
  TCase* tcase = vktest::NewTCase("deep", 300);
  tcase_add_loop_test(tcase, test_deep_input, 0, kNumDeepInputFormats);
  tcase_add_test(tcase, test_deep_output);
  return tcase;
}

}  // namespace rgb2yuv_test
