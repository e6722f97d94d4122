// Runs a variant that is a GStreamer pipeline: appsrc ! <fragment> ! fakesink.
#pragma once

#include "cases.hpp"
#include "measurement.hpp"
#include "options.hpp"

namespace bench {

Measurement run_pipeline_variant(const Case& c, const Variant& v, const Options& options);

}  // namespace bench
