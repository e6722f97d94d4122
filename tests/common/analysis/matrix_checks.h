// The matrix check every analysis element shares: switching the matrix while playing applies
// from the next frame.
#pragma once

#include <random>
#include <string>

#include "analysis_stream.h"
#include "common/test_seed.h"
#include "reference/luma_roi.h"
#include "stream_checks.h"
#include "test_frame.h"

namespace analysis_test {

// One frame, whose analysis `kMatrixFrame` makes depend on the matrix, pushed under the default
// bt709 and again after each switch (bt601, bt2020, bt709, bt2020).
template <const auto& kCase, TestFrame (*kMatrixFrame)(std::mt19937& rng, const std::string& name)>
struct MatrixChangeWhilePlaying {
  static constexpr const char* kName = "test_matrix_change_while_playing";
  static void Run() {
    const std::string name = "matrix change";
    std::mt19937 rng = vktest::RngFor(name);
    typename AnalysisStream<kCase>::Params params;  // bt709
    AnalysisStream<kCase> stream(params);
    const TestFrame frame = kMatrixFrame(rng, name);
    stream.Push(frame);
    for (reference::Matrix matrix : {reference::Matrix::kBt601, reference::Matrix::kBt2020,
                                     reference::Matrix::kBt709, reference::Matrix::kBt2020}) {
      params.matrix = matrix;
      stream.SetParams(params);
      stream.Push(frame);
    }
    EndAndExpectStreamMatches(stream, name);
  }
};

}  // namespace analysis_test
