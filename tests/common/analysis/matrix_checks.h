// The matrix check every analysis element shares: switching the matrix while playing applies
// from the next frame.
#pragma once

#include "reference/luma_roi.h"
#include "test_frame.h"

namespace analysis_test {

// Pushes `frame` under `params`, then again after each switch of params.matrix (bt601, bt2020,
// bt709, bt2020); `params` ends with the last one.
template <typename Stream, typename Params>
void PushUnderMatrixChanges(Stream& stream, Params& params, const TestFrame& frame) {
  stream.Push(frame);
  for (reference::Matrix matrix : {reference::Matrix::kBt601, reference::Matrix::kBt2020,
                                   reference::Matrix::kBt709, reference::Matrix::kBt2020}) {
    params.matrix = matrix;
    stream.SetParams(params);
    stream.Push(frame);
  }
}

}  // namespace analysis_test
