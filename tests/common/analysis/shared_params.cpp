#include "shared_params.h"

#include "harness_driver.h"

namespace analysis_test {

void ApplyMatrixAndRoi(GstElement* element, reference::Matrix matrix, const reference::Roi& roi) {
  SetUint(element, "roi-x", roi.x);
  SetUint(element, "roi-y", roi.y);
  SetUint(element, "roi-width", roi.width);
  SetUint(element, "roi-height", roi.height);
  RequireProperty(element, "matrix");
  gst_util_set_object_arg(G_OBJECT(element), "matrix", reference::Nick(matrix));
}

std::string DescribeMatrixAndRoi(reference::Matrix matrix, const reference::Roi& roi) {
  return std::string("matrix=") + reference::Nick(matrix) + " roi=" + std::to_string(roi.x) + "," +
         std::to_string(roi.y) + "," + std::to_string(roi.width) + "x" + std::to_string(roi.height);
}

}  // namespace analysis_test
