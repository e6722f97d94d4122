#include "measurement.hpp"

#include <sys/resource.h>

namespace bench {

namespace {

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto s = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
  return s(usage.ru_utime) + s(usage.ru_stime);
}

}  // namespace

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

void Window::start() {
  wall_us_ = g_get_monotonic_time();
  cpu_s_ = cpu_seconds();
}

void Window::stop(Measurement& m, double frames) {
  m.seconds = double(g_get_monotonic_time() - wall_us_) / 1e6;
  m.cpu_seconds = cpu_seconds() - cpu_s_;
  m.frames = frames;
}

std::string Measurement::serialize() const {
  GstStructure* s = gst_structure_new("measurement", "status", G_TYPE_STRING, status.c_str(), "frames",
                                      G_TYPE_DOUBLE, frames, "seconds", G_TYPE_DOUBLE, seconds, "cpu-seconds",
                                      G_TYPE_DOUBLE, cpu_seconds, "peak-rss-mib", G_TYPE_DOUBLE, peak_rss_mib,
                                      "gpu-us", G_TYPE_DOUBLE, gpu_us, nullptr);
  gchar* text = gst_structure_to_string(s);
  std::string line = text;
  g_free(text);
  gst_structure_free(s);
  return line;
}

Measurement Measurement::parse(const std::string& line) {
  Measurement m;
  GstStructure* s = gst_structure_from_string(line.c_str(), nullptr);
  if (!s || !gst_structure_has_name(s, "measurement")) {
    m.status = "error: no result from the run" + (line.empty() ? std::string() : " (" + line + ")");
    if (s) gst_structure_free(s);
    return m;
  }
  m.status = gst_structure_get_string(s, "status");
  gst_structure_get_double(s, "frames", &m.frames);
  gst_structure_get_double(s, "seconds", &m.seconds);
  gst_structure_get_double(s, "cpu-seconds", &m.cpu_seconds);
  gst_structure_get_double(s, "peak-rss-mib", &m.peak_rss_mib);
  gst_structure_get_double(s, "gpu-us", &m.gpu_us);
  gst_structure_free(s);
  return m;
}

}  // namespace bench
