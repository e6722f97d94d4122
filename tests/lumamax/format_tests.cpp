// Every format at odd sizes and in every kind of input memory against the reference, with
// planted extremes: a unique runner-up and a tie of two equal brightest (and darkest) pixels of
// which the first in raster order must win, on random content whose other bytes (chroma, alpha,
// x, padding) must not matter.
#include <string>

#include "analysis_stream.h"
#include "common/analysis/formats.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "tcases.h"
#include "verify.h"

namespace lumamax_test {
namespace {

using analysis_test::kFormats;
using analysis_test::kNumFormats;
using analysis_test::Name;

struct Step {
  int width;
  int height;
  Placement placement;
};

// One stream per format; each size change renegotiates the element mid-stream.
const Step kSteps[] = {
    {1, 1, {Memory::kProposed, 0, 0}},   {2, 3, {Memory::kProposed, 0, 0}},
    {97, 61, {Memory::kProposed, 0, 0}}, {33, 17, {Memory::kProposed, 0, 0}},
    {33, 17, {Memory::kSystem, 12, 64}},  // padded strides, planes at an offset
    {97, 61, {Memory::kSystem, 7, 5}},    // stride and offset not multiples of 4
    {2, 3, {Memory::kSystem, 5, 3}},     {1, 1, {Memory::kSystem, 1, 1}},
    {97, 61, {Memory::kSplit, 3, 9}},  // no single memory block holds the middle row
};

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
  const std::string name = std::string("format ") + Name(format);
  std::mt19937 rng = vktest::RngFor(name);
  lumamax_ref::Params params;
  params.count = 3;
  params.min_distance = 2;
  AnalysisStream stream(params);
  for (const Step& step : kSteps) {
    Planted planted;
    stream.Push(RandomFrame(format, step.width, step.height, rng, &planted), step.placement);
    ExpectPlantedFound(stream.pushed().back(), planted);
  }
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectStreamMatches(stream, name);
}
GST_END_TEST;

TCase* FormatTCase() {
  TCase* tcase = vktest::NewTCase("formats", 120);
  tcase_add_loop_test(tcase, test_format_against_reference, 0, kNumFormats);
  return tcase;
}

}  // namespace lumamax_test
