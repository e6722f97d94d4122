// Live latency mode of vkcompute-bench (--latency RUNS): one live pipeline in this process,
// `appsrc is-live=true ! ELEMENTS ! appsink`, fed --latency-frames frames at the stream rate, each a
// fresh copy in system memory (as a capture or a software decoder hands frames over, so a frame's
// time includes its upload). A frame's latency runs from just before its gst_app_src_push_buffer()
// to the appsink's new-sample for it; the first kSkippedFrames of a run are left out.
//
// Per run: p50, p99 and max, and where the worst frame spent its time: when each element of the
// fragment got it (its sink pad) and passed it on (its src pad), and so which element held it, and
// each element's `gpu-time`. With --latency-log LEVEL, the plugin's debug messages up to LEVEL
// logged while the worst frame was on its way (and, when it waited to reach the first element, as
// long before) are printed beside it: allocations, imports, batches sent.
// Then the same figures over all runs.
#pragma once

#include "options.hpp"

namespace bench {

// Runs the mode and prints its report; returns the process's exit status (nonzero on a pipeline
// error, a frame that never arrived, or bad settings).
int run_latency(const Options& options);

}  // namespace bench
