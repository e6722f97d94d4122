#include "report.hpp"

#include <algorithm>
#include <cstdio>

namespace bench {

namespace {

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

// "name 12.3, name 4.5, ...": CPU microseconds per frame of each thread, the busiest first, those
// under 0.5 us left out.
std::string cpu_by_thread(const Measurement& m) {
  std::vector<std::pair<double, std::string>> threads;
  for (const auto& [name, seconds] : m.cpu_seconds_by_thread)
    if (m.frames > 0 && 1e6 * seconds / m.frames >= 0.5) threads.push_back({1e6 * seconds / m.frames, name});
  std::sort(threads.rbegin(), threads.rend());
  std::string text;
  char item[96];
  for (const auto& [us, name] : threads) {
    std::snprintf(item, sizeof item, "%s%s %.1f", text.empty() ? "" : ", ", name.c_str(), us);
    text += item;
  }
  return text;
}

// {"lut0": 240.1, ...}: each of our elements' GPU time per frame.
std::string json_gpu_by_element(const Measurement& m) {
  std::string json = "{";
  for (const auto& [name, us] : m.gpu_us_by_element) {
    char value[32];
    std::snprintf(value, sizeof value, "%.2f", us);
    json += (json.size() > 1 ? ", " : "") + json_string(name) + ": " + value;
  }
  return json + "}";
}

std::string json_cpu_by_thread(const Measurement& m) {
  std::string text = "{";
  char item[32];
  for (const auto& [name, seconds] : m.cpu_seconds_by_thread) {
    std::snprintf(item, sizeof item, "%.2f", m.frames > 0 ? 1e6 * seconds / m.frames : 0.0);
    text += (text.size() > 1 ? ", " : "") + json_string(name) + ": " + item;
  }
  return text + "}";
}

std::string csv_field(const std::string& text) {
  std::string out = "\"";
  for (char ch : text) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

}  // namespace

double Report::copy_floor_us(const Case& c) const {
  if (bandwidth_.host_to_device_gbs <= 0 || bandwidth_.device_to_host_gbs <= 0) return 0;
  return c.in_bytes / (bandwidth_.host_to_device_gbs * 1e3) +
         c.out_bytes / (bandwidth_.device_to_host_gbs * 1e3);
}

void Report::print_header() const {
  if (bandwidth_.error.empty())
    std::printf(
        "device %s: copy bandwidth host->device %.1f GB/s, device->host %.1f GB/s, both at once %.1f GB/s\n",
        bandwidth_.device.c_str(), bandwidth_.host_to_device_gbs, bandwidth_.device_to_host_gbs,
        bandwidth_.both_ways_gbs);
  else
    std::printf("copy bandwidth not measured: %s\n", bandwidth_.error.c_str());
}

void Report::add_case(const std::vector<Row>& rows) {
  if (rows.empty()) return;
  const Case& c = *rows.front().c;
  const double floor_us = copy_floor_us(c);
  // Peers are compared with our element's first (default) variant.
  double ours_fps = 0;
  for (const Row& r : rows)
    if (r.v->ours) {
      if (r.m.status == "ok") ours_fps = r.m.fps();
      break;
    }
  std::printf("\n%s %s (%dx%d; copy floor %.0f us/frame)\n", c.name.c_str(), c.size.c_str(), c.width,
              c.height, floor_us);
  std::printf("  %-52s %9s %9s %10s %8s %9s %s\n", "variant", "frames/s", "ms/frame", "CPU us/fr", "peak MiB",
              "GPU us", "ratio");
  for (const Row& r : rows) {
    if (r.m.status != "ok") {
      std::printf("  %-52s %s\n", r.v->label.c_str(), r.m.status.c_str());
      continue;
    }
    std::string ratio;
    char text[96];
    if (r.v->ours && r.m.gpu_us > 0 && floor_us > 0) {
      std::snprintf(text, sizeof text, "GPU time at %.0f%% of the copy floor", 100.0 * floor_us / r.m.gpu_us);
      ratio = text;
    } else if (!r.v->ours && !r.v->reference && ours_fps > 0) {
      std::snprintf(text, sizeof text, "vkcompute %.2fx", ours_fps / r.m.fps());
      ratio = text;
    }
    std::printf("  %-52s %9.1f %9.3f %10.1f %8.0f %9s %s\n", r.v->label.c_str(), r.m.fps(),
                r.m.ms_per_frame(), r.m.cpu_us_per_frame(), r.m.peak_rss_mib,
                r.m.gpu_us > 0 ? std::to_string(int(r.m.gpu_us + 0.5)).c_str() : "-", ratio.c_str());
    if (!r.v->note.empty()) std::printf("  %-52s (%s)\n", "", r.v->note.c_str());
    if (r.v->ours || r.v->reference)
      std::printf("  %-52s CPU us/frame by thread: %s\n", "", cpu_by_thread(r.m).c_str());
    if (r.m.gpu_us_by_element.size() > 1) {
      std::string elements;
      for (const auto& [name, us] : r.m.gpu_us_by_element)
        elements += (elements.empty() ? "" : ", ") + name + " " + std::to_string(int(us + 0.5));
      std::printf("  %-52s GPU us by element: %s\n", "", elements.c_str());
    }
    if (r.m.uploads_per_frame >= 0)
      std::printf("  %-52s per frame: %.2f uploads, %.2f downloads (host<->device, all our elements)\n", "",
                  r.m.uploads_per_frame, r.m.downloads_per_frame);
    if (r.v->live_fps > 0)
      std::printf("  %-52s push to sink at %.0f frames/s: mean %.2f ms, max %.2f ms\n", "", r.v->live_fps,
                  r.m.latency_mean_us / 1000.0, r.m.latency_max_us / 1000.0);
  }
  std::fflush(stdout);
  rows_.insert(rows_.end(), rows.begin(), rows.end());
}

bool Report::write_json(const std::string& path) const {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  for (const Row& r : rows_) {
    std::fprintf(
        f,
        "{\"case\": %s, \"size\": %s, \"width\": %d, \"height\": %d, \"variant\": %s, \"ours\": %s, "
        "\"reference\": %s, "
        "\"status\": %s, \"fps\": %.3f, \"ms_per_frame\": %.4f, \"cpu_us_per_frame\": %.2f, "
        "\"peak_rss_mib\": %.1f, \"gpu_us\": %.2f, \"copy_floor_us\": %.2f, \"device\": %s, "
        "\"h2d_gbs\": %.2f, \"d2h_gbs\": %.2f, \"both_ways_gbs\": %.2f, \"note\": %s, "
        "\"cpu_us_per_frame_by_thread\": %s, \"gpu_us_by_element\": %s, \"uploads_per_frame\": %.3f, "
        "\"downloads_per_frame\": %.3f, \"latency_mean_us\": %.1f, \"latency_max_us\": %.1f}\n",
        json_string(r.c->name).c_str(), json_string(r.c->size).c_str(), r.c->width, r.c->height,
        json_string(r.v->label).c_str(), r.v->ours ? "true" : "false", r.v->reference ? "true" : "false",
        json_string(r.m.status).c_str(), r.m.fps(), r.m.ms_per_frame(), r.m.cpu_us_per_frame(),
        r.m.peak_rss_mib, r.m.gpu_us, copy_floor_us(*r.c), json_string(bandwidth_.device).c_str(),
        bandwidth_.host_to_device_gbs, bandwidth_.device_to_host_gbs, bandwidth_.both_ways_gbs,
        json_string(r.v->note).c_str(), json_cpu_by_thread(r.m).c_str(), json_gpu_by_element(r.m).c_str(),
        r.m.uploads_per_frame, r.m.downloads_per_frame, r.m.latency_mean_us, r.m.latency_max_us);
  }
  return std::fclose(f) == 0;
}

bool Report::write_csv(const std::string& path) const {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return false;
  std::fprintf(
      f,
      "case,size,variant,ours,status,fps,ms_per_frame,cpu_us_per_frame,peak_rss_mib,gpu_us,copy_floor_us\n");
  for (const Row& r : rows_)
    std::fprintf(f, "%s,%s,%s,%d,%s,%.3f,%.4f,%.2f,%.1f,%.2f,%.2f\n", csv_field(r.c->name).c_str(),
                 r.c->size.c_str(), csv_field(r.v->label).c_str(), r.v->ours ? 1 : 0,
                 csv_field(r.m.status).c_str(), r.m.fps(), r.m.ms_per_frame(), r.m.cpu_us_per_frame(),
                 r.m.peak_rss_mib, r.m.gpu_us, copy_floor_us(*r.c));
  return std::fclose(f) == 0;
}

}  // namespace bench
