// The properties every analysis element has besides its own (the specification's matrix and
// roi-*), set and described alike for each.
#pragma once

#include <gst/gst.h>

#include <string>

#include "reference/luma_roi.h"

namespace analysis_test {

// Sets roi-x, roi-y, roi-width, roi-height and matrix.
void ApplyMatrixAndRoi(GstElement* element, reference::Matrix matrix, const reference::Roi& roi);

// "matrix=bt709 roi=0,0,0x0", for failure messages.
std::string DescribeMatrixAndRoi(reference::Matrix matrix, const reference::Roi& roi);

}  // namespace analysis_test
