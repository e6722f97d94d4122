#include "kernel_floor.hpp"

#include <cstdio>

#include "bare_kernel.hpp"
#include "bus_traffic.hpp"
#include "cases.hpp"
#include "floor_copy.spv.h"
#include "floor_empty.spv.h"
#include "floor_layout.h"
#include "floor_read.spv.h"
#include "random_frames.hpp"
#include "timed_work.hpp"
#include "vk/kernel.hpp"
#include "vk/memory.hpp"
#include "vk/submit.hpp"

namespace bench {

namespace {

// The floor shaders' workgroup and push constants (bench/shaders/floor_layout.h).
using vkc::shader::bench_floor::FloorParams;
using vkc::shader::bench_floor::kGroupSize;
using vkc::shader::bench_floor::kMaxVecs;

// `kInARow` dispatches of `kernel` with a barrier between each two, as a chain's elements follow
// each other in one submission, or without (timed per dispatch).
constexpr int kInARow = 5;
Recorder in_a_row(const vkc::Kernel& kernel, const uint32_t& count, uint32_t groups, bool barriers = true) {
  return [&kernel, &count, groups, barriers](vkc::Commands cmd) {
    for (int k = 0; k < kInARow; ++k) {
      if (k > 0 && barriers) vkc::compute_barrier(cmd);
      kernel.dispatch(cmd, 0, &count, groups, 1);
    }
  };
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
      device->name().c_str(), kTimedRepeats);
  vkc::CommandRing ring(device, 1, "bench floors", 1);  // every submission timed
  auto kernel = [&](const char* name, const uint32_t* spirv, size_t bytes, uint32_t vecs, uint32_t last = 0) {
    return std::make_unique<vkc::Kernel>(device, vkc::KernelInfo{.name = name,
                                                                 .spirv = spirv,
                                                                 .spirv_bytes = bytes,
                                                                 .bindings = 2,
                                                                 .push_constant_bytes = sizeof(FloorParams),
                                                                 .specialization = {vecs, last}});
  };
  const uint32_t vecs_choices[] = {1, kMaxVecs};
  for (const std::string& size : sizes) {
    const uint32_t w = uint32_t(frame_size(size).width), h = uint32_t(frame_size(size).height);
    const vk::DeviceSize frame = vk::DeviceSize(w) * h * 4;
    const FloorParams params{uint32_t(frame / 16)};
    const uint32_t& count = params.count;  // the push constants: the kernels get &count
    auto src = vkc::Buffer::create_device(device, frame, "floor src");
    auto dst = vkc::Buffer::create_device(device, frame, "floor dst");
    std::printf("%s (%ux%u, %.1f MB per frame)\n", size.c_str(), w, h, frame / 1e6);
    {  // the bench's first random frame (histogram's shared counters see no more conflicts than there)
      auto host = vkc::Buffer::create_host(device, frame, "floor frame");
      fill_random_frame(host->mapped(), size_t(frame), 0);
      run_once(ring, [&](vkc::Commands cmd) {
        cmd.copyBuffer(host->handle(), src->handle(), vk::BufferCopy{.size = frame});
      });
    }

    print_line("timestamps alone", time_submissions(ring, [](vkc::Commands) {}), 0);
    auto copy1 = kernel("floor copy", floor_copy_spv, sizeof(floor_copy_spv), 1);
    copy1->update(0, {{src->handle()}, {dst->handle()}});
    const uint32_t none = 0;
    auto empty = kernel("floor empty", floor_empty_spv, sizeof(floor_empty_spv), 1);
    empty->update(0, {{src->handle()}, {dst->handle()}});
    const BareKernel bare(device->device());
    // What launching costs, and where it waits: one workgroup that reads its push constants, one
    // that reads nothing, and launches in a row with and without barriers between them.
    auto launches = [&](const std::string& context) {
      print_line(("one workgroup doing nothing" + context).c_str(),
                 time_submissions(ring, [&](vkc::Commands cmd) { copy1->dispatch(cmd, 0, &none, 1, 1); }), 0);
      print_line(("one workgroup reading nothing" + context).c_str(),
                 time_submissions(ring, [&](vkc::Commands cmd) { empty->dispatch(cmd, 0, &none, 1, 1); }), 0);
      // Without a descriptor set or push constants: whether the launch waits for those.
      print_line(("one workgroup, no descriptor set or push constants bound" + context).c_str(),
                 time_submissions(ring, [&](vkc::Commands cmd) { bare.dispatch(cmd); }), 0);
      print_line(("one workgroup reading nothing, five in a row with barriers, each" + context).c_str(),
                 time_submissions(ring, in_a_row(*empty, none, 1), kInARow), 0);
      print_line(("one workgroup reading nothing, five in a row without barriers, each" + context).c_str(),
                 time_submissions(ring, in_a_row(*empty, none, 1, false), kInARow), 0);
    };
    launches("");
    print_line("vkCmdCopyBuffer, device to device",
               time_submissions(ring,
                                [&](vkc::Commands cmd) {
                                  cmd.copyBuffer(src->handle(), dst->handle(), vk::BufferCopy{.size = frame});
                                }),
               2.0 * frame);
    auto spare = vkc::Buffer::create_device(device, frame, "floor spare");
    const uint32_t copy_groups = (count + kGroupSize - 1) / kGroupSize;
    // While the copy queues move other bytes across the bus (as a chain's upload and download of
    // neighbouring frames). The elements' own kernels: --resident (resident.hpp).
    auto busy = [&](std::initializer_list<vkc::QueueRole> roles, const char* what, bool local = false) {
      BusTraffic traffic(device, roles, local);
      const std::string context = std::string(", ") + what + (traffic.running() ? "" : " (no copy queue)");
      print_line(("timestamps alone" + context).c_str(), time_submissions(ring, [](vkc::Commands) {}), 0);
      launches(context);
      auto copy = kernel("floor copy", floor_copy_spv, sizeof(floor_copy_spv), 1);
      copy->update(0, {{src->handle()}, {spare->handle()}});
      print_line(
          ("copy kernel, 16 B per invocation" + context).c_str(),
          time_submissions(ring, [&](vkc::Commands cmd) { copy->dispatch(cmd, 0, &count, copy_groups, 1); }),
          2.0 * frame);
      print_line(("copy kernel, 16 B, five in a row with barriers, each" + context).c_str(),
                 time_submissions(ring, in_a_row(*copy, count, copy_groups), kInARow), 2.0 * frame);
    };
    busy({vkc::QueueRole::kUpload}, "uploads beside");
    busy({vkc::QueueRole::kDownload}, "downloads beside");
    busy({vkc::QueueRole::kUpload, vkc::QueueRole::kDownload}, "uploads and downloads beside");
    busy({vkc::QueueRole::kUpload, vkc::QueueRole::kDownload},
         "device-to-device copies on the copy queues beside", true);
    for (uint32_t vecs : vecs_choices) {
      auto copy = kernel("floor copy", floor_copy_spv, sizeof(floor_copy_spv), vecs);
      copy->update(0, {{src->handle()}, {dst->handle()}});
      const uint32_t groups = (count + kGroupSize * vecs - 1) / (kGroupSize * vecs);
      auto sums = vkc::Buffer::create_device(device, (groups + 2) * 4, "floor sums");
      auto read = kernel("floor read", floor_read_spv, sizeof(floor_read_spv), vecs);
      read->update(0, {{src->handle()}, {sums->handle()}});
      auto read_last = kernel("floor read", floor_read_spv, sizeof(floor_read_spv), vecs, 1);
      read_last->update(0, {{src->handle()}, {sums->handle()}});
      // The counter starts at zero; the last workgroup leaves it so.
      run_once(ring, [&](vkc::Commands cmd) { vkc::clear_buffer(cmd, sums->handle()); });
      char what[96];
      std::snprintf(what, sizeof what, "copy kernel, %u B per invocation", 16 * vecs);
      print_line(
          what, time_submissions(ring, [&](vkc::Commands cmd) { copy->dispatch(cmd, 0, &count, groups, 1); }),
          2.0 * frame);
      std::snprintf(what, sizeof what, "read kernel (sums per workgroup), %u B per invocation", 16 * vecs);
      print_line(
          what, time_submissions(ring, [&](vkc::Commands cmd) { read->dispatch(cmd, 0, &count, groups, 1); }),
          double(frame));
      std::snprintf(what, sizeof what, "read kernel, the last workgroup adds the slots, %u B", 16 * vecs);
      print_line(
          what,
          time_submissions(ring, [&](vkc::Commands cmd) { read_last->dispatch(cmd, 0, &count, groups, 1); }),
          double(frame));
      // lumamax's and histogram's bound on resident frames, which follow each other likewise.
      std::snprintf(what, sizeof what,
                    "read kernel, the last workgroup adds, %u B, five in a row with barriers, each",
                    16 * vecs);
      print_line(what, time_submissions(ring, in_a_row(*read_last, count, groups), kInARow), double(frame));
      std::snprintf(what, sizeof what, "copy kernel, %u B, five in a row with barriers, each", 16 * vecs);
      print_line(what, time_submissions(ring, in_a_row(*copy, count, groups), kInARow), 2.0 * frame);
    }
  }
  return true;
}

}  // namespace bench
