// What the morph kernels (morph_*.comp, include/morph.glsl) share with
// gst/elements/morph_passes.cpp and morph.cpp; see layout_common.h.
#ifndef VKC_SHADER_MORPH_LAYOUT_H
#define VKC_SHADER_MORPH_LAYOUT_H

#include "layout_common.h"

#ifdef __cplusplus
namespace vkc::shader::morph {
#endif

// Masks are odd, up to kMaxMaskSize pixels wide and high: the mask runs buffer of morph_rows.comp
// holds a half width per mask row, and a row pass pads a row with up to kMaxHalf samples each side.
const uint kMaxMaskSize = 255u;
const uint kMaxHalf = kMaxMaskSize / 2u;

// The unpack and pack passes' workgroup (specialization constants 0 and 1: local_size_x,
// local_size_y); a workgroup row covers kPixelsPerInvocation x kGroupX pixels of a frame row.
const uint kGroupX = 64u;
const uint kGroupY = 4u;
const uint kPixelsPerInvocation = 4u;

// morph_row_table.comp keeps kRowTableLevels levels of its table in shared memory, LINE_WORDS
// uints each (the element passes it where they fit).
const uint kRowTableLevels = 2u;

// morph_rows.comp: a workgroup of kRowsGroupX x kRowsGroupY invocations produces a tile of
// kRowsTileWidth x kRowsTileHeight pixels, kRowsPerInvocation rows each.
const uint kRowsGroupX = 64u;
const uint kRowsGroupY = 4u;
const uint kRowsPerInvocation = 8u;
const uint kRowsTileWidth = kRowsGroupX;
const uint kRowsTileHeight = kRowsGroupY * kRowsPerInvocation;

// morph_rect.comp: rectangles of up to 2 * kRectMaxHalf + 1 pixels each way, in workgroups of
// kRectGroup invocations.
const uint kRectMaxHalf = 15u;
const uint kRectGroup = 256u;

// LineParams::combine: how the line pass joins each output with the same sample of `other`.
const uint kCombineNone = 0u;
const uint kCombineMorph = 1u;  // the operation's min or max of the two (cross masks)
const uint kCombineKeep = 2u;   // the lanes in `keep` from `other` (the input frame)

// The push constants of morph_unpack.comp.
struct UnpackParams {
  uint width;
  uint height;
  uint offset;  // byte offset of the plane's first pixel
  uint stride;  // bytes between rows; any value
};

// The push constants of morph_line.comp.
struct LineParams {
  uint samples;     // samples along a line
  uint count;       // lines
  uint step;        // words between neighbouring samples of a line of dst
  uint line_step;   // words between neighbouring lines of dst
  uint src_origin;  // word of src's first sample
  uint src_step;    // as step and line_step, in src
  uint src_line_step;
  uint radius;        // at most samples - 1 (a larger window covers the same samples)
  uint dilate;        // 1: max, 0: min
  uint combine;       // kCombine*
  uint blocks_x;      // 1: invocation x indexes blocks and y lines; 0: x lines and y blocks
  uint dst_origin;    // word of dst's first sample
  uint other_origin;  // as dst_origin, step and line_step, in other
  uint other_step;
  uint other_line_step;
  uint keep;  // kCombineKeep: bits of a pixel word taken from other
};

// The push constants of morph_row_table.comp.
struct RowTableParams {
  uint width;
  uint line_step;      // words between neighbouring rows of dst
  uint src_origin;     // word of src's first sample
  uint src_line_step;  // words between neighbouring rows of src
  uint radius;         // width + 2 * radius <= LINE_WORDS
  uint dilate;         // 1: max, 0: min
};

// The push constants of morph_rows.comp.
struct RowsParams {
  uint width;
  uint height;
  uint src_origin;  // word of src's first sample
  uint src_stride;  // words between src's rows (dst's: width)
  uint half_w;      // the mask's centre column: the widest run's half width
  uint half_h;      // the mask's centre row
  uint dilate;      // 1: max, 0: min
};

// The push constants of morph_rect.comp.
struct RectParams {
  uint width;
  uint height;
  uint src_origin;  // word of src's first pixel
  uint src_stride;  // words between src's rows
  uint dst_origin;  // as src_origin and src_stride, in dst
  uint dst_stride;
  uint other_origin;  // as src_origin and src_stride, in other
  uint other_stride;
  uint keep;  // bits of a pixel word taken from other (alpha, padding); 0: none
};

// The push constants of morph_pack.comp.
struct PackParams {
  uint width;
  uint height;
  uint offset;         // byte offset of the output plane (a multiple of 4)
  uint stride;         // bytes between output rows (a multiple of 4)
  uint keep;           // bits of a pixel word copied from `source`
  uint subtract;       // 1: a - b, 0: a
  uint source_origin;  // word of source's first pixel
  uint source_stride;  // words between source's rows (a's and b's: width)
  uint words;          // kPackWhole, or of 8-byte pixels: kPackFirstWord, kPackSecondWord
};

// PackParams::words.
const uint kPackWhole = 0u;       // a pixel of at most 4 bytes
const uint kPackFirstWord = 1u;   // 8-byte pixels' first word, into `low` (width words a row)
const uint kPackSecondWord = 2u;  // their second word: whole pixels, the first word from `low`

#ifdef __cplusplus
VKC_LAYOUT_SIZE(UnpackParams, 16);
VKC_LAYOUT_OFFSET(UnpackParams, width, 0);
VKC_LAYOUT_OFFSET(UnpackParams, height, 4);
VKC_LAYOUT_OFFSET(UnpackParams, offset, 8);
VKC_LAYOUT_OFFSET(UnpackParams, stride, 12);

VKC_LAYOUT_SIZE(LineParams, 64);
VKC_LAYOUT_OFFSET(LineParams, samples, 0);
VKC_LAYOUT_OFFSET(LineParams, count, 4);
VKC_LAYOUT_OFFSET(LineParams, step, 8);
VKC_LAYOUT_OFFSET(LineParams, line_step, 12);
VKC_LAYOUT_OFFSET(LineParams, src_origin, 16);
VKC_LAYOUT_OFFSET(LineParams, src_step, 20);
VKC_LAYOUT_OFFSET(LineParams, src_line_step, 24);
VKC_LAYOUT_OFFSET(LineParams, radius, 28);
VKC_LAYOUT_OFFSET(LineParams, dilate, 32);
VKC_LAYOUT_OFFSET(LineParams, combine, 36);
VKC_LAYOUT_OFFSET(LineParams, blocks_x, 40);
VKC_LAYOUT_OFFSET(LineParams, dst_origin, 44);
VKC_LAYOUT_OFFSET(LineParams, other_origin, 48);
VKC_LAYOUT_OFFSET(LineParams, other_step, 52);
VKC_LAYOUT_OFFSET(LineParams, other_line_step, 56);
VKC_LAYOUT_OFFSET(LineParams, keep, 60);

VKC_LAYOUT_SIZE(RowTableParams, 24);
VKC_LAYOUT_OFFSET(RowTableParams, width, 0);
VKC_LAYOUT_OFFSET(RowTableParams, line_step, 4);
VKC_LAYOUT_OFFSET(RowTableParams, src_origin, 8);
VKC_LAYOUT_OFFSET(RowTableParams, src_line_step, 12);
VKC_LAYOUT_OFFSET(RowTableParams, radius, 16);
VKC_LAYOUT_OFFSET(RowTableParams, dilate, 20);

VKC_LAYOUT_SIZE(RowsParams, 28);
VKC_LAYOUT_OFFSET(RowsParams, width, 0);
VKC_LAYOUT_OFFSET(RowsParams, height, 4);
VKC_LAYOUT_OFFSET(RowsParams, src_origin, 8);
VKC_LAYOUT_OFFSET(RowsParams, src_stride, 12);
VKC_LAYOUT_OFFSET(RowsParams, half_w, 16);
VKC_LAYOUT_OFFSET(RowsParams, half_h, 20);
VKC_LAYOUT_OFFSET(RowsParams, dilate, 24);

VKC_LAYOUT_SIZE(RectParams, 36);
VKC_LAYOUT_OFFSET(RectParams, width, 0);
VKC_LAYOUT_OFFSET(RectParams, height, 4);
VKC_LAYOUT_OFFSET(RectParams, src_origin, 8);
VKC_LAYOUT_OFFSET(RectParams, src_stride, 12);
VKC_LAYOUT_OFFSET(RectParams, dst_origin, 16);
VKC_LAYOUT_OFFSET(RectParams, dst_stride, 20);
VKC_LAYOUT_OFFSET(RectParams, other_origin, 24);
VKC_LAYOUT_OFFSET(RectParams, other_stride, 28);
VKC_LAYOUT_OFFSET(RectParams, keep, 32);

VKC_LAYOUT_SIZE(PackParams, 36);
VKC_LAYOUT_OFFSET(PackParams, width, 0);
VKC_LAYOUT_OFFSET(PackParams, height, 4);
VKC_LAYOUT_OFFSET(PackParams, offset, 8);
VKC_LAYOUT_OFFSET(PackParams, stride, 12);
VKC_LAYOUT_OFFSET(PackParams, keep, 16);
VKC_LAYOUT_OFFSET(PackParams, subtract, 20);
VKC_LAYOUT_OFFSET(PackParams, source_origin, 24);
VKC_LAYOUT_OFFSET(PackParams, source_stride, 28);
VKC_LAYOUT_OFFSET(PackParams, words, 32);
}  // namespace vkc::shader::morph
#endif

#endif
