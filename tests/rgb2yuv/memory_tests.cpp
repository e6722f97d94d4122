// Input memory as upstream elements really provide it. The matrix already mixes memory kinds;
// here every kind is pushed for every input format through a downstream that accepts
// GstVideoMeta (so the element may also choose its own output layout), and the ALLOCATION
// query answer itself is checked.
#include <string>

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

TCase* MemoryTCase() {
  TCase* tcase = vktest::NewTCase("memory", 120);
  tcase_add_loop_test(tcase, test_input_memory_kinds, 0, kNumInputFormats);
  return tcase;
}

}  // namespace rgb2yuv_test
