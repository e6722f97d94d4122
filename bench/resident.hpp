// --resident: the GPU time per frame of each element, and of the five-element chain, on frames
// already in device memory (a decoder's frames, a chain's middle), through the plugin's own
// recording of their work (gst/base/residenttiming.hpp), against the floor of the bytes they move.
#pragma once

#include <string>

#include "options.hpp"

namespace bench {

// Prints a row per element and format at each of options.sizes (options.filter picks rows by
// name); lut reads the table at `cube`. 1 when the plugin has no device-resident timing.
int run_resident(const Options& options, const std::string& cube);

}  // namespace bench
