// Comparison of histogram messages with the reference results of the frames that were pushed.
#pragma once

#include <string>

#include "analysis_stream.h"
#include "common/analysis/stream_checks.h"
#include "common/test_seed.h"
#include "histogram_message.h"

namespace histogram_test {

// Fails the test unless `got` is the message the specification requires for `frame`:
// timestamps from its PTS/duration/segment, `bins`, `pixels`, exactly the format's channels,
// each with `bins` entries summing to its sample count and equal to the reference counts.
void ExpectMessageMatches(const HistogramMessage& got, const PushedFrame& frame, const std::string& where);

// Fails unless every push returned OK and passed the frame on unchanged, and the element posted
// exactly one correct message per frame that wants one (PushedFrame::WantsMessage()), in order,
// from itself. Call after EndOfStream().
void ExpectStreamMatches(const AnalysisStream& stream, const std::string& context);

// Fails unless every push returned OK and passed the frame on unchanged.
using analysis_test::ExpectFramesPassedThrough;

// Failure messages name the seed alike in every element's tests.
using vktest::WithSeed;

}  // namespace histogram_test
