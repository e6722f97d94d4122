// gst-check suite of the morph element. The cases live in morph/*_tests.cpp; run a subset with
// GST_CHECKS=<test function glob>, and reproduce random data with GST_VKCOMPUTE_TEST_SEED.
#include <gst/check/gstcheck.h>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "morph/tcases.h"

static Suite* morph_suite() {
  Suite* suite = suite_create("morph");
  // Cheap checks first.
  suite_add_tcase(suite, morph_test::ElementTCase());
  suite_add_tcase(suite, morph_test::MaskTCase());
  suite_add_tcase(suite, morph_test::PropertyTCase());
  suite_add_tcase(suite, morph_test::FormatTCase());
  suite_add_tcase(suite, morph_test::MemoryTCase());
  suite_add_tcase(suite, morph_test::OperationTCase());
  suite_add_tcase(suite, morph_test::LargeFrameTCase());
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  // Chosen (and printed) before check forks, so that every test of the run shares it.
  vktest::TestSeed();
  return gst_check_run_suite(morph_suite(), "morph", __FILE__);
}
