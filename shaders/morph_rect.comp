#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#ifdef HALF_LANES
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
// Erosion or dilation with a rectangle of up to 2 * kRectMaxHalf + 1 pixels each way, in one pass:
// a workgroup produces a tile of the output from the tile and its border, columns first, then rows.
//
// Columns: each invocation takes one column of the padded tile (the tile and HALF_W columns each
// side) and STRIP output rows, reads its STRIP + 2 * HALF_H samples straight from the image
// (neighbouring invocations read neighbouring words of a row) and keeps them in registers. Rows:
// the columns' results go through shared memory once, and each invocation takes SEGMENT
// consecutive outputs of a tile row, again in registers. Both steps cost about three operations an
// output whatever the rectangle (window_extremes()), and the frame is read once and written once,
// where the separable line passes write and read a working image between two dispatches.
//
// The kernel is specialized to the rectangle (HALF_W, HALF_H) and the operation (DILATE), so that
// its loops unroll, every array stays in registers and no operation is chosen per sample; the
// element keeps one pipeline a rectangle and operation and takes the line passes beyond
// kRectMaxHalf. H200, 16 frames in device memory, dilate at 1080p (runs 238-240): 9x9 26.8 us a
// frame with the line passes, 15.2 in one pass, 14.3 with the operation constant, 13.3 on 16-bit
// float lanes (31x31: 30.8, 24.7, 23.5, 20.4). One plain max a word in place of the lanes (wrong
// for RGBA, timing only): 10.5 and 15.7; all four lanes as 16-bit floats at once, two registers a
// pixel: 27.6 and 42.4.

#include "morph_layout.h"

layout(local_size_x_id = 0, local_size_y_id = 1) in;  // padded tile width x strips
layout(constant_id = 2) const bool ONE_LANE = false;   // see include/morph.glsl
layout(constant_id = 3) const uint LANE_BITS = 8;      // 8, 10 or 16: see include/morph.glsl
layout(constant_id = 4) const uint HALF_W = 1;
layout(constant_id = 5) const uint HALF_H = 1;
layout(constant_id = 6) const uint STRIP = 8;    // output rows an invocation filters along its column
layout(constant_id = 7) const uint SEGMENT = 8;  // output columns an invocation filters along its row
layout(constant_id = 8) const uint SAMPLES = 16;  // at least STRIP + 2 HALF_H and SEGMENT + 2 HALF_W
layout(constant_id = 9) const bool DILATE = true;  // max (dilation) or min (erosion)

layout(set = 0, binding = 0) restrict readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) restrict writeonly buffer Dst { uint dst[]; };
layout(set = 0, binding = 2) restrict readonly buffer Other { uint other[]; };  // keep: lanes from here

#include "include/morph.glsl"

layout(push_constant) uniform PushConstants { RectParams p; };

const uint PADDED_W = gl_WorkGroupSize.x;
const uint GROUP = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
const uint TILE_W = PADDED_W - 2u * HALF_W;
const uint TILE_H = gl_WorkGroupSize.y * STRIP;
const uint SEGMENTS = GROUP / TILE_H;  // invocations a tile row (the element makes it exact)
const uint PITCH = PADDED_W + 1u;      // a row's words in s_tile: neighbouring rows in other banks
const uint STORE_ROUNDS = (TILE_W * TILE_H + GROUP - 1u) / GROUP;

// The columns' results, TILE_H rows of the padded tile; then the tile's outputs.
shared uint s_tile[TILE_H * PITCH];

// A pixel's minimum or maximum. HALF_LANES (four 8-bit lanes, devices with shaderFloat16): a word
// holds two lanes as 16-bit floats 1024 + value (the lane under the exponent of 1024: exact and
// ordered as the values are), filtered by one packed float instruction, where the lane-wise compare
// of include/morph.glsl takes about eight integer ones for all four lanes.
uint sample_op(uint a, uint b) {
#ifdef HALF_LANES
  f16vec2 x = unpackFloat2x16(a), y = unpackFloat2x16(b);
  return packFloat2x16(DILATE ? max(x, y) : min(x, y));
#else
  return morph_op(DILATE, a, b);
#endif
}

// v[j], for the first `outputs` j, becomes the extreme of v[j .. j + 2 half] (van Herk /
// Gil-Werman): cut the samples into blocks of k = 2 half + 1; a window starting inside a block is
// the suffix of that block from its start joined with the prefix of the next block up to its end.
// Called with constant `half` and `outputs`, the loops unroll and the arrays stay in registers.
void window_extremes(inout uint v[SAMPLES], uint half_k, uint outputs) {
  const uint k = 2u * half_k + 1u, n = outputs + 2u * half_k;
  uint suffix[SAMPLES], prefix[SAMPLES];
  [[unroll]] for (uint r = 0u; r < SAMPLES; ++r) {
    uint i = SAMPLES - 1u - r;
    if (i >= n) continue;
    bool block_end = (i + 1u) % k == 0u || i + 1u == n;
    suffix[i] = block_end ? v[i] : sample_op(v[i], suffix[min(i + 1u, SAMPLES - 1u)]);
  }
  [[unroll]] for (uint i = 0u; i < SAMPLES; ++i) {
    if (i >= n) break;
    prefix[i] = i % k == 0u ? v[i] : sample_op(prefix[max(i, 1u) - 1u], v[i]);
  }
  [[unroll]] for (uint j = 0u; j < SAMPLES; ++j) {
    if (j >= outputs) break;
    v[j] = j % k == 0u ? suffix[j] : sample_op(suffix[j], prefix[j + 2u * half_k]);
  }
}

// window_extremes() of pixel words. HALF_LANES: bytes 0 and 2 of each word, then 1 and 3, each
// pair as two 16-bit floats.
void filter_samples(inout uint v[SAMPLES], uint half_k, uint outputs) {
#ifdef HALF_LANES
  const uint kHalf1024 = 0x64006400u;  // 1024 in both halves
  uint even[SAMPLES], odd[SAMPLES];
  [[unroll]] for (uint i = 0u; i < SAMPLES; ++i) {
    even[i] = (v[i] & 0x00ff00ffu) | kHalf1024;
    odd[i] = ((v[i] >> 8) & 0x00ff00ffu) | kHalf1024;
  }
  window_extremes(even, half_k, outputs);
  window_extremes(odd, half_k, outputs);
  [[unroll]] for (uint j = 0u; j < SAMPLES; ++j)
    if (j < outputs) v[j] = (even[j] & 0x00ff00ffu) | ((odd[j] & 0x00ff00ffu) << 8);
#else
  window_extremes(v, half_k, outputs);
#endif
}

void main() {
  uint ident = morph_identity(DILATE);
  int x0 = int(gl_WorkGroupID.x * TILE_W), y0 = int(gl_WorkGroupID.y * TILE_H);
  uint lid = gl_LocalInvocationIndex;

  // Columns. Samples outside the frame are the identity: they never win.
  {
    uint column = gl_LocalInvocationID.x, first_row = gl_LocalInvocationID.y * STRIP;
    int x = x0 - int(HALF_W) + int(column);
    int top = y0 + int(first_row) - int(HALF_H);
    bool column_inside = x >= 0 && x < int(p.width);
    uint v[SAMPLES];
    [[unroll]] for (uint i = 0u; i < SAMPLES; ++i) {
      int y = top + int(i);
      bool inside = i < STRIP + 2u * HALF_H && column_inside && y >= 0 && y < int(p.height);
      v[i] = inside ? src[p.src_origin + uint(y) * p.src_stride + uint(x)] : ident;
    }
    filter_samples(v, HALF_H, STRIP);
    [[unroll]] for (uint j = 0u; j < STRIP; ++j) s_tile[(first_row + j) * PITCH + column] = v[j];
  }
  barrier();

  // Rows: SEGMENT outputs of tile row `row` from `first` on, written back over the row once every
  // invocation has read its samples.
  {
    uint row = lid / SEGMENTS, first = (lid % SEGMENTS) * SEGMENT;
    uint v[SAMPLES];
    [[unroll]] for (uint i = 0u; i < SAMPLES; ++i) v[i] = s_tile[row * PITCH + min(first + i, PADDED_W - 1u)];
    barrier();
    filter_samples(v, HALF_W, SEGMENT);
    [[unroll]] for (uint j = 0u; j < SEGMENT; ++j)
      if (first + j < TILE_W) s_tile[row * PITCH + first + j] = v[j];
  }
  barrier();

  // Out, consecutive invocations on consecutive words of a row; the lanes in `keep` (alpha,
  // padding) from the same pixel of `other`.
  uint values[STORE_ROUNDS], kept[STORE_ROUNDS];
  [[unroll]] for (uint t = 0u; t < STORE_ROUNDS; ++t) {
    uint i = lid + t * GROUP, r = i / TILE_W, c = i % TILE_W;
    uint x = uint(x0) + c, y = uint(y0) + r;
    bool inside = i < TILE_W * TILE_H && x < p.width && y < p.height;
    values[t] = inside ? s_tile[r * PITCH + c] : 0u;
    kept[t] = inside && p.keep != 0u ? other[p.other_origin + y * p.other_stride + x] : 0u;
  }
  [[unroll]] for (uint t = 0u; t < STORE_ROUNDS; ++t) {
    uint i = lid + t * GROUP, r = i / TILE_W, c = i % TILE_W;
    uint x = uint(x0) + c, y = uint(y0) + r;
    if (i < TILE_W * TILE_H && x < p.width && y < p.height)
      dst[p.dst_origin + y * p.dst_stride + x] = (values[t] & ~p.keep) | (kept[t] & p.keep);
  }
}
