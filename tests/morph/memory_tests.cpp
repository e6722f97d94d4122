// Input memory as upstream elements provide it: the proposed pool, GstHarness's buffers, system
// memory with padded strides and odd offsets, and a frame split over two memory blocks.
#include <string>

#include "common/input_placement.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "morph_stream.h"
#include "tcases.h"

namespace morph_test {
namespace {

const GstVideoFormat kMemoryFormats[] = {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE,
                                         GST_VIDEO_FORMAT_RGB,   GST_VIDEO_FORMAT_xRGB,
                                         GST_VIDEO_FORMAT_I420,  GST_VIDEO_FORMAT_NV12};
const int kSizes[][2] = {{97, 61}, {33, 17}};

}  // namespace

GST_START_TEST(test_input_memory_kinds) {
  const GstVideoFormat format = kMemoryFormats[__i__];
  const std::string name = std::string("memory ") + gst_video_format_to_string(format);
  std::mt19937 rng = vktest::RngFor(name);
  MorphStream stream;
  stream.Set({morph_ref::kGradient, morph_ref::kEllipse, 5, 7, 1});
  for (const auto& size : kSizes)
    for (const InputPlacement& placement : vktest::kEveryInputPlacement)
      stream.Push(RandomFrame(format, size[0], size[1], rng), placement);
  stream.Finish();
  ExpectOutputsCorrect(stream, name);
}
GST_END_TEST;

TCase* MemoryTCase() {
  TCase* tcase = vktest::NewTCase("memory", 120);
  tcase_add_loop_test(tcase, test_input_memory_kinds, 0, G_N_ELEMENTS(kMemoryFormats));
  return tcase;
}

}  // namespace morph_test
