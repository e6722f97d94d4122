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

struct Step {
  int width;
  int height;
  InputPlacement placement;
};

// Pushed through one stream per combination; each size change renegotiates the element.
const Step kSteps[] = {
    {1, 1, {MemoryKind::kUpstreamPool, 0, 0}},
    {2, 3, {MemoryKind::kUpstreamPool, 0, 0}},
    {97, 61, {MemoryKind::kUpstreamPool, 0, 0}},
    {97, 61, {MemoryKind::kSystem, 12, 64}},  // padded stride, offset plane
    {97, 61, {MemoryKind::kSystem, 7, 5}},    // stride and offset not multiples of 4
    {2, 3, {MemoryKind::kSystem, 5, 3}},
    {97, 61, {MemoryKind::kSplit, 12, 16}},  // forces a staging copy
    {1, 1, {MemoryKind::kSplit, 1, 1}},
};

void RunCombination(GstVideoFormat input, GstVideoFormat output, const ColorSetup& color,
                    const SitingSetup& siting) {
  const std::string name = std::string("matrix ") + vktest::FormatName(input) + "->" +
                           vktest::FormatName(output) + " " + color.label + " " + siting.chroma_site;
  std::mt19937 rng = vktest::RngFor(name);
  ConversionStream stream("rgb2yuv", OutputSpec{output, color.CapsString(), siting.chroma_site});
  for (const Step& step : kSteps) {
    const GstFlowReturn flow =
        stream.Push(RandomRgbFrame(input, step.width, step.height, rng), step.placement);
    fail_unless(flow == GST_FLOW_OK, "%s: %s: push returned %s", name.c_str(),
                DescribeFrame(stream.pushed().back(), stream.pushed().size() - 1).c_str(),
                gst_flow_get_name(flow));
  }
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectMatchesReference(stream, name, rgb2yuv_ref::MakeParams(color.matrix, color.range, siting.siting));
}

}  // namespace

// One iteration per input format, so that a failure names its format and the iterations can
// run (and be re-run) separately.
GST_START_TEST(test_matrix_against_reference) {
  const GstVideoFormat input = kInputFormats[__i__];
  for (GstVideoFormat output : kOutputFormats) {
    for (const ColorSetup& color : kColorSetups) {
      for (const SitingSetup& siting : kSitingSetups) RunCombination(input, output, color, siting);
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
