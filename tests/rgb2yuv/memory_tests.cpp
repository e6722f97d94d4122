// Input memory as upstream elements really provide it. The matrix already mixes memory kinds;
// here every kind is pushed for every input format through a downstream that accepts
// GstVideoMeta (so the element may also choose its own output layout), and the ALLOCATION
// query answer itself is checked. Frames already in our device memory come from a peer of ours.
#include <string>
#include <vector>

#include "common/input_placement.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "conversion_stream.h"
#include "formats.h"
#include "tcases.h"
#include "verify.h"

namespace rgb2yuv_test {
namespace {

const int kSizes[][2] = {{97, 61}, {33, 17}};

// rgb2yuv after morph's 1x1 dilation (the identity), which hands it each frame in our device memory
// laid out as morph lays it out.
const char* const kAfterDevicePeer =
    "morph operation=dilate width=1 height=1 ! video/x-raw(memory:VkComputeDevice) ! rgb2yuv";
// Widths 1, 3 and 97 at odd heights: frames narrower than a block, blocks cut by the frame's edge, and
// the last rows' vector loads up to the end of the buffer.
const std::vector<Step> kDeviceSteps = {{1, 3, {}}, {3, 5, {}}, {97, 61, {}}};
// The deep inputs morph takes: 8 bytes a pixel, and 10 bits a channel in a word (RGB10A2_LE differs
// from BGR10A2_LE only in the channels' places, a constant of the kernel).
const GstVideoFormat kDeepInputsOfPeer[] = {GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_FORMAT_BGR10A2_LE};

}  // namespace

GST_START_TEST(test_input_memory_kinds) {
  const GstVideoFormat input = kInputFormats[__i__];
  const std::string name = std::string("memory ") + vktest::FormatName(input);
  std::mt19937 rng = vktest::RngFor(name);
  ConversionStream stream("rgb2yuv", OutputSpec{GST_VIDEO_FORMAT_NV12, "bt709", "mpeg2"},
                          /*downstream_video_meta=*/true);
  for (const auto& size : kSizes) {
    for (const InputPlacement& placement : vktest::kEveryInputPlacement) {
      const GstFlowReturn flow = stream.Push(RandomRgbFrame(input, size[0], size[1], rng), placement);
      fail_unless(flow == GST_FLOW_OK, "%s: %s: push returned %s", name.c_str(),
                  DescribeFrame(stream.pushed().back(), stream.pushed().size() - 1).c_str(),
                  gst_flow_get_name(flow));
    }
    // A real upstream allocates from the pool the element proposes; the element must offer
    // one so that its zero-copy path is used at all.
    fail_unless(stream.allocation()->has_pool(),
                "%s %dx%d: rgb2yuv proposed no buffer pool in the ALLOCATION query", name.c_str(), size[0],
                size[1]);
  }
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectMatchesReference(stream, name);
}
GST_END_TEST;

// Input in device memory (memory:VkComputeDevice), as rgb2yuv gets it after another element of ours,
// against the reference: one iteration per output format, 8-bit or deep, each from an 8-bit and a
// deep input (the inputs taking turns, so every one is read) with both chroma sitings.
GST_START_TEST(test_device_memory_input) {
  const GstVideoFormat output =
      __i__ < kNumOutputFormats ? kOutputFormats[__i__] : kDeepOutputFormats[__i__ - kNumOutputFormats];
  const ColorSetup& color = kColorSetups[__i__ % kNumColorSetups];
  for (const GstVideoFormat input : {kInputFormats[__i__ % kNumInputFormats],
                                     kDeepInputsOfPeer[__i__ % G_N_ELEMENTS(kDeepInputsOfPeer)]}) {
    for (const SitingSetup& siting : kSitingSetups)
      RunAgainstReference("device memory", input, output, color, siting, kDeviceSteps, kAfterDevicePeer);
  }
}
GST_END_TEST;

TCase* MemoryTCase() {
  TCase* tcase = vktest::NewTCase("memory", 120);
  tcase_add_loop_test(tcase, test_input_memory_kinds, 0, kNumInputFormats);
  tcase_add_loop_test(tcase, test_device_memory_input, 0, kNumOutputFormats + kNumDeepOutputFormats);
  return tcase;
}

}  // namespace rgb2yuv_test
