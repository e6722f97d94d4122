// Comparison of lumamax messages with the reference results of the frames that were pushed.
#pragma once

#include <string>

#include "analysis_stream.h"
#include "common/analysis/stream_checks.h"
#include "common/test_seed.h"
#include "lumamax_message.h"

namespace lumamax_test {

// Exact positions; luma values derived from integer L within 1e-9; the mean (the element
// accumulates L >> 8) within 1e-4.
inline constexpr double kLumaTolerance = 1e-9;
inline constexpr double kMeanTolerance = 1e-4;

// Fails the test unless `got` is the message the specification requires for `frame`:
// timestamps from its PTS/duration/segment, max, min, mean and peaks from the reference.
void ExpectMessageMatches(const LumamaxMessage& got, const PushedFrame& frame, const std::string& where);

// Fails unless every push returned OK and passed the frame on unchanged, and the element posted
// exactly one correct message per frame, in order, from itself. Call after EndOfStream().
void ExpectStreamMatches(const AnalysisStream& stream, const std::string& context);

// Fails unless every push returned OK and passed the frame on unchanged.
using analysis_test::ExpectFramesPassedThrough;

// Failure messages name the seed alike in every element's tests.
using vktest::WithSeed;

}  // namespace lumamax_test
