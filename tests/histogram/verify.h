// Comparison of histogram messages with the reference results of the frames that were pushed.
#pragma once

#include <string>

#include "common/analysis/pushed_frame.h"
#include "common/analysis/stream_checks.h"
#include "common/test_seed.h"
#include "histogram_message.h"
#include "reference/histogram_ref.h"

namespace histogram_test {

// A pushed frame as the suite's stream remembers it (its reference result included).
using PushedFrame = analysis_test::PushedFrame<histogram_ref::Params, histogram_ref::Result>;

// Fails the test unless `got` is the message the specification requires for `frame`:
// timestamps from its PTS/duration/segment, `bins`, `pixels`, exactly the format's channels,
// each with `bins` entries summing to its sample count and equal to the reference counts. Whole
// streams are compared by the shared analysis_test::ExpectStreamMatches() with it.
void ExpectMessageMatches(const HistogramMessage& got, const PushedFrame& frame, const std::string& where);

// Failure messages name the seed alike in every element's tests.
using vktest::WithSeed;

}  // namespace histogram_test
