#include "kernel_floor.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>

#include "floor_copy.spv.h"
#include "floor_read.spv.h"
#include "histogram.spv.h"
#include "lumamax_scan_subgroup.spv.h"
#include "rgb2yuv.spv.h"
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

using Recorder = std::function<void(vk::CommandBuffer)>;

// Copies host memory to device memory and back on the device's upload and download queues for
// as long as it lives (a few hundred milliseconds at most), as a chain's neighbouring frames cross
// the bus while the compute queue runs its kernels. Nothing when the device has no copy queue.
class BusTraffic {
 public:
  // `local`: copies inside device memory instead, on the same queues (no bus).
  BusTraffic(const std::shared_ptr<vkc::Device>& device, std::initializer_list<vkc::QueueRole> roles,
             bool local = false)
      : device_(device) {
    if (device->queue_family(vkc::QueueRole::kUpload) == device->queue_family(vkc::QueueRole::kCompute))
      return;
    constexpr vk::DeviceSize kBytes = 64ull << 20;
    host_ = vkc::Buffer::create_host(device, kBytes, "floor traffic host");
    local_ = vkc::Buffer::create_device(device, kBytes, "floor traffic device");
    for (auto role : roles) {
      Queue& q = queues_.emplace_back();
      q.pool = vk::raii::CommandPool(
          device->device(), vk::CommandPoolCreateInfo{.queueFamilyIndex = device->queue_family(role)});
      q.cmd = std::move(
          vk::raii::CommandBuffers(
              device->device(),
              vk::CommandBufferAllocateInfo{
                  .commandPool = *q.pool, .level = vk::CommandBufferLevel::ePrimary, .commandBufferCount = 1})
              .front());
      q.fence = vk::raii::Fence(device->device(), vk::FenceCreateInfo{});
      q.cmd.begin(vk::CommandBufferBeginInfo{});
      const bool up = role == vkc::QueueRole::kUpload;
      // Quarters of the buffers: each queue its own, so they never touch the same bytes.
      constexpr vk::DeviceSize kQuarter = kBytes / 4;
      const vk::Buffer from = up && !local ? host_->handle() : local_->handle();
      const vk::Buffer to = up || local ? local_->handle() : host_->handle();
      const vk::BufferCopy quarter{.srcOffset = (local ? (up ? 2 : 3) : (up ? 0 : 1)) * kQuarter,
                                   .dstOffset = (up ? 0 : 1) * kQuarter,
                                   .size = kQuarter};
      // 4 GB across the bus each way, 128 GB inside the device: longer than the measurements.
      for (int i = 0; i < (local ? 8192 : 256); ++i) q.cmd.copyBuffer(from, to, quarter);
      q.cmd.end();
      vk::CommandBuffer cmd = *q.cmd;
      device->submit(vk::SubmitInfo{.commandBufferCount = 1, .pCommandBuffers = &cmd}, *q.fence, role);
    }
  }
  ~BusTraffic() {
    for (Queue& q : queues_) (void)device_->device().waitForFences(*q.fence, VK_TRUE, UINT64_MAX);
  }
  bool running() const { return !queues_.empty(); }

 private:
  struct Queue {
    vk::raii::CommandPool pool = nullptr;
    vk::raii::CommandBuffer cmd = nullptr;
    vk::raii::Fence fence = nullptr;
  };
  std::shared_ptr<vkc::Device> device_;
  std::unique_ptr<vkc::Buffer> host_, local_;
  std::vector<Queue> queues_;
};

// Records the work with `record` into a submission of its own, `kRepeats` times, each timed from
// its first command to the end of its last: the median and the least. `before`, when given, is
// recorded ahead of it, untimed, with a barrier between them (as an element follows another in a
// chain's submission).
Times time_submissions(vkc::CommandRing& ring, const Recorder& record, int per_submission = 1,
                       const Recorder& before = nullptr) {
  std::vector<double> us;
  for (int i = 0; i < kRepeats; ++i) {
    vk::CommandBuffer cmd = ring.begin(0);
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

void print_line(const char* what, const Times& t, double bytes) {
  if (bytes > 0)
    std::printf("  %-70s %8.1f µs (least %6.1f)  %6.0f GB/s\n", what, t.median_us, t.min_us,
                t.median_us > 0 ? bytes / (t.median_us * 1000.0) : 0.0);
  else
    std::printf("  %-70s %8.1f µs (least %6.1f)\n", what, t.median_us, t.min_us);
}

// The push constants of three of the elements' kernels, as their elements fill them for a whole
// RGBA frame (gst/elements/lumamax.cpp, histogram.cpp, rgb2yuv.cpp).
struct ScanParams {
  uint32_t width, height, offset, stride, roi_x0, roi_y0, roi_x1, roi_y1, tiles_x, tiles;
  uint32_t order, kr, kg, kb, peak, min_dist2, reach, finish, peak_floor;
};
struct HistogramParams {
  uint32_t offset, stride, x0, y0, x1, y1, channels, order, slots, luma_slot, kr, kg, kb, bins, groups;
};
struct Rgb2YuvParams {
  uint32_t width, height, src_offset, src_stride, dst_offset[3], dst_stride[3], src_order, dst_order;
  float coef_y[4], coef_u[4], coef_v[4];
};

// The elements' own kernels on the same frame alone, for comparison with their time inside a chain.
void print_element_kernels(const std::shared_ptr<vkc::Device>& device, vkc::CommandRing& ring, uint32_t w,
                           uint32_t h, vk::Buffer src, vk::Buffer dst, const Recorder& before,
                           const char* context) {
  auto line = [&](const std::string& what, const Recorder& record, double bytes) {
    print_line((what + context).c_str(), time_submissions(ring, record, 1, before), bytes);
  };
  const uint32_t kr = 19595, kg = 38470, kb = 7471;  // BT.601 x 65536
  {
    const uint32_t tiles_x = (w + 255) / 256, tiles = tiles_x * ((h + 3) / 4);
    auto scratch = vkc::Buffer::create_device(device, (256 + 5 * tiles) * 4, "lab lumamax scratch");
    auto result = vkc::Buffer::create_host(device, 256 * 4, "lab lumamax result");
    vkc::Kernel scan(device, {.name = "lab lumamax scan",
                              .spirv = lumamax_scan_subgroup_spv,
                              .spirv_bytes = sizeof(lumamax_scan_subgroup_spv),
                              .bindings = 4,
                              .push_constant_bytes = sizeof(ScanParams),
                              .specialization = {64, 4, 4, 0}});
    scan.update(0, {{src}, {scratch->handle()}, {src}, {result->handle()}});
    time_submissions(ring, [&](vk::CommandBuffer cmd) { vkc::clear_buffer(cmd, scratch->handle()); });
    for (uint32_t finish : {1u, 0u}) {
      ScanParams p{w, h, 0, 4 * w, 0, 0, w, h, tiles_x, tiles, 0x020100, kr, kg, kb, 0, 1, 0, finish, 0};
      line(
          finish ? "lumamax scan" : "lumamax scan, tiles only (no last workgroup)",
          [&](vk::CommandBuffer cmd) { scan.dispatch(cmd, 0, &p, tiles_x, tiles / tiles_x); },
          double(w) * h * 4);
    }
  }
  {
    const uint32_t gx = (w / 4 + 63) / 64, gy = (h + 15) / 16;
    auto counts = vkc::Buffer::create_device(device, (5 * 256 + 1) * 4, "lab histogram counts");
    auto result = vkc::Buffer::create_host(device, 5 * 256 * 4, "lab histogram result");
    vkc::Kernel histogram(device, {.name = "lab histogram",
                                   .spirv = histogram_spv,
                                   .spirv_bytes = sizeof(histogram_spv),
                                   .bindings = 4,
                                   .push_constant_bytes = sizeof(HistogramParams),
                                   .specialization = {4}});
    histogram.update(0, {{src}, {counts->handle()}, {src}, {result->handle()}});
    time_submissions(ring, [&](vk::CommandBuffer cmd) { vkc::clear_buffer(cmd, counts->handle()); });
    HistogramParams p{0, 4 * w, 0, 0, w, h, 4, 0x03020100, 0x03020100, 4, kr, kg, kb, 256, gx * gy};
    line(
        "histogram", [&](vk::CommandBuffer cmd) { histogram.dispatch(cmd, 0, &p, gx, gy); },
        double(w) * h * 4);
  }
  {
    vkc::Kernel convert(device, {.name = "lab rgb2yuv",
                                 .spirv = rgb2yuv_spv,
                                 .spirv_bytes = sizeof(rgb2yuv_spv),
                                 .bindings = 5,
                                 .push_constant_bytes = sizeof(Rgb2YuvParams),
                                 .specialization = {16, 4, 4, 1, 2, 2, 0, 8}});
    convert.update(0, {{src}, {dst}, {src}, {dst}, {dst}});
    Rgb2YuvParams p{w,
                    h,
                    0,
                    4 * w,
                    {0, w * h, 0},
                    {w, w, 0},
                    0xff020100,
                    0,
                    {0.257f, 0.504f, 0.098f, 16},
                    {-0.148f, -0.291f, 0.439f, 128},
                    {0.439f, -0.368f, -0.071f, 128}};
    line(
        "rgb2yuv RGBA to NV12",
        [&](vk::CommandBuffer cmd) { convert.dispatch(cmd, 0, &p, (w / 8 + 15) / 16, (h / 2 + 3) / 4); },
        double(w) * h * 5.5);
  }
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
    {  // random bytes, as the bench's frames (the histogram's shared counters see no more conflicts)
      auto host = vkc::Buffer::create_host(device, frame, "floor frame");
      std::mt19937 random(1);
      for (vk::DeviceSize i = 0; i + 4 <= frame; i += 4) {
        const uint32_t word = random();
        std::memcpy(host->mapped() + i, &word, 4);
      }
      time_submissions(ring, [&](vk::CommandBuffer cmd) {
        cmd.copyBuffer(host->handle(), src->handle(), vk::BufferCopy{.size = frame});
      });
    }

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
    // The elements' kernels alone; after another kernel that writes their input, with a barrier
    // between (as in a chain's submission); and while the copy queues move other bytes across the
    // bus (as a chain's upload and download of neighbouring frames).
    auto spare = vkc::Buffer::create_device(device, frame, "floor spare");
    auto refill = kernel("floor copy", floor_copy_spv, sizeof(floor_copy_spv), 1);
    refill->update(0, {{dst->handle()}, {src->handle()}});
    const uint32_t refill_groups = (count + kGroup - 1) / kGroup;
    time_submissions(ring, [&](vk::CommandBuffer cmd) {  // dst: a copy of the frame, refill's source
      cmd.copyBuffer(src->handle(), dst->handle(), vk::BufferCopy{.size = frame});
    });
    print_element_kernels(device, ring, w, h, src->handle(), spare->handle(), nullptr, ", alone");
    print_element_kernels(
        device, ring, w, h, src->handle(), spare->handle(),
        [&](vk::CommandBuffer cmd) { refill->dispatch(cmd, 0, &count, refill_groups, 1); },
        ", after a kernel writing its input");
    auto busy = [&](std::initializer_list<vkc::QueueRole> roles, const char* what, bool local = false) {
      BusTraffic traffic(device, roles, local);
      const std::string context = std::string(", ") + what + (traffic.running() ? "" : " (no copy queue)");
      print_line(("timestamps alone" + context).c_str(), time_submissions(ring, [](vk::CommandBuffer) {}), 0);
      print_line(("one workgroup doing nothing" + context).c_str(),
                 time_submissions(ring, [&](vk::CommandBuffer cmd) { copy1->dispatch(cmd, 0, &none, 1, 1); }),
                 0);
      auto copy = kernel("floor copy", floor_copy_spv, sizeof(floor_copy_spv), 1);
      copy->update(0, {{src->handle()}, {spare->handle()}});
      print_line(("copy kernel, 16 B per invocation" + context).c_str(),
                 time_submissions(
                     ring, [&](vk::CommandBuffer cmd) { copy->dispatch(cmd, 0, &count, refill_groups, 1); }),
                 2.0 * frame);
      print_line(("copy kernel, 16 B, five in a row with barriers, each" + context).c_str(),
                 time_submissions(
                     ring,
                     [&](vk::CommandBuffer cmd) {
                       for (int k = 0; k < 5; ++k) {
                         if (k > 0) vkc::compute_barrier(cmd);
                         copy->dispatch(cmd, 0, &count, refill_groups, 1);
                       }
                     },
                     5),
                 2.0 * frame);
      print_element_kernels(device, ring, w, h, src->handle(), spare->handle(), nullptr, context.c_str());
    };
    busy({vkc::QueueRole::kUpload}, "uploads beside");
    busy({vkc::QueueRole::kDownload}, "downloads beside");
    busy({vkc::QueueRole::kUpload, vkc::QueueRole::kDownload}, "uploads and downloads beside");
    busy({vkc::QueueRole::kUpload, vkc::QueueRole::kDownload},
         "device-to-device copies on the copy queues beside", true);
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
