#include "histogram_case.h"

#include <string>

#include "buffer_reference.h"
#include "common/analysis/harness_driver.h"
#include "common/analysis/shared_params.h"
#include "frames.h"
#include "verify.h"

namespace histogram_test {
namespace {

// "bins=64 matrix=bt709 roi=0,0,0x0".
std::string DescribeParams(const histogram_ref::Params& params) {
  return "bins=" + std::to_string(params.bins) + " " +
         analysis_test::DescribeMatrixAndRoi(params.matrix, params.roi);
}

void ApplyParams(GstElement* element, const histogram_ref::Params& params) {
  analysis_test::SetUint(element, "bins", params.bins);
  analysis_test::ApplyMatrixAndRoi(element, params.matrix, params.roi);
}

}  // namespace

histogram_ref::Params Bins(guint bins) {
  histogram_ref::Params params;
  params.bins = bins;
  return params;
}

// The shared tests' choices: frames after a flush in NV12, the odd placement in I420; the EOS
// stream with 64 bins, the flushed ones with the defaults; empty ROIs on I420.
const analysis_test::ElementCase<histogram_ref::Params, histogram_ref::Result, HistogramMessage>
    kHistogramCase = {"histogram",
                      ApplyParams,
                      DescribeParams,
                      AnalyzeBuffer,
                      ParseHistogramMessage,
                      ExpectMessageMatches,
                      RandomFrame,
                      GST_VIDEO_FORMAT_NV12,
                      GST_VIDEO_FORMAT_I420,
                      Bins(64),
                      histogram_ref::Params{},
                      histogram_ref::Params{},
                      "I420",
                      /*deep_formats=*/true};

}  // namespace histogram_test
