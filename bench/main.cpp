// vkcompute-bench: frames per second, CPU time and peak memory of our elements and their peers on
// the same random frames, one process per run (so peak memory and GPU state are the run's own).
//
//   vkcompute-bench [--seconds 3] [--warmup 1] [--sizes 1080p,4k] [--filter morph] [--ours-only]
//                   [--json out.jsonl]
//   vkcompute-bench --many-streams K --stream-elements lumamax ...   (many_streams.hpp)
//   vkcompute-bench --latency RUNS --stream-elements lumamax ...     (latency.hpp)
//   vkcompute-bench --resident [--sizes 1080p,4k]                     (resident.hpp)
#include <gst/gst.h>
#include <unistd.h>

#include <cstdio>

#include "cases.hpp"
#include "copy_bandwidth.hpp"
#include "cube_table.hpp"
#include "kernel_floor.hpp"
#include "latency.hpp"
#include "many_streams.hpp"
#include "opencv_variant.hpp"
#include "options.hpp"
#include "pipeline_variant.hpp"
#include "report.hpp"
#include "resident.hpp"
#include "vk/device.hpp"

namespace {

constexpr const char* kResultPrefix = "RESULT ";

// What a reference variant takes from our element's run of the case.
struct FromOurs {
  std::string message;  // for a repost variant
  double fps = 0;       // for a paced variant
};

// Runs one variant in a child process and reads its measurement back.
bench::Measurement run_in_child(const bench::Options& options, int case_index, int variant_index,
                                const FromOurs& ours) {
  gchar* self = g_file_read_link("/proc/self/exe", nullptr);
  std::vector<std::string> args = {self, "--child", std::to_string(case_index),
                                   std::to_string(variant_index)};
  g_free(self);
  for (const auto& arg : bench::case_arguments(options)) args.push_back(arg);
  if (!ours.message.empty()) args.insert(args.end(), {"--repost-message", ours.message});
  if (ours.fps > 0) args.insert(args.end(), {"--pace-fps", std::to_string(ours.fps)});
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  gchar* out = nullptr;
  gint status = 0;
  GError* error = nullptr;
  bench::Measurement m;
  if (!g_spawn_sync(nullptr, argv.data(), nullptr, G_SPAWN_DEFAULT, nullptr, nullptr, &out, nullptr, &status,
                    &error)) {
    m.status = std::string("error: ") + error->message;
    g_error_free(error);
    return m;
  }
  std::string text = out ? out : "";
  g_free(out);
  const auto at = text.rfind(kResultPrefix);
  if (at == std::string::npos) {
    m.status = "error: the run ended without a result (exit status " + std::to_string(status) + ")";
    return m;
  }
  const auto end = text.find('\n', at);
  return bench::Measurement::parse(text.substr(at + 7, end == std::string::npos ? end : end - at - 7));
}

int run_child(const bench::Options& options, const std::vector<bench::Case>& cases) {
  if (options.child_case < 0 || size_t(options.child_case) >= cases.size()) return 2;
  const bench::Case& c = cases[options.child_case];
  if (options.child_variant < 0 || size_t(options.child_variant) >= c.variants.size()) return 2;
  const bench::Variant& v = c.variants[options.child_variant];
  alarm(unsigned(options.warmup_s + options.measure_s) + 60);  // a hung pipeline ends the run
  bench::Measurement m = v.pipeline.empty() ? bench::run_opencv_variant(c, v, options)
                                            : bench::run_pipeline_variant(c, v, options);
  std::printf("%s%s\n", kResultPrefix, m.serialize().c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  GST_DEBUG_CATEGORY_INIT(gst_vkcompute_runtime_debug, "vkcompute", 0, "vkcompute Vulkan runtime");
  bench::Options options;
  if (!bench::parse_options(argc, argv, options)) return 2;
  if (options.many_streams > 0) return bench::run_many_streams(options);
  if (options.latency_runs > 0) return bench::run_latency(options);
  // The same table for other timing scripts (bench/gpu-checks.sh).
  if (!options.write_cube.empty()) return bench::write_cube_table(options.write_cube, 33) ? 0 : 1;
  if (options.kernel_floor) return bench::print_kernel_floors(options.sizes) ? 0 : 1;
  const std::string cube = std::string(g_get_tmp_dir()) + "/vkcompute-bench-33.cube";
  const auto cases = bench::build_cases(options.sizes, cube);
  if (options.child_case >= 0) return run_child(options, cases);
  if (options.resident) return bench::write_cube_table(cube, 33) ? bench::run_resident(options, cube) : 1;

  auto selected = [&](const bench::Case& c) {
    const std::string name = c.name + " " + c.size;
    if (!options.filter.empty() && options.filter[0] == '=') return name == options.filter.substr(1);
    return options.filter.empty() || name.find(options.filter) != std::string::npos;
  };
  if (options.list) {
    for (const auto& c : cases)
      if (selected(c)) std::printf("%s %s\n", c.name.c_str(), c.size.c_str());
    return 0;
  }
  if (!bench::write_cube_table(cube, 33)) return 1;

  bench::Report report(bench::measure_copy_bandwidth());
  std::printf("vkcompute-bench: %g s warm-up, %g s measured per run\n", options.warmup_s, options.measure_s);
  report.print_header();
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!selected(cases[i])) continue;
    std::vector<bench::Row> rows;
    FromOurs ours;  // from the case's first variant of ours
    for (size_t j = 0; j < cases[i].variants.size(); ++j) {
      const bench::Variant& v = cases[i].variants[j];
      if (options.ours_only && !v.ours) continue;
      rows.push_back(
          {&cases[i], &v,
           run_in_child(options, int(i), int(j), {v.repost ? ours.message : "", v.paced ? ours.fps : 0})});
      const bench::Measurement& m = rows.back().m;
      if (v.ours && ours.fps == 0) ours = {m.message, m.fps()};
    }
    report.add_case(rows);
  }
  bool ok = true;
  if (!options.json_path.empty()) ok &= report.write_json(options.json_path);
  if (!options.csv_path.empty()) ok &= report.write_csv(options.csv_path);
  if (!ok) std::fprintf(stderr, "vkcompute-bench: could not write the result files\n");
  return ok ? 0 : 1;
}
