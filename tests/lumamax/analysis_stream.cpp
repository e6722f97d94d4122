#include "analysis_stream.h"

#include "common/analysis/harness_driver.h"
#include "common/analysis/shared_params.h"

namespace lumamax_test {

std::string DescribeParams(const lumamax_ref::Params& params) {
  return "count=" + std::to_string(params.count) + " min-distance=" + std::to_string(params.min_distance) +
         " " + analysis_test::DescribeMatrixAndRoi(params.matrix, params.roi);
}

void ApplyParams(GstElement* element, const lumamax_ref::Params& params) {
  analysis_test::SetUint(element, "count", params.count);
  analysis_test::SetUint(element, "min-distance", params.min_distance);
  analysis_test::ApplyMatrixAndRoi(element, params.matrix, params.roi);
}

}  // namespace lumamax_test
