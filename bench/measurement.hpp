// One run's results, and the clock and resource counters it is measured with.
#pragma once

#include <gst/gst.h>

#include <map>
#include <string>

namespace bench {

struct Measurement {
  std::string status = "ok";  // "ok", or why there are no numbers ("unavailable: ...", "error: ...")
  double frames = 0;
  double seconds = 0;
  double cpu_seconds = 0;   // user + system, all threads of the process
  double peak_rss_mib = 0;  // of the process that ran the variant
  double gpu_us = 0;        // our element: mean GPU time per frame (timestamp queries)
  // cpu_seconds split by thread name (threads of one name summed): which thread the CPU time is
  // spent in (appsrc's feeder, the streaming thread, our completion thread, the driver's).
  std::map<std::string, double> cpu_seconds_by_thread;
  // Our element: the first element message it posted, serialized (for the case's repost variant).
  std::string message;
  // Each of our elements in the pipeline, by name: its mean GPU time per frame (a chain's).
  std::map<std::string, double> gpu_us_by_element;
  // Frames our elements moved between host and device memory per frame through the pipeline,
  // summed over them (their uploads and downloads properties); negative when not read.
  double uploads_per_frame = -1, downloads_per_frame = -1;
  // A live variant: time from the push into appsrc to the sink, per frame.
  double latency_mean_us = 0, latency_max_us = 0;

  double fps() const { return seconds > 0 ? frames / seconds : 0; }
  double ms_per_frame() const { return frames > 0 ? 1000.0 * seconds / frames : 0; }
  double cpu_us_per_frame() const { return frames > 0 ? 1e6 * cpu_seconds / frames : 0; }

  // The child-to-parent form: a serialized GstStructure on one line.
  std::string serialize() const;
  static Measurement parse(const std::string& line);
};

// Wall clock and process CPU time between start() and stop().
class Window {
 public:
  void start();
  void stop(Measurement& m, double frames);

 private:
  gint64 wall_us_ = 0;
  double cpu_s_ = 0;
  std::map<long, std::pair<std::string, double>> threads_;  // by thread id: name, CPU seconds
};

// Every thread of this process, by thread id: its name and the CPU time it has run, in seconds
// (from /proc/self/task/*/).
std::map<long, std::pair<std::string, double>> thread_cpu_seconds();

// Peak resident memory of this process so far, in MiB.
double peak_rss_mib();

}  // namespace bench
