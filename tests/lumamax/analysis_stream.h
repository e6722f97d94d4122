// The lumamax element's test stream: the shared AnalysisStream (common/analysis) with the lumamax
// reference, parameters and messages.
#pragma once

#include <gst/video/video.h>

#include <optional>
#include <string>

#include "common/analysis/analysis_stream.h"
#include "frame_buffer.h"
#include "message_log.h"
#include "reference/lumamax_ref.h"
#include "test_frame.h"

namespace lumamax_test {

// "count=3 min-distance=2 [peak-threshold=0.5] matrix=bt709 roi=0,0,0x0", for failure messages.
std::string DescribeParams(const lumamax_ref::Params& params);

// Sets the element's properties from `params`.
void ApplyParams(GstElement* element, const lumamax_ref::Params& params);

struct LumamaxTraits {
  using Params = lumamax_ref::Params;
  using Result = lumamax_ref::Result;
  using Kind = LumamaxKind;
  static constexpr const char* kElement = "lumamax";
  static void ApplyParams(GstElement* element, const Params& params) {
    lumamax_test::ApplyParams(element, params);
  }
  static std::string DescribeParams(const Params& params) { return lumamax_test::DescribeParams(params); }
  static std::optional<Result> AnalyzeBuffer(GstBuffer* buffer, const GstVideoInfo& info,
                                             const Params& params) {
    return lumamax_test::AnalyzeBuffer(buffer, info, params);
  }
};

using AnalysisStream = analysis_test::AnalysisStream<LumamaxTraits>;
using PushedFrame = AnalysisStream::Frame;

}  // namespace lumamax_test
