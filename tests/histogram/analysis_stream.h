// The histogram element's test stream: the shared AnalysisStream (common/analysis) with the histogram
// reference, parameters and messages.
#pragma once

#include <gst/video/video.h>

#include <optional>
#include <string>

#include "buffer_reference.h"
#include "common/analysis/analysis_stream.h"
#include "frames.h"
#include "message_log.h"
#include "reference/histogram_ref.h"

namespace histogram_test {

// "bins=64 matrix=bt709 roi=0,0,0x0", for failure messages.
std::string DescribeParams(const histogram_ref::Params& params);

// Sets the element's properties from `params`.
void ApplyParams(GstElement* element, const histogram_ref::Params& params);

struct HistogramTraits {
  using Params = histogram_ref::Params;
  using Result = histogram_ref::Result;
  using Kind = HistogramKind;
  static constexpr const char* kElement = "histogram";
  static void ApplyParams(GstElement* element, const Params& params) {
    histogram_test::ApplyParams(element, params);
  }
  static std::string DescribeParams(const Params& params) { return histogram_test::DescribeParams(params); }
  static std::optional<Result> AnalyzeBuffer(GstBuffer* buffer, const GstVideoInfo& info,
                                             const Params& params) {
    return histogram_test::AnalyzeBuffer(buffer, info, params);
  }
};

using AnalysisStream = analysis_test::AnalysisStream<HistogramTraits>;
using PushedFrame = AnalysisStream::Frame;

}  // namespace histogram_test
