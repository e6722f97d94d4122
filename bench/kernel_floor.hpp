// The floors under our kernels' GPU times on device-resident frames: what timestamps, a dispatch, a
// device-to-device copy and trivial kernels that only stream the frame's bytes take on this device.
// `vkcompute-bench --kernel-floor` prints them; docs/benchmarks.md compares the elements' times
// inside a chain against them.
#pragma once

#include <string>
#include <vector>

namespace bench {

// Measures the floors for RGBA frames of each size ("360p", "1080p", "4k") and prints them.
// Returns false when the device could not be opened.
bool print_kernel_floors(const std::vector<std::string>& sizes);

}  // namespace bench
