#include "morph_passes.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "base/framebarriers.hpp"
#include "morph_layout.h"
#include "morph_line.spv.h"
#include "morph_pack.spv.h"
#include "morph_rect.spv.h"
#include "morph_rect_half.spv.h"
#include "morph_row_table.spv.h"
#include "morph_rows.spv.h"
#include "morph_unpack.spv.h"

namespace vkc::morph {
namespace {

// The kernels' workgroups, tiles and push constants (shaders/morph_layout.h).
using vkc::shader::morph::kCombineKeep;
using vkc::shader::morph::kCombineMorph;
using vkc::shader::morph::kCombineNone;
using vkc::shader::morph::kGroupX;
using vkc::shader::morph::kGroupY;
using vkc::shader::morph::kMaxHalf;
using vkc::shader::morph::kMaxMaskSize;
using vkc::shader::morph::kPackFirstWord;
using vkc::shader::morph::kPackSecondWord;
using vkc::shader::morph::kPackWhole;
using vkc::shader::morph::kPixelsPerInvocation;
using vkc::shader::morph::kRectGroup;
using vkc::shader::morph::kRectMaxHalf;
using vkc::shader::morph::kRowsTileHeight;
using vkc::shader::morph::kRowsTileWidth;
using vkc::shader::morph::kRowTableLevels;
using vkc::shader::morph::LineParams;
using vkc::shader::morph::PackParams;
using vkc::shader::morph::RectParams;
using vkc::shader::morph::RowsParams;
using vkc::shader::morph::RowTableParams;
using vkc::shader::morph::UnpackParams;

constexpr uint32_t kLineGroup = 64;  // lines per workgroup of a line pass
// Invocations per row of a row-table pass. H200, 16 frames in device memory (run 230): dilate 9x9
// at 4K 86.6 us a frame with 256, 83.8 with 512, 84.2 with 1024 (31x31: 97.7, 94.3, 94.9); at 1080p
// 26.8, 26.6, 28.9; 64 and 128 were slower still (run 229: 32.9 and 28.1 at 1080p).
constexpr uint32_t kRowTableGroup = 512;
// The row-table pass pads a row with up to this many samples each side: single masks up to
// kMaxMaskSize wide. Wider windows (iterations of wide masks) take the line pass.
constexpr uint32_t kRowTableMaxRadius = kMaxHalf;
// Descriptor sets 0..kFrameSets-1 of a kernel are bound anew for each frame: kVkComputeFramesInFlight
// per binding of the frame's own buffers in one frame (a kernel reads the input plane in place at
// most four times: gradient's two mask passes, each a row and a column pass of a cross; a pass
// into the output frame is one more only where the input is read at most once before it).
constexpr uint32_t kFrameBindings = 4;
constexpr uint32_t kFrameSets = kFrameBindings * kVkComputeFramesInFlight;

uint32_t groups(uint32_t n, uint32_t per_group) {
  return (n + per_group - 1) / per_group;
}

// morph_rect.comp's workgroup and tile for a rectangle: the padded tile 128 columns wide up to half
// widths of 7 (a border of at most 14 of 128 columns, filtered along columns for nothing), 256
// beyond; strips of 8 output rows up to half heights of 4, 16 beyond (the samples a column reads: at
// most 3x its outputs). H200, 16 frames in device memory (runs 238-241): 128 and 256 columns rather
// than 64 and 128 took dilate 9x9 at 1080p from 10.4 to 10.2 us a frame, 31x31 16.3 -> 15.8 (4K
// 59.1 -> 54.3); strips of 16 rows at 9x9 made 15.2 17.9, of 4 (and 8 at 31x31) 33.7.
struct RectShape {
  uint32_t padded_w, strips, strip, segment, samples;  // specialization constants 0, 1, 6, 7, 8
  uint32_t tile_w, tile_h;
};

RectShape rect_shape(uint32_t half_w, uint32_t half_h) {
  RectShape shape;
  shape.padded_w = half_w <= 7 ? 128 : 256;
  shape.strips = kRectGroup / shape.padded_w;
  shape.strip = half_h <= 4 ? 8 : 16;
  shape.tile_w = shape.padded_w - 2 * half_w;
  shape.tile_h = shape.strips * shape.strip;
  shape.segment = groups(shape.tile_w, kRectGroup / shape.tile_h);
  shape.samples = std::max(shape.strip + 2 * half_h, shape.segment + 2 * half_w);
  return shape;
}

}  // namespace

std::vector<uint32_t> mask_runs(Shape shape, guint width, guint height) {
  const int c = int(width / 2), r = int(height / 2);
  std::vector<uint32_t> runs(height);
  for (int i = 0; i < int(height); ++i) {
    int half = c;
    if (shape == kCross) {
      half = i == r ? c : 0;
    } else if (shape == kEllipse) {
      // As cv::getStructuringElement: dx = saturate_cast<int>(c * sqrt((r^2 - dy^2) / r^2)),
      // a one-row ellipse being its centre pixel alone (1/r^2 taken as 0), rounded half to even.
      const double inv_r2 = r ? 1.0 / (double(r) * r) : 0;
      const int dy = i - r;
      half = int(std::nearbyint(c * std::sqrt((r * r - dy * dy) * inv_r2)));
    }
    runs[i] = uint32_t(half);
  }
  return runs;
}

Passes::Passes(const std::shared_ptr<Device>& device, const PlaneFormat& format)
    : device_(device), format_(format) {
  const uint32_t one_lane = format.one_lane ? 1 : 0;
  unpack_ = std::make_unique<Kernel>(device, KernelInfo{.name = "morph unpack",
                                                        .spirv = morph_unpack_spv,
                                                        .spirv_bytes = sizeof(morph_unpack_spv),
                                                        .bindings = 2,
                                                        .push_constant_bytes = sizeof(UnpackParams),
                                                        .specialization = {kGroupX, kGroupY, format.bpp}});
  line_ = std::make_unique<Kernel>(device,
                                   KernelInfo{.name = "morph line",
                                              .spirv = morph_line_spv,
                                              .spirv_bytes = sizeof(morph_line_spv),
                                              .bindings = 3,
                                              .push_constant_bytes = sizeof(LineParams),
                                              .specialization = {kLineGroup, 1, one_lane, format.lane_bits}});
  // Row passes build a sparse table in shared memory where two padded rows fit (see
  // morph_row_table.comp).
  const vk::PhysicalDeviceLimits& limits = device->properties().limits;
  const uint32_t table_words = format.width + 2 * kRowTableMaxRadius;
  // Vulkan guarantees workgroups of 128 invocations only (desktop GPUs take 1024).
  const uint32_t row_table_group =
      std::min({kRowTableGroup, limits.maxComputeWorkGroupSize[0], limits.maxComputeWorkGroupInvocations});
  if (kRowTableLevels * table_words * sizeof(uint32_t) <= limits.maxComputeSharedMemorySize)
    row_table_ = std::make_unique<Kernel>(
        device, KernelInfo{.name = "morph row table",
                           .spirv = morph_row_table_spv,
                           .spirv_bytes = sizeof(morph_row_table_spv),
                           .bindings = 2,
                           .push_constant_bytes = sizeof(RowTableParams),
                           .specialization = {row_table_group, one_lane, table_words, format.lane_bits}});
  rows_ = std::make_unique<Kernel>(device, KernelInfo{.name = "morph rows",
                                                      .spirv = morph_rows_spv,
                                                      .spirv_bytes = sizeof(morph_rows_spv),
                                                      .bindings = 3,
                                                      .push_constant_bytes = sizeof(RowsParams),
                                                      .specialization = {one_lane, format.lane_bits}});
  pack_ = std::make_unique<Kernel>(
      device, KernelInfo{.name = "morph pack",
                         .spirv = morph_pack_spv,
                         .spirv_bytes = sizeof(morph_pack_spv),
                         .bindings = 6,  // source, a, b, output, first words, output as pairs
                         .push_constant_bytes = sizeof(PackParams),
                         .specialization = {kGroupX, kGroupY, format.bpp, format.lane_bits}});
  const vk::DeviceSize bytes = vk::DeviceSize(format.width) * format.height * sizeof(uint32_t);
  images_ = SharedScratch::get(device, "morph working image", bytes, kImages);
  if (format.bpp == 8) low_ = SharedScratch::get(device, "morph first words", bytes, 1);
  for (Slot& slot : slots_)
    slot.runs = Buffer::create_host(device, kMaxMaskSize * sizeof(uint32_t), "morph mask runs");
}

vk::Buffer Passes::image(int index) const {
  const Slot& slot = slots_[slot_];
  if (index == kSource && source_in_frame_) return input_;
  if (index == kOutput) return output_;
  return index == kRuns ? slot.runs->handle() : (*images_)[index];
}

Passes::View Passes::view(Image index) const {
  if (index == kSource && source_in_frame_) return source_view_;
  if (index == kOutput) return output_view_;
  return {0, format_.width};
}

uint32_t Passes::image_set(const Kernel& kernel, int a, int b, int c) {
  auto bind = [&](uint32_t set) {
    if (c == kNone)
      kernel.update(set, {{image(a)}, {image(b)}});
    else
      kernel.update(set, {{image(a)}, {image(b)}, {image(c)}});
    return set;
  };
  const bool source = source_in_frame_ && (a == kSource || b == kSource || c == kSource);
  if (source || a == kOutput || b == kOutput || c == kOutput) {
    // The frame's buffers: a set of this slot's, not in use since the slot's previous frame.
    uint32_t& uses = frame_set_uses_[&kernel];
    g_assert(uses < kFrameBindings);
    return bind(uses++ * kVkComputeFramesInFlight + slot_);
  }
  auto [it, added] = sets_.try_emplace({&kernel, slot_, a, b, c}, 0);
  if (added) it->second = bind(kFrameSets + set_count_[&kernel]++);
  return it->second;
}

void Passes::line_pass(bool dilate, bool along_x, uint32_t radius, Image src, Image dst, Image combine_with) {
  const uint32_t samples = along_x ? format_.width : format_.height;
  const uint32_t count = along_x ? format_.height : format_.width;
  // Into the output frame, the lanes it keeps (alpha, padding) come from the input.
  const bool keep = dst == kOutput && format_.keep != 0;
  if (keep) {
    g_assert(combine_with == kNone);  // a cross's column pass never writes the output frame
    combine_with = kSource;
  }
  const View from = view(src), to = view(dst), other = combine_with == kNone ? to : view(combine_with);
  LineParams params{.samples = samples,
                    .count = count,
                    .step = along_x ? 1 : to.stride,
                    .line_step = along_x ? to.stride : 1,
                    .src_origin = from.origin,
                    .src_step = along_x ? 1 : from.stride,
                    .src_line_step = along_x ? from.stride : 1,
                    .radius = std::min(radius, samples - 1),
                    .dilate = dilate,
                    .combine = keep                    ? kCombineKeep
                               : combine_with != kNone ? kCombineMorph
                                                       : kCombineNone,
                    .blocks_x = along_x,
                    .dst_origin = to.origin,
                    .other_origin = other.origin,
                    .other_step = along_x ? 1 : other.stride,
                    .other_line_step = along_x ? other.stride : 1,
                    .keep = format_.keep};
  // The row table writes working images only and does not combine with another image (crosses
  // combine in columns).
  if (along_x && row_table_ && combine_with == kNone && dst != kOutput &&
      params.radius <= kRowTableMaxRadius) {
    RowTableParams table{.width = samples,
                         .line_step = format_.width,
                         .src_origin = from.origin,
                         .src_line_step = from.stride,
                         .radius = params.radius,
                         .dilate = dilate};
    row_table_->dispatch(cmd_, image_set(*row_table_, src, dst, kNone), &table, count, 1);
    after_pass(dst);
    return;
  }
  const uint32_t set = image_set(*line_, src, dst, combine_with == kNone ? dst : combine_with);
  const uint32_t blocks = groups(samples, 2 * params.radius + 1);
  if (along_x)
    line_->dispatch(cmd_, set, &params, groups(blocks, kLineGroup), count);
  else
    line_->dispatch(cmd_, set, &params, groups(count, kLineGroup), blocks);
  after_pass(dst);
}

const Kernel* Passes::rect_kernel(bool dilate, uint32_t half_w, uint32_t half_h) {
  if (half_w > kRectMaxHalf || half_h > kRectMaxHalf) return nullptr;
  const RectShape shape = rect_shape(half_w, half_h);
  // Vulkan guarantees workgroups of 128 invocations and 16 KB of shared memory only.
  const vk::PhysicalDeviceLimits& limits = device_->properties().limits;
  if (kRectGroup > limits.maxComputeWorkGroupInvocations ||
      shape.padded_w > limits.maxComputeWorkGroupSize[0] ||
      shape.strips > limits.maxComputeWorkGroupSize[1] ||
      shape.tile_h * (shape.padded_w + 1) * sizeof(uint32_t) > limits.maxComputeSharedMemorySize)
    return nullptr;
  std::unique_ptr<Kernel>& kernel = rects_[{dilate, half_w, half_h}];
  if (kernel) return kernel.get();
  // Four 8-bit lanes as 16-bit floats where a GPU computes on them (see morph_rect.comp). Not on a
  // CPU implementation: no faster there, and lavapipe took 3x as long to compile the kernel (its first
  // 64x48 RGBA frame of a 31x31 rectangle, shader cache empty: 6.8 s against 2.2); the GPU checks
  // (bench/gpu-checks.sh) run morph's suites on them.
  const bool half =
      device_->features().float16 && !device_->is_cpu() && !format_.one_lane && format_.lane_bits == 8;
  kernel = std::make_unique<Kernel>(
      device_, KernelInfo{.name = "morph rect",
                          .spirv = half ? morph_rect_half_spv : morph_rect_spv,
                          .spirv_bytes = half ? sizeof(morph_rect_half_spv) : sizeof(morph_rect_spv),
                          .bindings = 3,
                          .push_constant_bytes = sizeof(RectParams),
                          .specialization = {shape.padded_w, shape.strips, format_.one_lane ? 1u : 0u,
                                             format_.lane_bits, half_w, half_h, shape.strip, shape.segment,
                                             shape.samples, dilate}});
  return kernel.get();
}

void Passes::rect_pass(bool dilate, uint32_t half_w, uint32_t half_h, Image src, Image dst) {
  const Kernel& kernel = *rect_kernel(dilate, half_w, half_h);
  // Into the output frame, the lanes it keeps (alpha, padding) come from the input.
  const bool keep = dst == kOutput && format_.keep != 0;
  const View from = view(src), to = view(dst), other = keep ? view(kSource) : to;
  RectParams params{.width = format_.width,
                    .height = format_.height,
                    .src_origin = from.origin,
                    .src_stride = from.stride,
                    .dst_origin = to.origin,
                    .dst_stride = to.stride,
                    .other_origin = other.origin,
                    .other_stride = other.stride,
                    .keep = keep ? format_.keep : 0};
  const RectShape shape = rect_shape(half_w, half_h);
  kernel.dispatch(cmd_, image_set(kernel, src, dst, keep ? kSource : dst), &params,
                  groups(format_.width, shape.tile_w), groups(format_.height, shape.tile_h));
  after_pass(dst);
}

void Passes::rows_pass(bool dilate, Image src, Image dst) {
  RowsParams params{.width = format_.width,
                    .height = format_.height,
                    .src_origin = view(src).origin,
                    .src_stride = view(src).stride,
                    .half_w = settings_.width / 2,
                    .half_h = settings_.height / 2,
                    .dilate = dilate};
  rows_->dispatch(cmd_, image_set(*rows_, src, dst, kRuns), &params, groups(format_.width, kRowsTileWidth),
                  groups(format_.height, kRowsTileHeight));
  after_pass(dst);
}

void Passes::after_pass(Image dst) {
  // The next pass reads a working image. The output frame's readers wait for the frame's write
  // themselves, where they must (base/framebarriers.hpp): a barrier here would also make the
  // device's next frames wait for everything before it.
  if (dst != kOutput) compute_barrier(cmd_);
}

// One application of the mask (`times` applications of a rectangle at once).
void Passes::mask_pass(bool dilate, guint times, Image src, Image dst) {
  const uint32_t half_w = settings_.width / 2, half_h = settings_.height / 2;
  if (settings_.shape != kEllipse && (half_w == 0 || half_h == 0)) {
    // A one-row or one-column rectangle or cross is a line: one pass.
    line_pass(dilate, half_h == 0, (half_h == 0 ? half_w : half_h) * times, src, dst, kNone);
    return;
  }
  switch (settings_.shape) {
    case kRect:
      // n rectangles of k pixels make one of n * (k - 1) + 1 (pixels outside the frame never win),
      // which is how OpenCV iterates them too. Up to kRectMaxHalf in one pass; beyond, separable: a
      // row pass, then a column pass.
      if (rect_kernel(dilate, half_w * times, half_h * times)) {
        rect_pass(dilate, half_w * times, half_h * times, src, dst);
        break;
      }
      line_pass(dilate, true, half_w * times, src, kTemp, kNone);
      line_pass(dilate, false, half_h * times, kTemp, dst, kNone);
      break;
    case kCross:
      // The centre row's run, then the centre column's combined with it.
      line_pass(dilate, true, half_w, src, kTemp, kNone);
      line_pass(dilate, false, half_h, src, dst, kTemp);
      break;
    case kEllipse: rows_pass(dilate, src, dst); break;
  }
}

void Passes::repeat(bool dilate, guint times, Image src, Image dst, Image scratch) {
  if (settings_.shape == kRect) {
    mask_pass(dilate, times, src, dst);
    return;
  }
  Image from = src;
  for (guint i = 0; i < times; ++i) {
    const Image to = (times - 1 - i) % 2 == 0 ? dst : scratch;
    mask_pass(dilate, 1, from, to);
    from = to;
  }
}

void Passes::prepare(const Settings& settings) {
  if (settings.shape != kRect || settings.width == 1 || settings.height == 1) return;
  const uint32_t half_w = settings.width / 2 * settings.iterations,
                 half_h = settings.height / 2 * settings.iterations;
  if (settings.operation != kErode) rect_kernel(true, half_w, half_h);
  if (settings.operation != kDilate) rect_kernel(false, half_w, half_h);
}

bool Passes::record(Frame& frame, guint plane, const Settings& settings, GError** error, guint word) {
  const uint32_t out_offset = frame.out.offset[plane], out_stride = frame.out.stride[plane];
  if ((out_offset | out_stride) & 3u) {
    g_set_error(error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
                "output plane %u is not 32-bit aligned (offset %u, stride %u)", plane, out_offset,
                out_stride);
    return FALSE;
  }
  cmd_ = frame.cmd;
  slot_ = frame.slot;
  settings_ = settings;
  // A second word's passes bind what the first bound (the frame's sets stay as they are: a set a
  // recorded dispatch uses is not updated again).
  if (word == 0) frame_set_uses_.clear();
  // A plane of one word per pixel in device memory is read in place by the first passes: no
  // unpacked copy (a pass over the frame). Top-hat and black-hat subtract the input itself, which
  // the last pass reads as a working image.
  const uint32_t in_offset = frame.in.offset[plane] + 4 * word, in_stride = frame.in.stride[plane];
  source_in_frame_ = format_.bpp == 4 && frame.in.device_local && ((in_offset | in_stride) & 3u) == 0 &&
                     settings.operation != kTophat && settings.operation != kBlackhat;
  input_ = frame.in.buffer;
  source_view_ = {in_offset / 4, in_stride / 4};
  output_ = frame.out.buffer;
  output_view_ = {out_offset / 4, out_stride / 4};
  // A rectangle's erosion, dilation, opening or closing of one word per pixel ends with a pass along
  // both axes or along columns: into an output in device memory, that pass writes the frame itself, and the
  // pack pass (a pass over the frame, and one more dispatch) is left out. An output in host memory is written
  // once, whole words in a row (pack), rather than twice along its columns.
  const bool direct = format_.bpp == 4 && frame.out.device_local && settings.shape == kRect &&
                      settings.height / 2 > 0 &&
                      (settings.operation == kErode || settings.operation == kDilate ||
                       settings.operation == kOpen || settings.operation == kClose);
  // The device's working images are shared by every morph's frames (SharedScratch), so a frame that
  // uses them waits for all earlier work on the compute queue. A rectangle's erosion or dilation of
  // a plane read in place, in one pass into the output, uses none: its frames overlap with others.
  // H200, 16 frames in device memory (run 241): dilate 9x9 at 1080p 13.4 -> 10.4 us a frame, at 360p
  // 4.8 -> 2.2.
  const bool one_pass = source_in_frame_ && direct &&
                        (settings.operation == kErode || settings.operation == kDilate) &&
                        settings.width > 1 &&
                        rect_kernel(settings.operation == kDilate, settings.width / 2 * settings.iterations,
                                    settings.height / 2 * settings.iterations);
  if (!one_pass) order_after_earlier_work(frame);
  if (settings.shape == kEllipse) {
    const std::vector<uint32_t> runs = mask_runs(settings.shape, settings.width, settings.height);
    std::memcpy(slots_[slot_].runs->mapped(), runs.data(), runs.size() * sizeof(uint32_t));
  }

  if (!source_in_frame_) {
    UnpackParams unpack{format_.width, format_.height, in_offset, in_stride};
    if (word == 0) unpack_->update(slot_, {{frame.in.buffer}, {image(kSource)}});
    unpack_->dispatch(cmd_, slot_, &unpack, groups(format_.width, kPixelsPerInvocation * kGroupX),
                      groups(format_.height, kGroupY));
    compute_barrier(cmd_);
  }

  // The result is a, or a - b.
  const guint n = settings.iterations;
  Image a = kImage1, b = kNone;
  switch (settings.operation) {
    case kErode:
    case kDilate:
      repeat(settings.operation == kDilate, n, kSource, direct ? kOutput : kImage1, kImage2);
      break;
    case kOpen:
    case kTophat:
      repeat(false, n, kSource, kImage1, kImage2);
      repeat(true, n, kImage1, direct ? kOutput : kImage3, kImage2);
      a = kImage3;
      if (settings.operation == kTophat) a = kSource, b = kImage3;
      break;
    case kClose:
    case kBlackhat:
      repeat(true, n, kSource, kImage1, kImage2);
      repeat(false, n, kImage1, direct ? kOutput : kImage3, kImage2);
      a = kImage3;
      if (settings.operation == kBlackhat) b = kSource;
      break;
    case kGradient:
      repeat(true, n, kSource, kImage1, kImage2);
      repeat(false, n, kSource, kImage3, kImage2);
      b = kImage3;
      break;
  }

  if (direct) return TRUE;
  const bool pixels8 = format_.bpp == 8;
  const uint32_t keep = pixels8 && word == 0 ? 0 : format_.keep;
  PackParams pack{format_.width,
                  format_.height,
                  out_offset,
                  out_stride,
                  keep,
                  b != kNone,
                  view(kSource).origin,
                  view(kSource).stride,
                  pixels8 ? (word == 0 ? kPackFirstWord : kPackSecondWord) : kPackWhole};
  // A set per word of 8-byte pixels (a set is not updated once a recorded dispatch uses it); the
  // `low` binding is any buffer elsewhere.
  const uint32_t set = slot_ + word * kVkComputeFramesInFlight;
  pack_->update(set, {{image(kSource)},
                      {image(a)},
                      {image(b == kNone ? a : b)},
                      {frame.out.buffer},
                      {pixels8 ? (*low_)[0] : image(kSource)},
                      {frame.out.buffer}});
  pack_->dispatch(cmd_, set, &pack, groups(format_.width, kPixelsPerInvocation * kGroupX),
                  groups(format_.height, kGroupY));
  return TRUE;
}

}  // namespace vkc::morph
