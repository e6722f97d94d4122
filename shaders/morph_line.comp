#version 450
#extension GL_GOOGLE_include_directive : require
// One-dimensional erosion or dilation along the rows or the columns of a working image (or, the last
// pass into a 32-bit output in device memory, of the output frame's plane), over the
// window [i - radius, i + radius], at a cost independent of the radius (van Herk / Gil-Werman).
//
// The line is cut into blocks of k = 2 * radius + 1 samples. For an output i, the window's first
// sample lies in one block and its last in the same or the next one, so the window is the suffix
// of the first block from i - radius joined with the prefix of the next block up to i + radius.
// Invocation (line, m) produces outputs [m*k, m*k + k): a backward walk over its input block
// [m*k - radius, m*k + radius] stores the suffixes in dst, then a forward walk over the next block
// keeps the running prefix and combines. Each output costs three reads and two writes, whatever
// the radius. Along columns, the invocations of a workgroup take neighbouring columns, so each
// step reads part of a row at once (coalesced); along rows they take neighbouring blocks of one
// row, so short blocks share cache lines (long ones go through the cache either way).
//
// `other` (cross masks, kCombineMorph): the output is further combined with the same pixel of
// another image. Or (kCombineKeep, the last pass of a frame written straight into a 32-bit output
// frame) the lanes in `keep` (alpha, padding) of each output come from the same pixel of `other`,
// the input frame.
//
// Row passes take morph_row_table.comp where a padded row fits in shared memory: walking a row
// in device memory puts neighbouring invocations k words apart, a cache line each per access.

#include "morph_layout.h"

layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const bool ONE_LANE = false;  // see include/morph.glsl
layout(constant_id = 3) const uint LANE_BITS = 8;     // 8, 10 or 16: see include/morph.glsl

// Samples a walk loads at once (see walk()). H200, 16 frames in device memory (run 202): 16 rather
// than 8 took dilate 9x9 from 28.9 to 27.0 us a 1080p frame (4K 92.1 -> 86.5), 31x31 at 4K 101.7 -> 97.6.
const uint BATCH = 16u;

layout(set = 0, binding = 0) restrict readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) restrict buffer Dst { uint dst[]; };
layout(set = 0, binding = 2) restrict readonly buffer Other { uint other[]; };

#include "include/morph.glsl"

layout(push_constant) uniform PushConstants { LineParams p; };

// Where a line's samples are read and its outputs (and the suffixes before them) stored. `base` is
// the line's first word in dst, `src_base` in src, `other_base` in other.
uint src_base, other_base;
uint load_src(uint i) { return src[src_base + i * p.src_step]; }
uint load_dst(uint base, uint i) { return dst[base + i * p.step]; }
void store_dst(uint base, uint i, uint v) { dst[base + i * p.step] = v; }
uint other_at(uint i) {
  return p.combine != kCombineNone ? other[other_base + i * p.other_step] : morph_identity(p.dilate != 0u);
}
// An output `r` joined with the same sample `o` of other, as `combine` says.
uint combined(bool dilate, uint r, uint o) {
  if (p.combine == kCombineKeep) return (r & ~p.keep) | (o & p.keep);
  return p.combine == kCombineMorph ? morph_op(dilate, r, o) : r;
}

uint sample_at(uint base, int i) {
  bool dilate = p.dilate != 0u;
  if (i < 0 || i >= int(p.samples)) return morph_identity(dilate);
  return load_src(uint(i));
}

// Outputs [m * k, m * k + k) of the line starting at word `base`.
void walk(uint base, uint m) {
  uint k = 2u * p.radius + 1u;
  uint first = m * k;
  bool dilate = p.dilate != 0u;
  uint end = min(first + k, p.samples);  // outputs [first, end)

  // Suffixes of the block [first - radius, first + radius], stored at the outputs they start.
  // Samples are loaded BATCH at a time before they are combined, so that the loads of a walk are
  // in flight together instead of one memory latency per sample; blocks shorter than a batch load
  // only their own samples.
  uint batch = min(BATCH, k);
  uint h = morph_identity(dilate);
  for (int top = int(k) - 1; top >= 0; top -= int(BATCH)) {
    uint v[BATCH];
    for (uint j = 0u; j < BATCH; ++j)
      if (j < batch) v[j] = sample_at(base, int(first) - int(p.radius) + top - int(j));
    for (uint j = 0u; j < BATCH; ++j) {  // a constant trip count: unrolled, v[] in registers
      int i = top - int(j);
      if (j >= batch || i < 0) break;
      h = morph_op(dilate, h, v[j]);
      if (first + uint(i) < end) store_dst(base, first + uint(i), h);
    }
  }
  // Prefixes of the next block [first + radius + 1, ...], joined with them.
  uint g = morph_identity(dilate);
  for (uint o0 = first; o0 < end; o0 += BATCH) {
    uint v[BATCH], s[BATCH], c[BATCH];
    for (uint j = 0u; j < BATCH; ++j) {
      if (j >= batch) break;
      uint o = min(o0 + j, end - 1u);
      v[j] = sample_at(base, int(o + p.radius));
      s[j] = load_dst(base, o);
      c[j] = other_at(o);
    }
    for (uint j = 0u; j < BATCH; ++j) {
      uint o = o0 + j;
      if (j >= batch || o >= end) break;
      if (o > first) g = morph_op(dilate, g, v[j]);
      store_dst(base, o, combined(dilate, morph_op(dilate, s[j], g), c[j]));
    }
  }
}

void main() {
  uint k = 2u * p.radius + 1u;
  uint line = p.blocks_x != 0u ? gl_GlobalInvocationID.y : gl_GlobalInvocationID.x;
  uint m = p.blocks_x != 0u ? gl_GlobalInvocationID.x : gl_GlobalInvocationID.y;
  if (line >= p.count || m * k >= p.samples) return;
  src_base = p.src_origin + line * p.src_line_step;
  other_base = p.other_origin + line * p.other_line_step;
  walk(p.dst_origin + line * p.line_step, m);
}
