// The luma weights the analysis references share (reference/luma_roi.h) pinned to hand-computed
// values: a test written once that each analysis suite runs among its reference tests, before
// anything is compared with them.
#pragma once

namespace analysis_test {

// A test for check_test.h's AddCheckTest().
struct LumaWeightsTest {
  static constexpr const char* kName = "test_weights";
  static void Run();
};

}  // namespace analysis_test
