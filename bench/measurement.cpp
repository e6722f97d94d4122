#include "measurement.hpp"

#include <dirent.h>
#include <sys/resource.h>

#include <fstream>

namespace bench {

namespace {

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto s = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
  return s(usage.ru_utime) + s(usage.ru_stime);
}

}  // namespace

// schedstat counts nanoseconds; stat's clock ticks are too coarse for a 1-second window.
std::map<long, std::pair<std::string, double>> thread_cpu_seconds() {
  std::map<long, std::pair<std::string, double>> threads;
  DIR* dir = opendir("/proc/self/task");
  if (!dir) return threads;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    const std::string task = std::string("/proc/self/task/") + entry->d_name;
    std::string name;
    double run_ns = 0;
    std::ifstream comm(task + "/comm"), schedstat(task + "/schedstat");
    if (std::getline(comm, name) && schedstat >> run_ns)
      threads[std::stol(entry->d_name)] = {name, run_ns / 1e9};
  }
  closedir(dir);
  return threads;
}

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

void Window::start() {
  wall_us_ = g_get_monotonic_time();
  cpu_s_ = cpu_seconds();
  threads_ = thread_cpu_seconds();
}

void Window::stop(Measurement& m, double frames) {
  m.seconds = double(g_get_monotonic_time() - wall_us_) / 1e6;
  m.cpu_seconds = cpu_seconds() - cpu_s_;
  m.frames = frames;
  // Threads that ended inside the window are missing; those that started count from zero.
  for (const auto& [tid, thread] : thread_cpu_seconds()) {
    auto before = threads_.find(tid);
    m.cpu_seconds_by_thread[thread.first] +=
        thread.second - (before == threads_.end() ? 0 : before->second.second);
  }
}

std::string Measurement::serialize() const {
  GstStructure* s = gst_structure_new("measurement", "status", G_TYPE_STRING, status.c_str(), "frames",
                                      G_TYPE_DOUBLE, frames, "seconds", G_TYPE_DOUBLE, seconds, "cpu-seconds",
                                      G_TYPE_DOUBLE, cpu_seconds, "peak-rss-mib", G_TYPE_DOUBLE, peak_rss_mib,
                                      "gpu-us", G_TYPE_DOUBLE, gpu_us, nullptr);
  GstStructure* threads = gst_structure_new_empty("threads");
  for (const auto& [name, seconds] : cpu_seconds_by_thread) {
    // A serialized field name holds letters, digits and "-_:." only; thread names may hold more.
    std::string field = name;
    for (char& ch : field)
      if (!g_ascii_isalnum(ch) && ch != '-' && ch != '_' && ch != ':' && ch != '.') ch = '_';
    double same_field = 0;  // two names that differ only in such characters
    gst_structure_get_double(threads, field.c_str(), &same_field);
    gst_structure_set(threads, field.c_str(), G_TYPE_DOUBLE, same_field + seconds, nullptr);
  }
  gst_structure_set(s, "threads", GST_TYPE_STRUCTURE, threads, nullptr);
  gst_structure_free(threads);
  if (!message.empty()) gst_structure_set(s, "message", G_TYPE_STRING, message.c_str(), nullptr);
  GstStructure* elements = gst_structure_new_empty("elements");
  for (const auto& [name, us] : gpu_us_by_element)
    gst_structure_set(elements, name.c_str(), G_TYPE_DOUBLE, us, nullptr);  // element names are plain
  gst_structure_set(s, "elements", GST_TYPE_STRUCTURE, elements, "uploads-per-frame", G_TYPE_DOUBLE,
                    uploads_per_frame, "downloads-per-frame", G_TYPE_DOUBLE, downloads_per_frame,
                    "latency-mean-us", G_TYPE_DOUBLE, latency_mean_us, "latency-max-us", G_TYPE_DOUBLE,
                    latency_max_us, nullptr);
  gst_structure_free(elements);
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
  if (const char* message = gst_structure_get_string(s, "message")) m.message = message;
  gst_structure_get_double(s, "uploads-per-frame", &m.uploads_per_frame);
  gst_structure_get_double(s, "downloads-per-frame", &m.downloads_per_frame);
  gst_structure_get_double(s, "latency-mean-us", &m.latency_mean_us);
  gst_structure_get_double(s, "latency-max-us", &m.latency_max_us);
  // A nested structure of doubles (name: value) into `into`.
  auto read_doubles = [s](const char* field, std::map<std::string, double>& into) {
    GstStructure* nested = nullptr;
    if (!gst_structure_get(s, field, GST_TYPE_STRUCTURE, &nested, nullptr) || !nested) return;
    for (int i = 0; i < gst_structure_n_fields(nested); ++i) {
      const char* name = gst_structure_nth_field_name(nested, i);
      gst_structure_get_double(nested, name, &into[name]);
    }
    gst_structure_free(nested);
  };
  read_doubles("elements", m.gpu_us_by_element);
  read_doubles("threads", m.cpu_seconds_by_thread);
  gst_structure_free(s);
  return m;
}

}  // namespace bench
