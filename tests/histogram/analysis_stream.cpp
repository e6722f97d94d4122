#include "analysis_stream.h"

#include "common/analysis/harness_driver.h"
#include "common/analysis/shared_params.h"

namespace histogram_test {

std::string DescribeParams(const histogram_ref::Params& params) {
  return "bins=" + std::to_string(params.bins) + " " +
         analysis_test::DescribeMatrixAndRoi(params.matrix, params.roi);
}

void ApplyParams(GstElement* element, const histogram_ref::Params& params) {
  analysis_test::SetUint(element, "bins", params.bins);
  analysis_test::ApplyMatrixAndRoi(element, params.matrix, params.roi);
}

}  // namespace histogram_test
