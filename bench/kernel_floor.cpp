#include "kernel_floor.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "floor_copy.spv.h"
#include "floor_read.spv.h"
#include "vk/kernel.hpp"
#include "vk/memory.hpp"
#include "vk/submit.hpp"

namespace bench {

namespace {

constexpr int kRepeats = 50;
constexpr uint32_t kGroup = 256;  // the shaders' local size

struct Times {
  double median_us = 0, min_us = 0;
};

// Records the work with `record` into a submission of its own, `kRepeats` times, each timed from
// its first command to the end of its last: the median and the least.
Times time_submissions(vkc::CommandRing& ring, const std::function<void(vk::CommandBuffer)>& record,
                       int per_submission = 1) {
  std::vector<double> us;
  for (int i = 0; i < kRepeats; ++i) {
    vk::CommandBuffer cmd = ring.begin(0);
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

void print_line(const char* what, const Times& t, double bytes) {
  if (bytes > 0)
    std::printf("  %-52s %8.1f µs (least %6.1f)  %6.0f GB/s\n", what, t.median_us, t.min_us,
                t.median_us > 0 ? bytes / (t.median_us * 1000.0) : 0.0);
  else
    std::printf("  %-52s %8.1f µs (least %6.1f)\n", what, t.median_us, t.min_us);
}

}  // namespace

bool print_kernel_floors(const std::vector<std::string>& sizes) {
  std::string error;
  auto device = vkc::Device::acquire(-1, error);
  if (!device) {
    std::fprintf(stderr, "kernel floors: %s\n", error.c_str());
    return false;
  }
  std::printf(
      "Kernel floors on %s (device-resident RGBA frames; median of %d submissions, each timed "
      "from its first command to the end of its work)\n",
      device->name().c_str(), kRepeats);
  vkc::CommandRing ring(device, 1, "bench floors", 1);  // every submission timed
  auto kernel = [&](const char* name, const uint32_t* spirv, size_t bytes, uint32_t vecs, uint32_t last = 0) {
    return std::make_unique<vkc::Kernel>(device, vkc::KernelInfo{.name = name,
                                                                 .spirv = spirv,
                                                                 .spirv_bytes = bytes,
                                                                 .bindings = 2,
                                                                 .push_constant_bytes = 4,
                                                                 .specialization = {vecs, last}});
  };
  const uint32_t vecs_choices[] = {1, 4};
  for (const std::string& size : sizes) {
    const uint32_t w = size == "4k" ? 3840 : size == "360p" ? 640 : 1920;
    const uint32_t h = size == "4k" ? 2160 : size == "360p" ? 360 : 1080;
    const vk::DeviceSize frame = vk::DeviceSize(w) * h * 4;
    const uint32_t count = uint32_t(frame / 16);
    auto src = vkc::Buffer::create_device(device, frame, "floor src");
    auto dst = vkc::Buffer::create_device(device, frame, "floor dst");
    std::printf("%s (%ux%u, %.1f MB per frame)\n", size.c_str(), w, h, frame / 1e6);

    print_line("timestamps alone", time_submissions(ring, [](vk::CommandBuffer) {}), 0);
    auto copy1 = kernel("floor copy", floor_copy_spv, sizeof(floor_copy_spv), 1);
    copy1->update(0, {{src->handle()}, {dst->handle()}});
    const uint32_t none = 0;
    print_line("one workgroup doing nothing",
               time_submissions(ring, [&](vk::CommandBuffer cmd) { copy1->dispatch(cmd, 0, &none, 1, 1); }),
               0);
    print_line("vkCmdCopyBuffer, device to device",
               time_submissions(ring,
                                [&](vk::CommandBuffer cmd) {
                                  cmd.copyBuffer(src->handle(), dst->handle(), vk::BufferCopy{.size = frame});
                                }),
               2.0 * frame);
    for (uint32_t vecs : vecs_choices) {
      auto copy = kernel("floor copy", floor_copy_spv, sizeof(floor_copy_spv), vecs);
      copy->update(0, {{src->handle()}, {dst->handle()}});
      const uint32_t groups = (count + kGroup * vecs - 1) / (kGroup * vecs);
      auto sums = vkc::Buffer::create_device(device, (groups + 2) * 4, "floor sums");
      auto read = kernel("floor read", floor_read_spv, sizeof(floor_read_spv), vecs);
      read->update(0, {{src->handle()}, {sums->handle()}});
      auto read_last = kernel("floor read", floor_read_spv, sizeof(floor_read_spv), vecs, 1);
      read_last->update(0, {{src->handle()}, {sums->handle()}});
      // The counter starts at zero; the last workgroup leaves it so.
      time_submissions(ring, [&](vk::CommandBuffer cmd) { vkc::clear_buffer(cmd, sums->handle()); });
      char what[96];
      std::snprintf(what, sizeof what, "copy kernel, %u B per invocation", 16 * vecs);
      print_line(
          what,
          time_submissions(ring, [&](vk::CommandBuffer cmd) { copy->dispatch(cmd, 0, &count, groups, 1); }),
          2.0 * frame);
      std::snprintf(what, sizeof what, "read kernel (sums per workgroup), %u B per invocation", 16 * vecs);
      print_line(
          what,
          time_submissions(ring, [&](vk::CommandBuffer cmd) { read->dispatch(cmd, 0, &count, groups, 1); }),
          double(frame));
      std::snprintf(what, sizeof what, "read kernel, the last workgroup adds the slots, %u B", 16 * vecs);
      print_line(what,
                 time_submissions(
                     ring, [&](vk::CommandBuffer cmd) { read_last->dispatch(cmd, 0, &count, groups, 1); }),
                 double(frame));
      // As a chain's elements follow each other in one submission: a barrier between kernels.
      std::snprintf(what, sizeof what, "copy kernel, %u B, five in a row with barriers, each", 16 * vecs);
      print_line(what,
                 time_submissions(
                     ring,
                     [&](vk::CommandBuffer cmd) {
                       for (int k = 0; k < 5; ++k) {
                         if (k > 0) vkc::compute_barrier(cmd);
                         copy->dispatch(cmd, 0, &count, groups, 1);
                       }
                     },
                     5),
                 2.0 * frame);
    }
  }
  return true;
}

}  // namespace bench
