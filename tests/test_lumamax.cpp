// gst-check suite of the lumamax element. The cases live in lumamax/*_tests.cpp; run a subset
// with GST_CHECKS=<test function glob>, and reproduce random frames with GST_VKCOMPUTE_TEST_SEED.
#include <gst/check/gstcheck.h>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "lumamax/tcases.h"

static Suite* lumamax_suite() {
  Suite* suite = suite_create("lumamax");
  // The reference first (a wrong reference makes every other failure meaningless), then the
  // cheap element checks, then the long ones.
  suite_add_tcase(suite, lumamax_test::ReferenceTCase());
  suite_add_tcase(suite, lumamax_test::ElementTCase());
  suite_add_tcase(suite, lumamax_test::StreamTCase());
  suite_add_tcase(suite, lumamax_test::LightTCase());
  suite_add_tcase(suite, lumamax_test::RoiTCase());
  suite_add_tcase(suite, lumamax_test::MatrixTCase());
  suite_add_tcase(suite, lumamax_test::PeaksTCase());
  suite_add_tcase(suite, lumamax_test::FormatTCase());
  suite_add_tcase(suite, lumamax_test::FrameKernelTCase());
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  // Chosen (and printed) before check forks, so that every test of the run shares it.
  vktest::TestSeed();
  return gst_check_run_suite(lumamax_suite(), "lumamax", __FILE__);
}
