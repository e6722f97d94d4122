// gst-check tests written once as templates and instantiated per element. GST_START_TEST and
// tcase_add_test() name a test after the function's spelling, which a template instance cannot
// give; here a test is a type with a name and a body, registered under that name, so that
// GST_CHECKS globs and check's reports see the same names as for a hand-written test.
#pragma once

#include <gst/check/gstcheck.h>

namespace analysis_test {

// `Test` has `static constexpr const char* kName` and `static void Run()`.
template <typename Test>
void RunCheckTest(int) {
  GST_DEBUG("test start");
  GST_DO_CHECK_TEST_ENVIRONMENT;
  tcase_fn_start(Test::kName, __FILE__, __LINE__);
  Test::Run();
  GST_LOG("cleaning up tasks");
  gst_task_cleanup_all();
}

template <typename Test>
void AddCheckTest(TCase* tcase) {
  _tcase_add_test(tcase, RunCheckTest<Test>, Test::kName, 0, 0, 0, 1);
}

}  // namespace analysis_test
