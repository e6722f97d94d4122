// Command-line options of vkcompute-bench.
#pragma once

#include <string>
#include <vector>

namespace bench {

struct Options {
  double warmup_s = 1.0;   // per run, before measuring
  double measure_s = 3.0;  // per run
  std::vector<std::string> sizes = {"1080p", "4k"};
  std::string filter;     // run only cases whose name and size contain this (=TEXT: are this)
  std::string json_path;  // one JSON object per run (JSON lines)
  std::string csv_path;
  bool list = false;
  bool ours_only = false;     // our element's variants alone, no peers or references (A/B runs)
  bool kernel_floor = false;  // only print the kernel floors (kernel_floor.hpp) and exit
  bool resident = false;      // only time the elements on frames in device memory (resident.hpp)
  bool sink_reads = false;    // the sink maps every frame, as an appsink's application or a filesink
  std::string write_cube;     // only write the lut cases' 33^3 table to this path and exit
  // --many-streams K (many_streams.hpp): K live pipelines in this process instead of the cases.
  int many_streams = 0;
  std::string stream_elements = "lumamax";  // the fragment between appsrc and fakesink
  std::string stream_format = "RGBA";
  std::string stream_size = "1080p";  // 1080p, 4k, 360p or WIDTHxHEIGHT
  int stream_rate = 30;               // frames per second of every stream
  bool stream_identity = false;       // our elements replaced by identity: the harness's own cost
  int streams_per_feeder = 16;        // streams one pacing thread feeds
  bool stream_copy = false;           // the CPU writes every frame (else each buffer once: DMA)
  bool stop_in_flight = false;        // NULL from PLAYING with frames in flight, no EOS first
  // --latency RUNS (latency.hpp): one live pipeline appsrc ! stream_elements ! appsink, RUNS times.
  int latency_runs = 0;
  unsigned latency_frames = 300;  // a run's frames
  int latency_log = 0;            // the plugin's debug messages up to this level beside the worst frame
  bool latency_pool = false;      // frames from a buffer pool (memory reused) instead of new ones
  // Internal: run one variant of one case and print its measurement (see main.cpp).
  int child_case = -1;
  int child_variant = -1;
  std::string repost_message;  // a "repost" variant's message: our element's, serialized
  double pace_fps = 0;         // a "paced" variant's frame rate: our element's
};

// Parses argv; prints usage and returns false on bad arguments.
bool parse_options(int argc, char** argv, Options& options);

// The arguments that make a child build the same case list as its parent.
std::vector<std::string> case_arguments(const Options& options);

}  // namespace bench
