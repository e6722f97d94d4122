#version 450
#extension GL_GOOGLE_include_directive : require
// Applies a colour lookup table to packed RGB (8 bits a channel in 24 or 32 bits, 10 bits in 32,
// 16 bits in 64), the way ffmpeg's lut3d and lut1d filters do: the input, in 0..1, is mapped from
// the table's domain onto 0..size-1, looked up with the chosen interpolation, mixed with the
// input by `intensity` and rounded to the input's depth. Bits that are not colour (alpha,
// padding) are copied unchanged.
//
// One invocation handles kPixelsPerInvocation (4) pixels of a row: 4 words for 32-bit formats
// (interleaved with its workgroup's neighbours; 64-bit pixels: 4 pairs of words), 3 consecutive words
// for 24-bit ones, so every output word is written by exactly one invocation. A 24-bit workgroup row's words pass through
// shared memory, so that its loads and stores, too, are consecutive words across consecutive
// invocations (strided accesses to host memory cost several times the bandwidth).
//
// 8-bit frames read a 3D table whose values lie in 0..1 packed 10 bits a channel (binding 5): a
// random frame's gathers go all over the table, and a 33^3 table packed (144 KB) stays in an SM's
// cache where its floats (575 KB) do not. An entry is then off by at most 1/2046, an eighth of an
// 8-bit step, so some outputs (3.3 % of the bytes of random frames) come out 1 away from the float
// table's. H200, frames in device memory (run 183): 1080p tetrahedral 49.8 -> 27.0 us, trilinear
// 77.7 -> 32.8, 4K tetrahedral 179.5 -> 85.0.

#include "lut_layout.h"

layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint BPP = 4;    // bytes per pixel: 3, 4 or 8
layout(constant_id = 3) const uint DEPTH = 8;  // bits of R, G and B: 8, 10 or 16
// What the element knows when it makes the pipeline rather than per frame: a kernel that handles
// one case instead of testing for all of them. H200, 1080p RGBA in device memory (run 233): 21.7
// us a frame with the mode and the packing read from push constants, 19.3 with them constant,
// 17.5 with the channel order and the intensity's test constant too.
layout(constant_id = 4) const uint ORDER = 0x100800u;  // first bit of R, G and B in a pixel, 8 bits each
layout(constant_id = 5) const uint MODE = kModeTetrahedral;  // kMode*
layout(constant_id = 6) const bool PACKED = false;  // a 3D table's entries come from binding 5
layout(constant_id = 7) const bool MIXED = false;   // intensity < 1: the output mixes input and lookup

layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };
// 3D: size³ entries, red fastest; 1D: size entries. rgb used, a ignored.
layout(set = 0, binding = 2) readonly buffer Table { vec4 table[]; };
// The frames again, as pairs of words: 64-bit pixels are read and written whole where aligned.
layout(set = 0, binding = 3) readonly buffer Src2 { uvec2 src2[]; };
layout(set = 0, binding = 4) writeonly buffer Dst2 { uvec2 dst2[]; };
layout(set = 0, binding = 5) readonly buffer Packed { uint packed_table[]; };

#include "include/words.glsl"

layout(push_constant) uniform PushConstants { Params p; };

// Entry i of the 3D table. A packed entry comes as 1 + value / 1024 per channel: its 10-bit fields
// placed under the exponent of 1.0 rather than converted (a tetrahedral lookup would convert 12
// integers a pixel, an instruction NVIDIA's GPUs issue at a quarter of the rate of others). The
// interpolations below are affine, so corners_value() takes the bias and the scale out of their
// result once. With the corners found from one index and the table's strides, H200, 1080p RGBA in
// device memory (run 235): tetrahedral 17.5 -> 16.9 us a frame, 4K 63.1 -> 60.6. The input's and the
// output's conversions done the same way gained nothing (the output's: 16.9 -> 18.4 us).
vec3 entry_at(uint i) {
  if (!PACKED) return table[i].rgb;
  // The fields are R, G, B from bit 0 (kPackedBits = 10); a float's mantissa is bits 0..22.
  const uint field = ((1u << kPackedBits) - 1u) << (23u - kPackedBits), one = 0x3f800000u;
  uint w = packed_table[i];
  uvec3 bits = uvec3(w << (23u - kPackedBits), w << (23u - 2u * kPackedBits), w >> (3u * kPackedBits - 23u));
  return uintBitsToFloat((bits & field) | one);
}

// What an affine combination of entry_at()'s values stands for, in 0..1.
vec3 corners_value(vec3 v) {
  const float top = float((1u << kPackedBits) - 1u);
  return PACKED ? (v - 1.0) * (float(1u << kPackedBits) / top) : v;
}

// Entries along R, G and B are 1, size and size^2 apart.
uint index_of(uvec3 i) { return i.r + p.size * (i.g + p.size * i.b); }

vec3 nearest3d(vec3 s) { return corners_value(entry_at(index_of(uvec3(s + 0.5)))); }

// The cell around s: its lower corner, kept below the last entry so that the upper one is in the
// table (a point on the table's last face has fraction 1 along that axis), and s's fractions.
uvec3 cell_of(vec3 s, out vec3 d) {
  uvec3 i0 = min(uvec3(s), uvec3(p.size - 2u));
  d = s - vec3(i0);
  return i0;
}

vec3 trilinear(vec3 s) {
  vec3 d;
  uint c = index_of(cell_of(s, d));
  const uint sg = p.size, sb = p.size * p.size;
  vec3 c00 = mix(entry_at(c), entry_at(c + 1u), d.r);
  vec3 c10 = mix(entry_at(c + sg), entry_at(c + sg + 1u), d.r);
  vec3 c01 = mix(entry_at(c + sb), entry_at(c + sb + 1u), d.r);
  vec3 c11 = mix(entry_at(c + sg + sb), entry_at(c + sg + sb + 1u), d.r);
  return corners_value(mix(mix(c00, c10, d.g), mix(c01, c11, d.g), d.b));
}

// The cube cell is split into six tetrahedra by the order of the fractional parts; each output is
// a weighted sum of the four corners of the one holding the point (4 fetches instead of 8): c000,
// the corner one step along the axis of the largest fraction, the corner one step along the two
// largest (all three but the smallest's), and c111, weighted 1 - hi, hi - mid, mid - lo and lo.
// The weights come from min, max and median, the corners from the axes of the largest and the
// smallest fraction, by selects rather than branches: the invocations of a subgroup fetch together
// instead of taking six paths one after the other (random pixels spread a subgroup over all six).
// Ties may choose either axis (a tie gives its corner weight 0), as long as the largest's and the
// smallest's differ: among equal fractions the largest is taken in R, G, B order, the smallest in
// B, G, R order. H200, 1080p RGBA in device memory (run 236): 16.1 us a frame against 16.9 with the
// order of the fractions worked out by nested selects.
vec3 tetrahedral(vec3 s) {
  vec3 d;
  uint c = index_of(cell_of(s, d));
  const uint sr = 1u, sg = p.size, sb = p.size * p.size;
  float hi = max(max(d.r, d.g), d.b), lo = min(min(d.r, d.g), d.b);
  float mid = max(min(d.r, d.g), min(max(d.r, d.g), d.b));
  uint first = d.r >= d.g && d.r >= d.b ? sr : d.g >= d.b ? sg : sb;
  uint smallest = d.b <= d.g && d.b <= d.r ? sb : d.g <= d.r ? sg : sr;
  uint second = sr + sg + sb - smallest;
  return corners_value((1.0 - hi) * entry_at(c) + (hi - mid) * entry_at(c + first) +
                       (mid - lo) * entry_at(c + second) + lo * entry_at(c + sr + sg + sb));
}

float linear1d(float s, uint c) {
  uint i0 = uint(s);
  uint i1 = min(i0 + 1u, p.size - 1u);
  return mix(table[i0][c], table[i1][c], s - float(i0));
}

vec3 lookup(vec3 rgb) {
  vec3 s = clamp((rgb - p.domain_min.xyz) * p.scale.xyz, vec3(0.0), vec3(float(p.size - 1u)));
  switch (MODE) {
    case kMode3DNearest: return nearest3d(s);
    case kModeTrilinear: return trilinear(s);
    case kModeTetrahedral: return tetrahedral(s);
    case kMode1DNearest: {
      uvec3 i = uvec3(s + 0.5);
      return vec3(table[i.r].r, table[i.g].g, table[i.b].b);
    }
    default: return vec3(linear1d(s.r, 0u), linear1d(s.g, 1u), linear1d(s.b, 2u));  // kMode1DLinear
  }
}

// The graded colour of `rgb`, in code values of DEPTH bits.
uvec3 grade(uvec3 rgb) {
  const float top = float((1u << DEPTH) - 1u);
  vec3 v = vec3(rgb) * (1.0 / top);
  vec3 graded = MIXED ? mix(v, lookup(v), p.intensity) : lookup(v);
  return uvec3(clamp(floor(graded * top + 0.5), 0.0, top));
}

// One pixel (in the low BPP bytes of `px`) with its colour replaced; ORDER holds the first bit
// of R, G and B.
uint transform(uint px) {
  const uint mask = (1u << DEPTH) - 1u;
  const uint ri = ORDER & 0xffu, gi = (ORDER >> 8) & 0xffu, bi = (ORDER >> 16) & 0xffu;
  uvec3 o = grade(uvec3((px >> ri) & mask, (px >> gi) & mask, (px >> bi) & mask));
  uint keep = ~((mask << ri) | (mask << gi) | (mask << bi));
  return (px & keep) | (o.r << ri) | (o.g << gi) | (o.b << bi);
}

// A 64-bit pixel (RGBA64_LE: R, G, B, A 16-bit words), its alpha word kept.
uvec2 transform64(uvec2 px) {
  uvec3 o = grade(uvec3(px.x & 0xffffu, px.x >> 16, px.y & 0xffffu));
  return uvec2(o.r | (o.g << 16), o.b | (px.y & 0xffff0000u));
}

// 24-bit formats: each workgroup row's 3 x local_size_x words. The element specializes the
// workgroup to kGroupX x kGroupY.
shared uint s_words[kGroupY][3u * kGroupX];

void main() {
  uint y = gl_GlobalInvocationID.y;
  bool in_frame = y < p.height;
  if (BPP == 8u) {
    if (!in_frame) return;
    // As 4 bytes below, a pair of words a pixel; whole 8-byte accesses where the rows allow.
    uint in_row = p.src_offset + y * p.src_stride;
    uint out_row = p.dst_offset + y * p.dst_stride;
    bool in_pairs = (in_row & 7u) == 0u, out_pairs = (out_row & 7u) == 0u;
    uint x = gl_WorkGroupID.x * gl_WorkGroupSize.x * kPixelsPerInvocation + gl_LocalInvocationID.x;
    for (uint k = 0u; k < kPixelsPerInvocation; ++k, x += gl_WorkGroupSize.x) {
      if (x >= p.width) break;
      uint at = in_row + 8u * x;
      uvec2 px = transform64(in_pairs ? src2[at >> 3] : uvec2(load_word(at), load_word(at + 4u)));
      uint to = out_row + 8u * x;
      if (out_pairs) {
        dst2[to >> 3] = px;
      } else {
        dst[to >> 2] = px.x;
        dst[(to >> 2) + 1u] = px.y;
      }
    }
    return;
  }
  if (BPP == 4u) {
    if (!in_frame) return;  // no barrier on this path
    // A workgroup covers 4 * width pixels; its invocations take consecutive pixels in each of 4
    // passes, so every load and store of a subgroup is one contiguous run of words.
    uint in_row = p.src_offset + y * p.src_stride;
    uint out_row = (p.dst_offset + y * p.dst_stride) >> 2;
    // One pixel after another. Loading all four words first, then looking up, then storing
    // (more of each invocation's memory accesses in flight) made single lut elements, which read
    // and write host memory, 14 % slower (NVIDIA H100: 2 781 against 3 221 frames/s at 1080p), for
    // 1-2 us less inside a chain.
    uint x = gl_WorkGroupID.x * gl_WorkGroupSize.x * kPixelsPerInvocation + gl_LocalInvocationID.x;
    for (uint k = 0u; k < kPixelsPerInvocation; ++k, x += gl_WorkGroupSize.x)
      if (x < p.width) dst[out_row + x] = transform(load_word(in_row + 4u * x));
    return;
  }
  // Four 3-byte pixels in three words. Bytes past the row's end land in its stride padding: they
  // are written as zero, whatever the input's padding held, so that equal frames give equal buffers.
  const uint W = gl_WorkGroupSize.x;
  uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
  uint row_words = (p.width * 3u + 3u) / 4u;
  uint first = gl_WorkGroupID.x * 3u * W;  // the workgroup's first word in the row
  uint in_row = p.src_offset + y * p.src_stride;
  uint out_row = (p.dst_offset + y * p.dst_stride) >> 2;
  for (uint k = 0u; k < 3u; ++k) {
    uint w = first + k * W + lx;
    s_words[ly][k * W + lx] = in_frame && w < row_words ? load_word(in_row + 4u * w) : 0u;
  }
  barrier();
  uint x0 = gl_GlobalInvocationID.x * 4u;
  if (in_frame && x0 < p.width) {
    uint w[3] = uint[3](s_words[ly][3u * lx], s_words[ly][3u * lx + 1u], s_words[ly][3u * lx + 2u]);
    uint o[3] = uint[3](0u, 0u, 0u);
    for (uint k = 0u; k < 4u; ++k) {
      if (x0 + k >= p.width) break;
      uint px = 0u;
      for (uint c = 0u; c < 3u; ++c) px |= byte_of(w[(3u * k + c) >> 2], (3u * k + c) & 3u) << (8u * c);
      px = transform(px);
      for (uint c = 0u; c < 3u; ++c)
        o[(3u * k + c) >> 2] |= ((px >> (8u * c)) & 0xffu) << (8u * ((3u * k + c) & 3u));
    }
    for (uint k = 0u; k < 3u; ++k) s_words[ly][3u * lx + k] = o[k];
  }
  barrier();
  for (uint k = 0u; k < 3u; ++k) {
    uint w = first + k * W + lx;
    if (in_frame && w < row_words) dst[out_row + w] = s_words[ly][k * W + lx];
  }
}
