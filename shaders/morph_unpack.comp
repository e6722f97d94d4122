#version 450
#extension GL_GOOGLE_include_directive : require
// First pass of every morph frame: one plane of the input frame (host memory, any byte offset and
// stride) into a working image of one 32-bit word per pixel in device memory, the pixel's bytes in
// the word's low bytes. Each input word is read once (one straddling two workgroups' runs, twice).
//
// A workgroup row covers kPixelsPerInvocation x local_size_x pixels of a frame row
// (morph_layout.h). Its input words are first copied into shared memory by consecutive invocations,
// so that every load of a subgroup is one contiguous run of host memory whatever the pixel size (a
// discrete GPU reading host memory in short or strided runs gets a fraction of the link's
// bandwidth); the pixels are then cut out of shared memory.

#include "morph_layout.h"

layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint BPP = 4;  // bytes per pixel: 1, 2, 3, 4, or 8 (a word each pass)

layout(set = 0, binding = 0) restrict readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) restrict writeonly buffer Dst { uint dst[]; };

layout(push_constant) uniform PushConstants { UnpackParams p; };

#include "include/words.glsl"

// The element specializes the workgroup to kGroupX x kGroupY. A row's kPixelsPerInvocation x W
// pixels span at most BPP x W + 1 words from an unaligned start.
shared uint s_row[kGroupY][kPixelsPerInvocation * kGroupX + 1u];

void main() {
  if (BPP == 8u) {
    // One word of each 8-byte pixel (the element offsets the plane to it), read where it lies.
    uint y = gl_GlobalInvocationID.y;
    if (y >= p.height) return;
    uint x = gl_WorkGroupID.x * kPixelsPerInvocation * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    for (uint k = 0u; k < kPixelsPerInvocation; ++k, x += gl_WorkGroupSize.x)
      if (x < p.width) dst[y * p.width + x] = load_word(p.offset + y * p.stride + 8u * x);
    return;
  }
  const uint W = gl_WorkGroupSize.x;
  uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
  uint y = gl_GlobalInvocationID.y;
  bool in_frame = y < p.height;
  uint px0 = gl_WorkGroupID.x * kPixelsPerInvocation * W;  // the workgroup's first pixel in the row
  uint pixels = min(kPixelsPerInvocation * W, p.width - min(px0, p.width));
  uint first = p.offset + y * p.stride + px0 * BPP;  // its first byte
  uint words = ((first & 3u) + pixels * BPP + 3u) >> 2;
  uint last = uint(src.length()) - 1u;
  for (uint i = lx; i < words; i += W)
    if (in_frame) s_row[ly][i] = src[min((first >> 2) + i, last)];
  barrier();
  if (!in_frame) return;
  for (uint k = 0u; k < kPixelsPerInvocation; ++k) {
    uint n = k * W + lx;  // consecutive invocations write consecutive pixels
    if (n >= pixels) break;
    uint at = (first & 3u) + n * BPP;  // the pixel's first byte in s_row
    uint i = at >> 2, shift = (at & 3u) * 8u;
    uint word = s_row[ly][i] >> shift;
    if (shift != 0u && shift + 8u * BPP > 32u) word |= s_row[ly][i + 1u] << (32u - shift);
    if (BPP < 4u) word &= (1u << (8u * BPP)) - 1u;
    dst[y * p.width + px0 + n] = word;
  }
}
