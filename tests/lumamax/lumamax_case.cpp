#include "lumamax_case.h"

#include <cstdio>
#include <string>

#include "buffer_reference.h"
#include "common/analysis/harness_driver.h"
#include "common/analysis/shared_params.h"
#include "frames.h"
#include "verify.h"

namespace lumamax_test {
namespace {

// "count=3 min-distance=2 [peak-threshold=0.5] matrix=bt709 roi=0,0,0x0".
std::string DescribeParams(const lumamax_ref::Params& params) {
  char threshold[48] = "";
  if (params.peak_threshold != 0)
    snprintf(threshold, sizeof threshold, " peak-threshold=%.17g", params.peak_threshold);
  return "count=" + std::to_string(params.count) + " min-distance=" + std::to_string(params.min_distance) +
         threshold + " " + analysis_test::DescribeMatrixAndRoi(params.matrix, params.roi);
}

void ApplyParams(GstElement* element, const lumamax_ref::Params& params) {
  analysis_test::SetUint(element, "count", params.count);
  analysis_test::SetUint(element, "min-distance", params.min_distance);
  g_object_set(element, "peak-threshold", params.peak_threshold, nullptr);
  analysis_test::ApplyMatrixAndRoi(element, params.matrix, params.roi);
}

// RandomFrame() without the planted extremes' positions.
TestFrame StreamFrame(GstVideoFormat format, int width, int height, std::mt19937& rng) {
  return RandomFrame(format, width, height, rng);
}

}  // namespace

lumamax_ref::Params PeakParams(guint count, guint min_distance) {
  lumamax_ref::Params params;
  params.count = count;
  params.min_distance = min_distance;
  return params;
}

// The shared tests' choices: frames after a flush in GRAY8, the odd placement in Y444; the EOS,
// flush and flush-while-streaming streams with peaks; empty ROIs on RGBA.
const analysis_test::ElementCase<lumamax_ref::Params, lumamax_ref::Result, LumamaxMessage> kLumamaxCase = {
    "lumamax",
    ApplyParams,
    DescribeParams,
    AnalyzeBuffer,
    ParseLumamaxMessage,
    ExpectMessageMatches,
    StreamFrame,
    GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_Y444,
    PeakParams(3, 4),
    PeakParams(4, 3),
    PeakParams(2, 0),
    "RGBA",
    /*deep_formats=*/true};

}  // namespace lumamax_test
