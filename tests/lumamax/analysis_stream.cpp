#include "analysis_stream.h"

#include <cstdio>

#include "common/analysis/harness_driver.h"
#include "common/analysis/shared_params.h"

namespace lumamax_test {

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

}  // namespace lumamax_test
