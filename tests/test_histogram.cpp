// gst-check suite of the histogram element. The cases live in histogram/*_tests.cpp; run a
// subset with GST_CHECKS=<test function glob>, and reproduce random frames with
// GST_VKCOMPUTE_TEST_SEED.
#include <gst/check/gstcheck.h>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "histogram/tcases.h"

static Suite* histogram_suite() {
  Suite* suite = suite_create("histogram");
  // The reference first (a wrong reference makes every other failure meaningless), then the
  // cheap element checks, then the long ones.
  suite_add_tcase(suite, histogram_test::ReferenceTCase());
  suite_add_tcase(suite, histogram_test::ElementTCase());
  suite_add_tcase(suite, histogram_test::StreamTCase());
  suite_add_tcase(suite, histogram_test::RoiTCase());
  suite_add_tcase(suite, histogram_test::BinsTCase());
  suite_add_tcase(suite, histogram_test::MatrixTCase());
  suite_add_tcase(suite, histogram_test::SolidTCase());
  suite_add_tcase(suite, histogram_test::Fast8TCase());
  suite_add_tcase(suite, histogram_test::FormatTCase());
  suite_add_tcase(suite, histogram_test::DrawTCase());
  suite_add_tcase(suite, histogram_test::OpenCvTCase());
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  // Chosen (and printed) before check forks, so that every test of the run shares it.
  vktest::TestSeed();
  return gst_check_run_suite(histogram_suite(), "histogram", __FILE__);
}
