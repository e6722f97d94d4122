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

// A frame taller than one dispatch covers: a device takes at most maxComputeWorkGroupCount
// workgroups in each direction (65 535 on lavapipe in X and Y, and in Y on NVIDIA's GPUs), and a
// workgroup covers a block of 256x16 pixels, so 1 048 561 rows need more than 65 535 in Y;
// 1 048 570 rows (65 536 blocks) leave a last part of one block of 10 rows. The grid goes in
// parts, each from its base workgroup. The first block's rows are all 0 and the last part's all
// 255: a part that ignores its base (counting the top block again) moves counts from bin 255 to
// bin 0, and a last-workgroup reduction that finishes before the last part loses them; counts
// are compared exactly. The validation layer fails the test on a dispatch beyond the limit.
GST_START_TEST(test_taller_than_one_dispatch) {
  const std::string name = "taller than one dispatch";
  std::mt19937 rng = vktest::RngFor(name);
  const int width = 1, height = 1048570, last_part = 65535 * 16;
  AnalysisStream stream(histogram_ref::Params{});
  for (GstVideoFormat format : {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_RGBA}) {
    TestFrame frame = RandomFrame(format, width, height, rng);
    const int components = format == GST_VIDEO_FORMAT_RGBA ? 4 : 1;
    for (int component = 0; component < components; ++component) {
      for (int y = 0; y < 16; ++y) SetSample(frame, component, 0, y, 0);
      for (int y = last_part; y < height; ++y) SetSample(frame, component, 0, y, 255);
    }
    stream.Push(frame);
  }
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectStreamMatches(stream, name);
  vktest::AssertNoValidationErrors(WithSeed(name));
}
GST_END_TEST;

TCase* FormatTCase() {
  TCase* tcase = vktest::NewTCase("formats", 120);
  tcase_add_loop_test(tcase, test_format_against_reference, 0, kNumFormats);
  tcase_add_test(tcase, test_taller_than_one_dispatch);
  return tcase;
}

}  // namespace histogram_test
