// lumamax as the shared analysis tests (common/analysis) know it: its case (element_case.h), and
// the suite's stream, the shared AnalysisStream of that case.
#pragma once

#include <gst/gst.h>

#include "common/analysis/analysis_stream.h"
#include "common/analysis/element_case.h"
#include "lumamax_message.h"
#include "reference/lumamax_ref.h"

namespace lumamax_test {

extern const analysis_test::ElementCase<lumamax_ref::Params, lumamax_ref::Result, LumamaxMessage>
    kLumamaxCase;

using AnalysisStream = analysis_test::AnalysisStream<kLumamaxCase>;

// The default parameters but for `count` peaks at least `min_distance` apart.
lumamax_ref::Params PeakParams(guint count, guint min_distance);

}  // namespace lumamax_test
