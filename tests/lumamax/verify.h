// Comparison of lumamax messages with the reference results of the frames that were pushed.
#pragma once

#include <string>

#include "common/analysis/pushed_frame.h"
#include "common/analysis/stream_checks.h"
#include "common/test_seed.h"
#include "lumamax_message.h"
#include "reference/lumamax_ref.h"

namespace lumamax_test {

// A pushed frame as the suite's stream remembers it (its reference result included).
using PushedFrame = analysis_test::PushedFrame<lumamax_ref::Params, lumamax_ref::Result>;

// Exact positions; luma values derived from integer L within 1e-9; the mean (the element
// accumulates L >> 8) within 1e-4.
inline constexpr double kLumaTolerance = 1e-9;
inline constexpr double kMeanTolerance = 1e-4;

// Fails the test unless `got` is the message the specification requires for `frame`:
// timestamps from its PTS/duration/segment, max, min, mean and peaks from the reference. Whole
// streams are compared by the shared analysis_test::ExpectStreamMatches() with it.
void ExpectMessageMatches(const LumamaxMessage& got, const PushedFrame& frame, const std::string& where);

// Failure messages name the seed alike in every element's tests.
using vktest::WithSeed;

}  // namespace lumamax_test
