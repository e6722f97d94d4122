// gst-check suite of the rgb2yuv element. The cases live in rgb2yuv/*_tests.cpp; run a subset
// with GST_CHECKS=<test function glob>, and reproduce random data with GST_VKCOMPUTE_TEST_SEED.
#include <gst/check/gstcheck.h>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "rgb2yuv/tcases.h"

static Suite* rgb2yuv_suite() {
  Suite* suite = suite_create("rgb2yuv");
  // Cheap checks first: if the device or registration is broken, say so before the long ones.
  suite_add_tcase(suite, rgb2yuv_test::ElementTCase());
  suite_add_tcase(suite, rgb2yuv_test::StreamTCase());
  suite_add_tcase(suite, rgb2yuv_test::ColorimetryTCase());
  suite_add_tcase(suite, rgb2yuv_test::MemoryTCase());
  suite_add_tcase(suite, rgb2yuv_test::VideoconvertTCase());
  suite_add_tcase(suite, rgb2yuv_test::MatrixTCase());
  suite_add_tcase(suite, rgb2yuv_test::DeepTCase());
  suite_add_tcase(suite, rgb2yuv_test::FfmpegTCase());
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  // Chosen (and printed) before check forks, so that every test of the run shares it.
  vktest::TestSeed();
  return gst_check_run_suite(rgb2yuv_suite(), "rgb2yuv", __FILE__);
}
