// Every format at odd sizes and in every kind of input memory against the reference, with
// planted extremes: a unique runner-up and a tie of two equal brightest (and darkest) pixels of
// which the first in raster order must win, on random content whose other bytes (chroma, alpha,
// x, padding) must not matter.
#include <string>

#include "common/analysis/format_steps.h"
#include "common/analysis/formats.h"
#include "common/format_names.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "lumamax_case.h"
#include "tcases.h"
#include "verify.h"

namespace lumamax_test {
namespace {

using analysis_test::kFormats;

// The planted pixels must be what the reference finds, or the frame tests less than intended.
void ExpectPlantedFound(const PushedFrame& frame, const Planted& planted) {
  if (!planted.done) return;
  const lumamax_ref::Result& result = *frame.expected;
  fail_unless(result.max.x == planted.brightest.x && result.max.y == planted.brightest.y &&
                  result.min.x == planted.darkest.x && result.min.y == planted.darkest.y,
              "test data: %s: the reference does not find the planted extremes", frame.description.c_str());
}

}  // namespace

GST_START_TEST(test_format_against_reference) {
  const GstVideoFormat format = kFormats[__i__];
  const std::string name = std::string("format ") + vktest::FormatName(format);
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(PeakParams(3, 2));
  for (const analysis_test::FormatStep& step : analysis_test::kFormatSteps) {
    Planted planted;
    stream.Push(RandomFrame(format, step.width, step.height, rng, &planted), step.placement);
    ExpectPlantedFound(stream.pushed().back(), planted);
  }
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

// The formats deeper than 8 bits: every byte random (so 10-bit values tie often: raster order
// decides), at the same sizes and in the same memories, luma on the format's own scale (and
// peak-threshold with it: half of the largest code value's luma).
GST_START_TEST(test_deep_format_against_reference) {
  const GstVideoFormat format = analysis_test::kDeepFormats[__i__];
  const std::string name = std::string("deep format ") + vktest::FormatName(format);
  std::mt19937 rng = vktest::RngFor(name);
  lumamax_ref::Params params = PeakParams(3, 2);
  params.peak_threshold = 0.5;
  AnalysisStream stream(params);
  for (const analysis_test::FormatStep& step : analysis_test::kFormatSteps) {
    TestFrame frame = NewTestFrame(format, step.width, step.height);
    for (uint8_t& byte : frame.bytes) byte = uint8_t(rng());
    stream.Push(std::move(frame), step.placement);
  }
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

TCase* FormatTCase() {
  TCase* tcase = vktest::NewTCase("formats", 120);
  tcase_add_loop_test(tcase, test_format_against_reference, 0, kFormats.size());
  tcase_add_loop_test(tcase, test_deep_format_against_reference, 0,
                      G_N_ELEMENTS(analysis_test::kDeepFormats));
  return tcase;
}

}  // namespace lumamax_test
