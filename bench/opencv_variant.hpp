// Runs a variant that is an OpenCV call in this process, on all cores (OpenCV's default).
#pragma once

#include "cases.hpp"
#include "measurement.hpp"
#include "options.hpp"

namespace bench {

Measurement run_opencv_variant(const Case& c, const Variant& v, const Options& options);

}  // namespace bench
