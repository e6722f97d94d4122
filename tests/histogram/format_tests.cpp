// Every format at odd sizes and in every kind of input memory against the reference: random
// bytes everywhere, so every bin of every channel is exercised, while bytes that hold no sample
// (x bytes, row padding, gaps between planes) must not be counted.
#include <string>

#include "analysis_stream.h"
#include "common/analysis/formats.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "tcases.h"
#include "verify.h"

namespace histogram_test {
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
    {1, 1, {Memory::kProposed, 0, 0}},
    {2, 3, {Memory::kProposed, 0, 0}},
    {97, 61, {Memory::kProposed, 0, 0}},
    {33, 17, {Memory::kProposed, 0, 0}},
    {33, 17, {Memory::kSystem, 12, 64}},  // padded strides, planes at an offset
    {97, 61, {Memory::kSystem, 7, 5}},    // stride and offset not multiples of 4
    {2, 3, {Memory::kSystem, 5, 3}},
    {1, 1, {Memory::kSystem, 1, 1}},
    {97, 61, {Memory::kSplit, 3, 9}},  // no single memory block holds the middle row
    {33, 17, {Memory::kSplit, 1, 1}},
    // Thin frames: one row wider than any workgroup tile, one column taller than any.
    {131, 1, {Memory::kSystem, 5, 3}},
    {1, 131, {Memory::kProposed, 0, 0}},
    // Many tiles both ways, none of them full at the right and bottom edges.
    {1283, 723, {Memory::kSystem, 7, 5}},
};

}  // namespace

GST_START_TEST(test_format_against_reference) {
  const GstVideoFormat format = kFormats[__i__];
  const std::string name = std::string("format ") + Name(format);
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(histogram_ref::Params{});
  for (const Step& step : kSteps)
    stream.Push(RandomFrame(format, step.width, step.height, rng), step.placement);
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectStreamMatches(stream, name);
}
GST_END_TEST;

TCase* FormatTCase() {
  TCase* tcase = vktest::NewTCase("formats", 120);
  tcase_add_loop_test(tcase, test_format_against_reference, 0, kNumFormats);
  return tcase;
}

}  // namespace histogram_test
