// A few frames large enough for many workgroups in every direction, with large masks.
#include <string>
#include <vector>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "morph_stream.h"
#include "tcases.h"

namespace morph_test {

GST_START_TEST(test_large_frames) {
  const std::string name = "large frames";
  std::mt19937 rng = vktest::RngFor(name);
  using morph_ref::MorphSpec;
  RunAndVerify(name, {
                         {RandomFrame(GST_VIDEO_FORMAT_GRAY8, 320, 200, rng),
                          MorphSpec{morph_ref::kDilate, morph_ref::kRect, 61, 61, 1}},
                         {RandomFrame(GST_VIDEO_FORMAT_GRAY8, 640, 360, rng),
                          MorphSpec{morph_ref::kErode, morph_ref::kEllipse, 15, 15, 1}},
                         {RandomFrame(GST_VIDEO_FORMAT_RGBA, 320, 240, rng),
                          MorphSpec{morph_ref::kDilate, morph_ref::kRect, 31, 31, 1}},
                         {RandomFrame(GST_VIDEO_FORMAT_RGBA, 320, 240, rng),
                          MorphSpec{morph_ref::kOpen, morph_ref::kEllipse, 31, 31, 1}},
                         {RandomFrame(GST_VIDEO_FORMAT_NV12, 320, 180, rng),
                          MorphSpec{morph_ref::kTophat, morph_ref::kCross, 31, 31, 1}},
                     });
}
GST_END_TEST;

// Row passes walk a row in shared memory when its source and result fit there (2 x 4 bytes per
// pixel: 4096 pixels on lavapipe's 32 KiB, 6144 on 48 KiB, 8192 on 64 KiB); wider rows take the
// walk through device memory. 8500-pixel rows take that path on all of these.
GST_START_TEST(test_rows_wider_than_shared_memory) {
  const std::string name = "rows wider than shared memory";
  std::mt19937 rng = vktest::RngFor(name);
  using morph_ref::MorphSpec;
  RunAndVerify(name, {
                         {RandomFrame(GST_VIDEO_FORMAT_GRAY8, 8500, 9, rng),
                          MorphSpec{morph_ref::kDilate, morph_ref::kRect, 31, 5, 1}},
                         {RandomFrame(GST_VIDEO_FORMAT_RGBA, 8500, 7, rng),
                          MorphSpec{morph_ref::kGradient, morph_ref::kCross, 9, 3, 1}},
                         {RandomFrame(GST_VIDEO_FORMAT_RGB, 8501, 5, rng),
                          MorphSpec{morph_ref::kErode, morph_ref::kRect, 255, 1, 2}},
                     });
}
GST_END_TEST;

TCase* LargeFrameTCase() {
  TCase* tcase = vktest::NewTCase("large", 300);
  tcase_add_test(tcase, test_large_frames);
  tcase_add_test(tcase, test_rows_wider_than_shared_memory);
  return tcase;
}

}  // namespace morph_test
