#include "options.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "cases.hpp"

namespace bench {

namespace {

void usage(const char* argv0) {
  std::fprintf(
      stderr,
      "usage: %s [--seconds S] [--warmup S] [--sizes 1080p,4k,360p,WxH] [--filter TEXT] [--json FILE]\n"
      "          [--csv FILE] [--list] [--ours-only] [--sink-reads] [--write-cube FILE] [--kernel-floor]\n"
      "       %s --resident [--sizes 1080p,4k] [--filter TEXT]\n"
      "       %s --many-streams K [--stream-elements FRAGMENT] [--stream-format RGBA]\n"
      "          [--stream-size 1080p|4k|360p|WxH] [--stream-rate 30] [--streams-per-feeder 16]\n"
      "          [--stream-identity] [--stream-copy] [--stop-in-flight] [--seconds S] [--warmup S]\n"
      "       %s --latency RUNS [--stream-elements FRAGMENT] [--stream-format RGBA] [--stream-size 1080p]\n"
      "          [--stream-rate 30] [--latency-frames 300] [--latency-log LEVEL] [--latency-pool]\n"
      "          [--json FILE]\n"
      "Runs each case (element and input) with our element and its peers on the same random\n"
      "frames: frames/s, ms/frame, CPU time/frame, peak memory, GPU time from timestamps.\n"
      "--filter runs the cases whose name and size contain TEXT; =TEXT runs the one named TEXT\n"
      "(\"=rgb2yuv RGBA->NV12 1080p\" without the chains that end in it).\n"
      "--sink-reads maps every frame that reaches the sink (fakesink otherwise reads nothing).\n"
      "--kernel-floor prints, for each size, what timestamps, a dispatch, a device copy and\n"
      "kernels that only stream the frame take on the device, quiet and beside bus traffic,\n"
      "and exits.\n"
      "--resident times each element (and the five-element chain) on 16 random frames already\n"
      "in device memory, recorded back to back in one command buffer, against the floor of the\n"
      "bytes they move (--filter picks rows by name), and exits.\n"
      "--many-streams runs K live pipelines appsrc ! FRAGMENT ! fakesink (default lumamax) in\n"
      "this process, each fed at the stream rate by one pacing thread per --streams-per-feeder\n"
      "streams: frames delivered, late and missing frames, latency, CPU time per frame, threads\n"
      "(--stop-in-flight: each pipeline set to NULL with its frames in flight, no EOS first)\n"
      "and memory. --stream-identity replaces each element of ours with identity. Each buffer of\n"
      "a stream's pool gets its content once, as a camera's DMA fills it without the CPU;\n"
      "--stream-copy makes the CPU write every frame, as a software decoder would.\n"
      "--latency runs one live pipeline appsrc ! FRAGMENT ! appsink RUNS times, each frame a new\n"
      "copy in system memory: push-to-appsink p50, p99 and max, and where the worst frame waited;\n"
      "--latency-log LEVEL prints the plugin's debug messages up to LEVEL logged meanwhile.\n"
      "--latency-pool pushes frames from a buffer pool (their memory reused) instead of new ones.\n",
      argv0, argv0, argv0, argv0);
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

}  // namespace

bool parse_options(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (arg == "--list") {
      o.list = true;
    } else if (arg == "--ours-only") {
      o.ours_only = true;
    } else if (arg == "--sink-reads") {
      o.sink_reads = true;
    } else if (arg == "--kernel-floor") {
      o.kernel_floor = true;
    } else if (arg == "--resident") {
      o.resident = true;
    } else if (arg == "--latency-pool") {
      o.latency_pool = true;
    } else if (arg == "--stream-identity") {
      o.stream_identity = true;
    } else if (arg == "--stream-copy") {
      o.stream_copy = true;
    } else if (arg == "--stop-in-flight") {
      o.stop_in_flight = true;
    } else if ((arg == "--many-streams" || arg == "--stream-elements" || arg == "--stream-format" ||
                arg == "--stream-size" || arg == "--stream-rate" || arg == "--streams-per-feeder") &&
               (v = value())) {
      if (arg == "--many-streams" && (o.many_streams = std::atoi(v)) <= 0) {
        std::fprintf(stderr, "--many-streams needs a number of streams > 0\n");
        return false;
      }
      if (arg == "--stream-elements") o.stream_elements = v;
      if (arg == "--stream-format") o.stream_format = v;
      if (arg == "--stream-size") o.stream_size = v;
      if (arg == "--stream-rate") o.stream_rate = std::atoi(v);
      if (arg == "--streams-per-feeder") o.streams_per_feeder = std::atoi(v);
    } else if ((arg == "--latency" || arg == "--latency-frames" || arg == "--latency-log") && (v = value())) {
      if (arg == "--latency" && (o.latency_runs = std::atoi(v)) <= 0) {
        std::fprintf(stderr, "--latency needs a number of runs > 0\n");
        return false;
      }
      if (arg == "--latency-frames") o.latency_frames = unsigned(std::atoi(v));
      if (arg == "--latency-log") o.latency_log = std::atoi(v);
    } else if ((arg == "--seconds" || arg == "--warmup" || arg == "--sizes" || arg == "--filter" ||
                arg == "--json" || arg == "--csv" || arg == "--write-cube") &&
               (v = value())) {
      if (arg == "--seconds") o.measure_s = std::atof(v);
      if (arg == "--warmup") o.warmup_s = std::atof(v);
      if (arg == "--sizes") o.sizes = split(v);
      if (arg == "--filter") o.filter = v;
      if (arg == "--json") o.json_path = v;
      if (arg == "--csv") o.csv_path = v;
      if (arg == "--write-cube") o.write_cube = v;
    } else if (arg == "--child" && i + 2 < argc) {
      o.child_case = std::atoi(argv[++i]);
      o.child_variant = std::atoi(argv[++i]);
    } else if (arg == "--repost-message" && i + 1 < argc) {
      o.repost_message = argv[++i];
    } else if (arg == "--pace-fps" && i + 1 < argc) {
      o.pace_fps = std::atof(argv[++i]);
    } else {
      usage(argv[0]);
      return false;
    }
  }
  for (const auto& size : o.sizes) {
    if (frame_size(size).width == 0) {
      std::fprintf(stderr, "unknown size '%s': use 1080p, 4k, 360p and/or WIDTHxHEIGHT\n", size.c_str());
      return false;
    }
  }
  if (o.measure_s <= 0 || o.warmup_s < 0) {
    std::fprintf(stderr, "--seconds must be > 0 and --warmup >= 0\n");
    return false;
  }
  return true;
}

std::vector<std::string> case_arguments(const Options& o) {
  std::string sizes;
  for (const auto& s : o.sizes) sizes += (sizes.empty() ? "" : ",") + s;
  char seconds[32], warmup[32];
  std::snprintf(seconds, sizeof seconds, "%g", o.measure_s);
  std::snprintf(warmup, sizeof warmup, "%g", o.warmup_s);
  std::vector<std::string> args = {"--sizes", sizes, "--seconds", seconds, "--warmup", warmup};
  if (o.sink_reads) args.push_back("--sink-reads");
  return args;
}

}  // namespace bench
