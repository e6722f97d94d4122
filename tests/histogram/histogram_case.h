// histogram as the shared analysis tests (common/analysis) know it: its case (element_case.h), and
// the suite's stream, the shared AnalysisStream of that case.
#pragma once

#include "common/analysis/analysis_stream.h"
#include "common/analysis/element_case.h"
#include "histogram_message.h"
#include "reference/histogram_ref.h"

namespace histogram_test {

extern const analysis_test::ElementCase<histogram_ref::Params, histogram_ref::Result, HistogramMessage>
    kHistogramCase;

using AnalysisStream = analysis_test::AnalysisStream<kHistogramCase>;

// The default parameters but for `bins`.
histogram_ref::Params Bins(guint bins);

}  // namespace histogram_test
