// The GPU side of the morph element: the working images of one plane and the passes that turn
// one frame's plane into its eroded, dilated, opened, ... version, recorded in one command buffer.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "base/operation.hpp"
#include "base/scratch.hpp"
#include "vk/kernel.hpp"

namespace vkc::morph {

enum Operation { kErode, kDilate, kOpen, kClose, kGradient, kTophat, kBlackhat };
enum Shape { kRect, kCross, kEllipse };

// What the element's properties ask for, read once per frame.
struct Settings {
  Operation operation = kDilate;
  Shape shape = kRect;
  guint width = 3, height = 3;  // odd, 1..255
  guint iterations = 1;         // 1..64
};

// Half width of the run of ones in each of the `height` rows of OpenCV's getStructuringElement for
// `shape` and `width` x `height` (odd sizes): every row's run is centred on the centre column.
std::vector<uint32_t> mask_runs(Shape shape, guint width, guint height);

// The filtered plane of a format: its size, its pixels' bytes and how they are filtered.
struct PlaneFormat {
  uint32_t width = 0, height = 0;
  uint32_t bpp = 1;        // bytes per pixel: 1..4, or 8 (RGBA64_LE: filtered a word at a time)
  bool one_lane = false;   // one sample per pixel word (GRAY8, GRAY16_LE, a deep Y plane)
  uint32_t lane_bits = 8;  // the lanes of a pixel word: 8, 10 (BGR10A2_LE) or 16 bits
  uint32_t keep = 0;       // bits of a pixel word copied unchanged (alpha, padding); with 8-byte
                           // pixels, of the second word
};

// Kernels and per-slot working images for one plane format.
class Passes : public CapsState {
 public:
  Passes(const std::shared_ptr<Device>& device, const PlaneFormat& format);

  // Records the passes of `settings` from plane `plane` of frame->in to the same plane of
  // frame->out; with 8-byte pixels, of their 32-bit word `word` (0, then 1 after a barrier). Orders
  // the frame after earlier work where its passes use the device's working images.
  // False (with `error`) when the output plane is not word-aligned.
  bool record(Frame& frame, guint plane, const Settings& settings, GError** error, guint word = 0);
  // Starts compiling the kernels `settings` need beyond those of every frame, ahead of the first.
  void prepare(const Settings& settings);

 private:
  // Working images, by index: the unpacked source (or the input frame's plane, read in place),
  // three results and a line-pass temp; then the slot's mask runs buffer, "no image", and the
  // output frame's plane (a line pass's destination only).
  enum Image { kSource, kImage1, kImage2, kImage3, kTemp, kImages, kRuns = kImages, kNone, kOutput };
  struct Slot {
    std::unique_ptr<Buffer> runs;  // mask_runs() of the frame being recorded, written by the CPU
  };

  // Applies `dilate` (or erosion) `times` times with the frame's mask, from `src` into `dst`,
  // alternating with `scratch` so that the last result lands in `dst`.
  void repeat(bool dilate, guint times, Image src, Image dst, Image scratch);
  void mask_pass(bool dilate, guint times, Image src, Image dst);
  void line_pass(bool dilate, bool along_x, uint32_t radius, Image src, Image dst, Image combine_with);
  void rows_pass(bool dilate, Image src, Image dst);
  // A rectangle of half width and height up to kRectMaxHalf in one pass (morph_rect.comp).
  void rect_pass(bool dilate, uint32_t half_w, uint32_t half_h, Image src, Image dst);
  // The one-pass kernel for that operation and rectangle, or null where it does not apply (too large, or the
  // device's workgroups too small).
  const Kernel* rect_kernel(bool dilate, uint32_t half_w, uint32_t half_h);
  // The barrier after a pass into `dst`.
  void after_pass(Image dst);
  // Where an image's pixel (x, y) is: word origin + y * stride + x of its buffer.
  struct View {
    uint32_t origin = 0, stride = 0;
  };
  // The descriptor set of `kernel` bound to this slot's buffers `a`, `b`, `c` (or only `a`, `b`
  // when `c` is kNone).
  uint32_t image_set(const Kernel& kernel, int a, int b, int c);
  vk::Buffer image(int index) const;
  View view(Image index) const;

  std::shared_ptr<Device> device_;
  PlaneFormat format_;
  std::unique_ptr<Kernel> unpack_, line_, rows_, pack_;
  std::unique_ptr<Kernel> row_table_;  // row passes in shared memory; null where a row does not fit
  std::map<std::tuple<bool, uint32_t, uint32_t>, std::unique_ptr<Kernel>>
      rects_;  // by dilate, half width, height
  // Only the frame's own kernels touch the working images: shared by every morph of the device
  // with planes of this size (scratch.hpp).
  std::shared_ptr<const SharedScratch> images_;
  std::shared_ptr<const SharedScratch> low_;  // 8-byte pixels: the first words' results
  std::array<Slot, kVkComputeFramesInFlight> slots_;
  // Descriptor sets over a slot's own images never change: built once, by (kernel, slot, images).
  std::map<std::tuple<const Kernel*, uint32_t, int, int, int>, uint32_t> sets_;
  std::map<const Kernel*, uint32_t> set_count_;
  std::map<const Kernel*, uint32_t> frame_set_uses_;  // sets bound to the frame's buffers so far

  // The frame being recorded.
  Commands cmd_;
  uint32_t slot_ = 0;
  Settings settings_;
  bool source_in_frame_ = false;  // kSource is the input frame's plane
  vk::Buffer input_;
  View source_view_;
  vk::Buffer output_;
  View output_view_;
};

}  // namespace vkc::morph
