// Every format (8-bit and deeper) at odd sizes and in every kind of input memory against the reference:
// random bytes everywhere, so every bin of every channel is exercised, while bytes that hold no sample (x
// bytes, row padding, gaps between planes) must not be counted.
#include <string>

#include "common/analysis/format_steps.h"
#include "common/analysis/formats.h"
#include "common/format_names.h"
#include "common/input_placement.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "histogram_case.h"
#include "tcases.h"
#include "verify.h"

namespace histogram_test {
namespace {

using analysis_test::kFormats;
using vktest::MemoryKind;

// After the analysis suites' steps (common/analysis/format_steps.h), in the same stream: split
// memory again, then thin frames (one row wider than any workgroup tile, one column taller than
// any) and many tiles both ways, none of them full at the right and bottom edges.
const analysis_test::FormatStep kHistogramSteps[] = {
    {33, 17, {MemoryKind::kSplit, 1, 1}},
    {131, 1, {MemoryKind::kSystem, 5, 3}},
    {1, 131, {MemoryKind::kUpstreamPool, 0, 0}},
    {1283, 723, {MemoryKind::kSystem, 7, 5}},
};

}  // namespace

GST_START_TEST(test_format_against_reference) {
  const size_t i = size_t(__i__);
  const GstVideoFormat format =
      i < kFormats.size() ? kFormats[i] : analysis_test::kDeepFormats[i - kFormats.size()];
  const std::string name = std::string("format ") + vktest::FormatName(format);
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(histogram_ref::Params{});
  auto push = [&](const analysis_test::FormatStep& step) {
    stream.Push(RandomFrame(format, step.width, step.height, rng), step.placement);
  };
  for (const analysis_test::FormatStep& step : analysis_test::kFormatSteps) push(step);
  for (const analysis_test::FormatStep& step : kHistogramSteps) push(step);
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

TCase* FormatTCase() {
  TCase* tcase = vktest::NewTCase("formats", 120);
  tcase_add_loop_test(tcase, test_format_against_reference, 0,
                      kFormats.size() + G_N_ELEMENTS(analysis_test::kDeepFormats));
  return tcase;
}

}  // namespace histogram_test
