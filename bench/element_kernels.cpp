#include "element_kernels.hpp"

#include <cstring>
#include <functional>
#include <random>
#include <string>

#include "histogram.spv.h"
#include "histogram_layout.h"
#include "lumamax_layout.h"
#include "lumamax_scan_subgroup.spv.h"
#include "lut.spv.h"
#include "lut_layout.h"
#include "random_frames.hpp"
#include "rgb2yuv.spv.h"
#include "rgb2yuv_layout.h"
#include "vk/kernel.hpp"
#include "vk/memory.hpp"

namespace bench {

namespace {

// The kernels' push constants, workgroups and buffer layouts, as the elements have them
// (shaders/*_layout.h).
namespace histogram = vkc::shader::histogram;
namespace lumamax = vkc::shader::lumamax;
namespace lut = vkc::shader::lut;
namespace rgb2yuv = vkc::shader::rgb2yuv;
using HistogramParams = histogram::Params;
using LutParams = lut::Params;
using Rgb2YuvParams = rgb2yuv::Params;
using ScanParams = lumamax::ScanParams;

constexpr uint32_t kCube = 33;  // entries along each axis, as the bench's .cube file

// A 33^3 table of random entries (vec4, as the element uploads it) in device memory.
std::unique_ptr<vkc::Buffer> lab_cube_table(const std::shared_ptr<vkc::Device>& device,
                                            vkc::CommandRing& ring) {
  const vk::DeviceSize bytes = vk::DeviceSize(kCube) * kCube * kCube * 16;
  auto host = vkc::Buffer::create_host(device, bytes, "lab lut table");
  auto table = vkc::Buffer::create_device(device, bytes, "lab lut table");
  std::mt19937 rng(0x1a7);
  std::uniform_real_distribution<float> value(0.0f, 1.0f);
  auto* entries = reinterpret_cast<float*>(host->mapped());
  for (vk::DeviceSize i = 0; i < bytes / 4; ++i) entries[i] = value(rng);
  run_once(ring, [&](vkc::Commands cmd) {
    cmd.copyBuffer(host->handle(), table->handle(), vk::BufferCopy{.size = bytes});
  });
  return table;
}

// lut's kernel on an RGBA frame, with the push constants the element gives it (identity domain).
class LutLab {
 public:
  LutLab(const std::shared_ptr<vkc::Device>& device, uint32_t w, uint32_t h, vk::Buffer src, vk::Buffer dst,
         vk::Buffer table)
      : gx_(((w + lut::kPixelsPerInvocation - 1) / lut::kPixelsPerInvocation + lut::kGroupX - 1) /
            lut::kGroupX),
        gy_((h + lut::kGroupY - 1) / lut::kGroupY),
        kernel_(device, {.name = "lab lut",
                         .spirv = lut_spv,
                         .spirv_bytes = sizeof(lut_spv),
                         .bindings = 3,
                         .push_constant_bytes = sizeof(LutParams),
                         .specialization = {lut::kGroupX, lut::kGroupY, 4}}),
        params_{{0, 0, 0, 0},
                {kCube - 1.0f, kCube - 1.0f, kCube - 1.0f, 0},
                w,
                h,
                0,
                4 * w,
                0,
                4 * w,
                0x020100,
                lut::kModeTetrahedral,
                kCube,
                1.0f} {
    kernel_.update(0, {{src}, {dst}, {table}});
  }
  void record(vkc::Commands cmd) const { kernel_.dispatch(cmd, 0, &params_, gx_, gy_); }
  LutParams& params() { return params_; }

 private:
  uint32_t gx_, gy_;
  vkc::Kernel kernel_;
  LutParams params_;
};

// histogram's kernel on an RGBA frame, counting R, G, B, A and luma as the element does.
class HistogramLab {
 public:
  HistogramLab(const std::shared_ptr<vkc::Device>& device, vkc::CommandRing& ring, uint32_t w, uint32_t h,
               vk::Buffer src)
      : gx_((w / histogram::kPixelsPerInvocation + histogram::kGroupX - 1) / histogram::kGroupX),
        gy_((h + histogram::kBlockHeight - 1) / histogram::kBlockHeight),
        counts_(vkc::Buffer::create_device(device, (kCounts + 1) * 4, "lab histogram counts")),
        result_(vkc::Buffer::create_host(device, kCounts * 4, "lab histogram result")),
        kernel_(device, {.name = "lab histogram",
                         .spirv = histogram_spv,
                         .spirv_bytes = sizeof(histogram_spv),
                         .bindings = 4,
                         .push_constant_bytes = sizeof(HistogramParams),
                         .specialization = {4, 1}}),
        params_{.offset = 0,
                .stride = 4 * w,
                .x0 = 0,
                .y0 = 0,
                .x1 = w,
                .y1 = h,
                .channels = 4,
                .order = 0x03020100,
                .slots = 0x03020100,
                .luma_slot = 4,
                .kr = 19595,
                .kg = 38470,
                .kb = 7471,
                .bins = histogram::kNarrowBins,
                .groups = gx_ * gy_,
                .depths = 0x08080808,
                .histogram_words = histogram::kNarrowBins} {
    kernel_.update(0, {{src}, {counts_->handle()}, {src}, {result_->handle()}});
    run_once(ring, [&](vkc::Commands cmd) { vkc::clear_buffer(cmd, counts_->handle()); });
  }
  void record(vkc::Commands cmd) const { kernel_.dispatch(cmd, 0, &params_, gx_, gy_); }
  HistogramParams& params() { return params_; }

 private:
  static constexpr uint32_t kCounts = histogram::kChannels * histogram::kNarrowBins;  // the histograms
  uint32_t gx_, gy_;
  std::unique_ptr<vkc::Buffer> counts_, result_;
  vkc::Kernel kernel_;
  HistogramParams params_;
};

}  // namespace

void print_content_lab(const std::shared_ptr<vkc::Device>& device, vkc::CommandRing& ring, uint32_t w,
                       uint32_t h) {
  const vk::DeviceSize bytes = vk::DeviceSize(w) * h * 4;
  auto host = vkc::Buffer::create_host(device, bytes, "lab frame");
  auto frame = vkc::Buffer::create_device(device, bytes, "lab frame");
  auto out = vkc::Buffer::create_device(device, bytes, "lab output");
  auto table = lab_cube_table(device, ring);
  LutLab lut(device, w, h, frame->handle(), out->handle(), table->handle());
  HistogramLab histogram(device, ring, w, h, frame->handle());
  uint8_t* pixels = host->mapped();
  const struct {
    const char* name;
    std::function<void()> fill;
  } contents[] = {{"random", [&] { fill_random_frame(pixels, size_t(bytes), 0); }},
                  {"random colours, alpha 255",
                   [&] {
                     fill_random_frame(pixels, size_t(bytes), 0);
                     for (vk::DeviceSize i = 3; i < bytes; i += 4) pixels[i] = 255;
                   }},
                  {"smooth", [&] { fill_smooth_frame(pixels, int(w), int(h), 4, size_t(w) * 4, 0); }},
                  {"one colour", [&] {
                     for (vk::DeviceSize i = 0; i < bytes; i += 4)
                       std::memcpy(pixels + i, "\x20\x60\xa0\xff", 4);
                   }}};
  auto time = [&](const std::string& what, const auto& lab, double moved) {
    print_line(what.c_str(), time_submissions(ring, [&](vkc::Commands cmd) { lab.record(cmd); }), moved);
  };
  for (const auto& content : contents) {
    content.fill();
    run_once(ring, [&](vkc::Commands cmd) {
      cmd.copyBuffer(host->handle(), frame->handle(), vk::BufferCopy{.size = bytes});
    });
    const std::string frame_kind = std::string(", ") + content.name + " frame";
    // Where histogram's time goes: the values it counts per pixel (R, G, B, A and luma; fewer),
    // and the fixed cost of its workgroups (clearing, adding into the frame's counts, the last
    // workgroup's move into the result) with a region of no pixels.
    HistogramParams& hp = histogram.params();
    const HistogramParams whole = hp;
    time("histogram" + frame_kind, histogram, double(bytes));
    hp.luma_slot = histogram::kNoLuma;
    time("histogram, R G B A without luma" + frame_kind, histogram, double(bytes));
    hp.channels = 1;
    time("histogram, R alone" + frame_kind, histogram, double(bytes));
    hp = whole;
    if (&content == &contents[0]) {
      hp.y1 = 0;
      time("histogram, the same workgroups counting no pixel", histogram, 0);
      hp = whole;
    }
    // lut: four table entries per pixel (tetrahedral), one (nearest), eight (trilinear).
    for (auto [mode, name] :
         {std::pair{lut::kModeTetrahedral, "tetrahedral"}, std::pair{lut::kMode3DNearest, "nearest"},
          std::pair{lut::kModeTrilinear, "trilinear"}}) {
      lut.params().mode = mode;
      time(std::string("lut 33^3 ") + name + frame_kind, lut, 2.0 * double(bytes));
    }
  }
}

void print_element_kernels(const std::shared_ptr<vkc::Device>& device, vkc::CommandRing& ring, uint32_t w,
                           uint32_t h, vk::Buffer src, vk::Buffer dst, const Recorder& before,
                           const char* context) {
  auto line = [&](const std::string& what, const Recorder& record, double bytes) {
    print_line((what + context).c_str(), time_submissions(ring, record, 1, before), bytes);
  };
  const uint32_t kr = 19595, kg = 38470, kb = 7471;  // BT.601 x 65536
  {
    const uint32_t tiles_x = (w + lumamax::kTileWidth - 1) / lumamax::kTileWidth,
                   tiles = tiles_x * ((h + lumamax::kTileHeight - 1) / lumamax::kTileHeight);
    auto scratch = vkc::Buffer::create_device(device, (lumamax::kTiles + lumamax::kWordsPerTile * tiles) * 4,
                                              "lab lumamax scratch");
    auto result = vkc::Buffer::create_host(device, lumamax::kTiles * 4, "lab lumamax result");
    vkc::Kernel scan(device, {.name = "lab lumamax scan",
                              .spirv = lumamax_scan_subgroup_spv,
                              .spirv_bytes = sizeof(lumamax_scan_subgroup_spv),
                              .bindings = 4,
                              .push_constant_bytes = sizeof(ScanParams),
                              .specialization = {lumamax::kScanGroupX, lumamax::kScanGroupY, 4, 0}});
    scan.update(0, {{src}, {scratch->handle()}, {src}, {result->handle()}});
    run_once(ring, [&](vkc::Commands cmd) { vkc::clear_buffer(cmd, scratch->handle()); });
    for (uint32_t finish : {1u, 0u}) {
      ScanParams p{w, h, 0, 4 * w, 0, 0, w, h, tiles_x, tiles, 0x020100, kr, kg, kb, 0, 1, 0, finish, 0};
      line(
          finish ? "lumamax scan" : "lumamax scan, tiles only (no last workgroup)",
          [&](vkc::Commands cmd) { scan.dispatch(cmd, 0, &p, tiles_x, tiles / tiles_x); }, double(w) * h * 4);
    }
  }
  {
    HistogramLab histogram(device, ring, w, h, src);
    line(
        "histogram", [&](vkc::Commands cmd) { histogram.record(cmd); }, double(w) * h * 4);
  }
  {
    vkc::Kernel convert(
        device, {.name = "lab rgb2yuv",
                 .spirv = rgb2yuv_spv,
                 .spirv_bytes = sizeof(rgb2yuv_spv),
                 .bindings = 5,
                 .push_constant_bytes = sizeof(Rgb2YuvParams),
                 .specialization = {rgb2yuv::kGroupX, rgb2yuv::kGroupY, 4, rgb2yuv::kLayoutSemiPlanar, 2, 2,
                                    0, rgb2yuv::kBlockWidth}});
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
        [&](vkc::Commands cmd) {
          convert.dispatch(cmd, 0, &p, (w / rgb2yuv::kBlockWidth + rgb2yuv::kGroupX - 1) / rgb2yuv::kGroupX,
                           (h / 2 + rgb2yuv::kGroupY - 1) / rgb2yuv::kGroupY);
        },
        double(w) * h * 5.5);
  }
}

}  // namespace bench
