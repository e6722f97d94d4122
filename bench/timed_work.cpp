#include "timed_work.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "vk/kernel.hpp"

namespace bench {

Times time_submissions(vkc::CommandRing& ring, const Recorder& record, int per_submission,
                       const Recorder& before) {
  std::vector<double> us;
  for (int i = 0; i < kTimedRepeats; ++i) {
    vkc::Commands cmd = ring.begin(0);
    if (before) {
      before(cmd);
      vkc::compute_barrier(cmd);
    }
    ring.start_timing(0);
    record(cmd);
    ring.submit(0);
    ring.wait(0, 10'000'000'000ull);
    const double ns = ring.gpu_time_ns(0);
    if (ns >= 0) us.push_back(ns / 1000.0 / per_submission);
  }
  if (us.empty()) return {};
  std::sort(us.begin(), us.end());
  return {us[us.size() / 2], us.front()};
}

void run_once(vkc::CommandRing& ring, const Recorder& record) {
  vkc::Commands cmd = ring.begin(0);
  record(cmd);
  const vk::MemoryBarrier all{
      .srcAccessMask = vk::AccessFlagBits::eMemoryWrite,
      .dstAccessMask = vk::AccessFlagBits::eMemoryRead | vk::AccessFlagBits::eMemoryWrite};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eAllCommands, vk::PipelineStageFlagBits::eAllCommands, {},
                      all, nullptr, nullptr);
  ring.submit(0);
  ring.wait(0, 10'000'000'000ull);
}

void print_line(const char* what, const Times& t, double bytes) {
  if (bytes > 0)
    std::printf("  %-70s %8.1f µs (least %6.1f)  %6.0f GB/s\n", what, t.median_us, t.min_us,
                t.median_us > 0 ? bytes / (t.median_us * 1000.0) : 0.0);
  else
    std::printf("  %-70s %8.1f µs (least %6.1f)\n", what, t.median_us, t.min_us);
}

}  // namespace bench
