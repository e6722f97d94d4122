// Every format: colour channels filtered independently, alpha and padding bytes and chroma planes
// unchanged, at odd frame sizes: every operation with every shape, and a few larger masks.
#include <string>
#include <vector>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "formats.h"
#include "morph_stream.h"
#include "tcases.h"

namespace morph_test {
namespace {

using morph_ref::MorphSpec;

const MorphSpec kSpecs[] = {
    {morph_ref::kDilate, morph_ref::kRect, 5, 3, 1},
    {morph_ref::kErode, morph_ref::kEllipse, 7, 9, 1},
    {morph_ref::kOpen, morph_ref::kCross, 3, 5, 2},
    {morph_ref::kClose, morph_ref::kRect, 9, 9, 1},
    {morph_ref::kGradient, morph_ref::kEllipse, 5, 5, 1},
    {morph_ref::kTophat, morph_ref::kRect, 11, 3, 1},
    {morph_ref::kBlackhat, morph_ref::kCross, 7, 7, 1},
    {morph_ref::kDilate, morph_ref::kEllipse, 255, 255, 1},
};
const int kFrames[][2] = {{97, 61}, {1, 1}, {2, 3}, {33, 17}};
// The frame of the every-operation-with-every-shape cases.
constexpr int kAllWidth = 23, kAllHeight = 19;

}  // namespace

GST_START_TEST(test_format) {
  const GstVideoFormat format = kFormats[__i__];
  const std::string name = std::string("format ") + gst_video_format_to_string(format);
  std::mt19937 rng = vktest::RngFor(name);
  std::vector<std::pair<TestFrame, MorphSpec>> cases;
  for (const auto& size : kFrames)
    for (const MorphSpec& spec : kSpecs) cases.push_back({RandomFrame(format, size[0], size[1], rng), spec});
  for (int op = morph_ref::kErode; op <= morph_ref::kBlackhat; ++op)
    for (auto shape : {morph_ref::kRect, morph_ref::kCross, morph_ref::kEllipse})
      cases.push_back({RandomFrame(format, kAllWidth, kAllHeight, rng),
                       MorphSpec{morph_ref::Operation(op), shape, 5, 3, 1 + op % 2}});
  RunAndVerify(name, cases);
}
GST_END_TEST;

TCase* FormatTCase() {
  TCase* tcase = vktest::NewTCase("format", 300);
  tcase_add_loop_test(tcase, test_format, 0, kFormats.size());
  return tcase;
}

}  // namespace morph_test
