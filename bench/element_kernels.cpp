#include "element_kernels.hpp"

#include <string>

#include "histogram.spv.h"
#include "lumamax_scan_subgroup.spv.h"
#include "rgb2yuv.spv.h"
#include "vk/kernel.hpp"
#include "vk/memory.hpp"

namespace bench {

namespace {

// The push constants of the kernels, as in gst/elements/lumamax.cpp, histogram.cpp and
// rgb2yuv.cpp (whose static_asserts pin the same sizes to the shaders).
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
static_assert(sizeof(ScanParams) == 19 * 4, "shaders/lumamax_scan.comp's push constants");
static_assert(sizeof(HistogramParams) == 15 * 4, "shaders/histogram.comp's push constants");
static_assert(sizeof(Rgb2YuvParams) == 96, "shaders/rgb2yuv.comp's push constants");

}  // namespace

void print_element_kernels(const std::shared_ptr<vkc::Device>& device, vkc::CommandRing& ring, uint32_t w,
                           uint32_t h, vk::Buffer src, vk::Buffer dst, const Recorder& before,
                           const char* context) {
  auto line = [&](const std::string& what, const Recorder& record, double bytes) {
    print_line((what + context).c_str(), time_submissions(ring, record, 1, before), bytes);
  };
  const uint32_t kr = 19595, kg = 38470, kb = 7471;  // BT.601 x 65536
  {
    // 256x4 tiles and 64x4 invocations, as shaders/include/lumamax.glsl and the element have them.
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

}  // namespace bench
