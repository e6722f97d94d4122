#version 450
#extension GL_GOOGLE_include_directive : require
// Last pass of a morph frame (of every one whose output is in host memory): the result image (one
// word per pixel, device memory) into one plane of the output frame, whole output words so that no two invocations write the
// same word. A workgroup row covers the BPP x local_size_x words (4 x local_size_x pixels) of a
// frame row, consecutive invocations taking consecutive words, so that every store of a subgroup
// is one contiguous run of host memory. The result is `a`, or `a - b` lane by lane (gradient, top-hat,
// black-hat); the lanes in `keep` (alpha, padding) come unchanged from the input image `source`.

#include "morph_layout.h"

layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint BPP = 4;        // bytes per pixel: 1, 2, 3, 4, or 8 (a word each pass)
layout(constant_id = 3) const uint LANE_BITS = 8;  // 8, 10 or 16: see include/morph.glsl

layout(set = 0, binding = 0) restrict readonly buffer Source { uint source[]; };
layout(set = 0, binding = 1) restrict readonly buffer A { uint a[]; };
layout(set = 0, binding = 2) restrict readonly buffer B { uint b[]; };
layout(set = 0, binding = 3) writeonly buffer Dst { uint dst[]; };
// 8-byte pixels: the first words' results (kPackFirstWord writes them, kPackSecondWord reads them).
layout(set = 0, binding = 4) restrict buffer Low { uint low[]; };
// Dst again, as pairs of words: a whole 8-byte pixel in one store.
layout(set = 0, binding = 5) writeonly buffer Dst2 { uvec2 dst2[]; };

layout(push_constant) uniform PushConstants { PackParams p; };

// x - y lane by lane, at least 0 (bits above the last whole lane: 0).
uint lane_sub(uint x, uint y) {
  const uint mask = (1u << LANE_BITS) - 1u;
  uint d = 0u;
  for (uint shift = 0u; shift + LANE_BITS <= 32u; shift += LANE_BITS) {
    uint u = (x >> shift) & mask, v = (y >> shift) & mask;
    d |= (u - min(u, v)) << shift;
  }
  return d;
}

uint result(uint x, uint y) {
  uint i = y * p.width + x;
  uint r = p.subtract != 0u ? lane_sub(a[i], b[i]) : a[i];
  return p.keep != 0u ? (r & ~p.keep) | (source[p.source_origin + y * p.source_stride + x] & p.keep) : r;
}

void main() {
  if (BPP == 8u) {
    // 8-byte pixels, filtered a word at a time: the first word's results wait in `low`; the second
    // pass writes whole pixels, consecutive invocations on consecutive pixels (every other word
    // alone would be partial lines of host memory).
    uint y = gl_GlobalInvocationID.y;
    if (y >= p.height) return;
    uint x = gl_WorkGroupID.x * kPixelsPerInvocation * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    for (uint k = 0u; k < kPixelsPerInvocation; ++k, x += gl_WorkGroupSize.x) {
      if (x >= p.width) break;
      uint i = y * p.width + x;
      if (p.words == kPackFirstWord) {
        low[i] = result(x, y);
      } else {
        // One 8-byte store where the row allows: a subgroup's stores are then one contiguous run
        // (two 4-byte stores each are strided ones, several times the cost into host memory).
        uint row = p.offset + y * p.stride;
        uvec2 pixel = uvec2(low[i], result(x, y));
        if ((row & 7u) == 0u) {
          dst2[(row >> 3) + x] = pixel;
        } else {
          dst[row / 4u + 2u * x] = pixel.x;
          dst[row / 4u + 2u * x + 1u] = pixel.y;
        }
      }
    }
    return;
  }
  const uint W = gl_WorkGroupSize.x;
  uint y = gl_GlobalInvocationID.y;
  if (y >= p.height) return;
  uint row_bytes = p.width * BPP;
  uint first = gl_WorkGroupID.x * BPP * W;  // the workgroup's first word in the row
  for (uint k = 0u; k < BPP; ++k) {
    uint wx = first + k * W + gl_LocalInvocationID.x;
    if (wx * 4u >= row_bytes) break;
    uint word = 0u;
    uint pixel = 0xffffffffu, value = 0u;
    for (uint b = 0u; b < 4u; ++b) {
      uint at = wx * 4u + b;
      if (at >= row_bytes) break;
      if (at / BPP != pixel) {
        pixel = at / BPP;
        value = result(pixel, y);
      }
      word |= ((value >> (8u * (at % BPP))) & 0xffu) << (8u * b);
    }
    dst[(p.offset + y * p.stride) / 4u + wx] = word;
  }
}
