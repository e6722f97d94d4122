// Live many-stream mode of vkcompute-bench (--many-streams K): K live pipelines
// `appsrc ! ELEMENTS ! fakesink` in one process, fed at their frame rate by a few pacing threads,
// as a process serving K cameras runs them. Reports frames delivered, late and missing frames,
// push-to-sink latency, CPU time per frame, the process's threads and its memory.
#pragma once

#include <string>

#include "options.hpp"

namespace bench {

// --stream-size: 1080p, 4k, 360p or WIDTHxHEIGHT, into `width` and `height`; false when it is none.
bool stream_size(const std::string& text, int& width, int& height);

// Runs the mode and prints its report; returns the process's exit status (nonzero on a pipeline
// error or bad settings).
int run_many_streams(const Options& options);

}  // namespace bench
