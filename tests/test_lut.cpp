// gst-check suite of the lut element. The cases live in lut/*_tests.cpp; run a subset with
// GST_CHECKS=<test function glob>, and reproduce random data with GST_VKCOMPUTE_TEST_SEED.
// Needs ffmpeg on PATH (the peer of the accuracy tests).
#include <gst/check/gstcheck.h>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "lut/tcases.h"

static Suite* lut_suite() {
  Suite* suite = suite_create("lut");
  suite_add_tcase(suite, lut_test::ElementTCase());
  suite_add_tcase(suite, lut_test::LiveTCase());
  suite_add_tcase(suite, lut_test::TableTCase());
  suite_add_tcase(suite, lut_test::FileTCase());
  suite_add_tcase(suite, lut_test::PngKindTCase());
  suite_add_tcase(suite, lut_test::FfmpegTCase());
  suite_add_tcase(suite, lut_test::DeepTCase());
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  vktest::TestSeed();
  return gst_check_run_suite(lut_suite(), "lut", __FILE__);
}
