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
  const std::string name = std::string("matrix ") + Name(input) + "->" + Name(output) + " " + color.label +
                           " " + siting.chroma_site;
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

// A frame taller than one dispatch covers: a device takes at most maxComputeWorkGroupCount
// workgroups in each direction (65 535 on lavapipe in X and Y, and in Y on NVIDIA's GPUs), and
// into 4:2:0 a workgroup covers 4 rows of 2x2 blocks, 8 rows of pixels, so 524 281 rows need more
// than 65 535 in Y; 524 290 rows (65 537 workgroups) leave a last part of 2 workgroups, 10 rows.
// The grid goes in parts, each from its base workgroup: a part that ignores its base (converting
// the top rows again) leaves the bottom rows of every plane unconverted, unlike the reference.
// The validation layer fails the test on a dispatch beyond the limit.
GST_START_TEST(test_taller_than_one_dispatch) {
  const std::string name = "taller than one dispatch";
  std::mt19937 rng = vktest::RngFor(name);
  ConversionStream stream("rgb2yuv", OutputSpec{GST_VIDEO_FORMAT_I420, "bt709", "mpeg2"});
  for (GstVideoFormat output : {GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12}) {
    stream.SetOutput(OutputSpec{output, "bt709", "mpeg2"});
    const GstFlowReturn flow = stream.Push(RandomRgbFrame(GST_VIDEO_FORMAT_RGBA, 2, 524290, rng));
    fail_unless(flow == GST_FLOW_OK, "%s: %s: push returned %s", name.c_str(),
                DescribeFrame(stream.pushed().back(), stream.pushed().size() - 1).c_str(),
                gst_flow_get_name(flow));
  }
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectMatchesReference(stream, name);
  vktest::AssertNoValidationErrors(WithSeed(name));
}
GST_END_TEST;

TCase* MatrixTCase() {
  TCase* tcase = vktest::NewTCase("matrix", 300);
  tcase_add_loop_test(tcase, test_matrix_against_reference, 0, kNumInputFormats);
  tcase_add_test(tcase, test_taller_than_one_dispatch);
  return tcase;
}

}  // namespace rgb2yuv_test
