// Frames large enough for many workgroups in every direction, with large masks, and rows wider
// than the row passes' shared-memory budget.
#include <string>
#include <utility>
#include <vector>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "morph_stream.h"
#include "tcases.h"

namespace morph_test {
namespace {

using morph_ref::MorphSpec;

struct LargeFrame {
  GstVideoFormat format;
  int width, height;
  MorphSpec spec;
};

struct LargeCase {
  const char* name;
  std::vector<LargeFrame> frames;
};

const LargeCase kLargeCases[] = {
    {"large frames",
     {
         {GST_VIDEO_FORMAT_GRAY8, 320, 200, {morph_ref::kDilate, morph_ref::kRect, 61, 61, 1}},
         {GST_VIDEO_FORMAT_GRAY8, 640, 360, {morph_ref::kErode, morph_ref::kEllipse, 15, 15, 1}},
         {GST_VIDEO_FORMAT_RGBA, 320, 240, {morph_ref::kDilate, morph_ref::kRect, 31, 31, 1}},
         {GST_VIDEO_FORMAT_RGBA, 320, 240, {morph_ref::kOpen, morph_ref::kEllipse, 31, 31, 1}},
         {GST_VIDEO_FORMAT_NV12, 320, 180, {morph_ref::kTophat, morph_ref::kCross, 31, 31, 1}},
     }},
    // Row passes build a table in shared memory when two rows padded by 127 samples each side
    // fit there (2 x 4 bytes per sample: 3842 pixels on lavapipe's 32 KiB, 5890 on 48 KiB, 7938
    // on 64 KiB) and the window reaches at most 127 pixels each side; otherwise they walk the row
    // in device memory. 8500-pixel rows take the walk on all of these devices, and so do the
    // 600-pixel rows whose window (two 255-pixel rectangles) reaches 254 pixels each side.
    {"rows beyond the row table",
     {
         {GST_VIDEO_FORMAT_GRAY8, 8500, 9, {morph_ref::kDilate, morph_ref::kRect, 31, 5, 1}},
         {GST_VIDEO_FORMAT_RGBA, 8500, 7, {morph_ref::kGradient, morph_ref::kCross, 9, 3, 1}},
         {GST_VIDEO_FORMAT_RGB, 8501, 5, {morph_ref::kErode, morph_ref::kRect, 255, 1, 2}},
         {GST_VIDEO_FORMAT_GRAY8, 600, 8, {morph_ref::kDilate, morph_ref::kRect, 255, 3, 2}},
         {GST_VIDEO_FORMAT_RGBA, 600, 6, {morph_ref::kClose, morph_ref::kRect, 255, 5, 2}},
     }},
};

}  // namespace

GST_START_TEST(test_large_frames) {
  const LargeCase& c = kLargeCases[__i__];
  std::mt19937 rng = vktest::RngFor(c.name);
  std::vector<std::pair<TestFrame, MorphSpec>> frames;
  for (const LargeFrame& f : c.frames)
    frames.push_back({RandomFrame(f.format, f.width, f.height, rng), f.spec});
  RunAndVerify(c.name, frames);
}
GST_END_TEST;

TCase* LargeFrameTCase() {
  TCase* tcase = vktest::NewTCase("large", 300);
  tcase_add_loop_test(tcase, test_large_frames, 0, G_N_ELEMENTS(kLargeCases));
  return tcase;
}

}  // namespace morph_test
