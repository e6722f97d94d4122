#version 450
// lumamax with count = 1 over the frame or one region of interest, pixels of 1, 2 or 4 bytes: the
// maximum key, minimum key and sum of one frame in one dispatch of a bounded grid. (Peaks, several
// regions and 3- or 8-byte pixels take lumamax_scan.comp's tiles.)
//
// The region's rows, laid end to end, are a sequence of kLoadBytes (16-byte) loads, each row's
// first at its first pixel; a tile is kGroupInvocations consecutive loads, one per invocation. The
// grid has at most kFrameGroups workgroups, which stride over the tiles: workgroup w takes tiles
// w, w + G, w + 2G, ... (G its workgroups), kFrameLoads of them at a time, each invocation issuing
// its kFrameLoads loads before it uses any, so that several are in flight. A bounded grid means
// few partials for the last workgroup to combine, and no frame too tall for one dispatch.
//
// Every load of the sequence lies after the ones before it in raster order, so each invocation
// meets its pixels in raster order: it keeps its largest and smallest luma and where they are as
// plain values, and a strict comparison keeps the first of equal pixels, as the keys do
// (include/lumamax.glsl). Keys are formed once per invocation and combined across the workgroup
// (subgroup arithmetic where the device has it, shared memory otherwise); sums are 64-bit. The
// channels' places in a pixel are specialization constants, so a value is one shift and mask at a
// place known when the pipeline is compiled.
//
// Invocation 0 stores the workgroup's partial (kWordsPerPartial); the last workgroup to finish
// combines them and writes the results for the CPU as the scan's finish does (lumamax_layout.h).
//
// A row whose first byte is not 16-byte aligned (an odd plane offset, stride or region start) is
// read word by word, as is a load that would reach past the buffer (include/words.glsl).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#ifdef SUBGROUPS
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
#include "lumamax_layout.h"

layout(local_size_x = kGroupInvocations) in;
layout(constant_id = 0) const uint BPP = 4u;     // 1 or 2 (Y samples), 4 (RGB)
layout(constant_id = 1) const bool RGB = true;   // luma from R, G, B; else the Y sample
layout(constant_id = 2) const uint ORDER = 0u;   // byte of R, G, B (or Y) in a pixel, 8 bits each
layout(constant_id = 3) const uint SHIFTS = 0u;  // their values' shifts in their samples, 8 bits each

layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) coherent buffer Scratch { uint scratch[]; };
layout(set = 0, binding = 2) readonly buffer Src4 { uvec4 src4[]; };  // src again, for 16-byte loads
layout(set = 0, binding = 3) writeonly buffer Result { uint result[]; };  // host-visible scratch[0..kTiles)

#define SRC_VEC4
#include "include/words.glsl"
#include "include/frame_loads.glsl"
#define TILE_REDUCTION
#define FINISH
#include "include/lumamax.glsl"

layout(push_constant) uniform PushConstants { FrameParams p; };

const uint kPixelsPerLoad = kLoadBytes / BPP;
// Where value c (R, G, B; or Y as c = 0) starts in a pixel's bits.
const uint kBit0 = 8u * (ORDER & 0xffu) + (SHIFTS & 0xffu);
const uint kBit1 = 8u * ((ORDER >> 8) & 0xffu) + ((SHIFTS >> 8) & 0xffu);
const uint kBit2 = 8u * ((ORDER >> 16) & 0xffu) + ((SHIFTS >> 16) & 0xffu);

// The value at bit `at` of pixel k of a load: constant places once the loops are unrolled.
uint value_of(uvec4 w, uint k, uint at) {
  uint bit = k * BPP * 8u + at;
  return (w[bit >> 5] >> (bit & 31u)) & p.value_mask;
}

// L of pixel k of a load (analysis_layout.h). Deep samples: L < 2^16 << kLumaBits fits 32 bits
// (the coefficients sum to 1 << kLumaBits).
uint luma_of(uvec4 w, uint k) {
  if (!RGB) return value_of(w, k, kBit0) << kLumaBits;
  return p.kr * value_of(w, k, kBit0) + p.kg * value_of(w, k, kBit1) + p.kb * value_of(w, k, kBit2);
}

void main() {
  LoadWalk walk = start_walk(p.row_loads);  // this invocation's loads (include/frame_loads.glsl)
  bool reads = walk.row < p.rows;

  // Its first pixel stands for both extremes until a pixel beats it: where every pixel is equal
  // (all black, all white), it is the first of them.
  uint best = 0u, least = p.max_luma;
  uint best_at = (p.y0 + walk.row) * p.width + p.x0 + walk.col * kPixelsPerLoad, least_at = best_at;
  uvec2 sum = uvec2(0u);
  while (walk.row < p.rows) {
    uvec4 words[kFrameLoads];
    uint at[kFrameLoads];      // raster index of each load's first pixel
    uint pixels[kFrameLoads];  // its pixels in the region: 0 past the region's end
    [[unroll]] for (uint l = 0u; l < kFrameLoads; ++l) {
      words[l] = uvec4(0u);
      at[l] = 0u;
      pixels[l] = 0u;
      if (walk.row < p.rows) {
        uint x = p.x0 + walk.col * kPixelsPerLoad, y = p.y0 + walk.row;
        words[l] = load16(p.offset + y * p.stride + x * BPP);
        at[l] = y * p.width + x;
        pixels[l] = min(kPixelsPerLoad, p.x1 - x);
      }
      advance(walk);
    }
    uint loads_sum = 0u;  // at most kFrameLoads * 16 values below 2^16
    [[unroll]] for (uint l = 0u; l < kFrameLoads; ++l) {
      [[unroll]] for (uint k = 0u; k < kPixelsPerLoad; ++k) {
        if (k < pixels[l]) {
          uint L = luma_of(words[l], k);
          if (L > best) {
            best = L;
            best_at = at[l] + k;
          }
          if (L < least) {
            least = L;
            least_at = at[l] + k;
          }
          loads_sum += L >> p.sum_shift;
        }
      }
    }
    sum = add64(sum, uvec2(loads_sum, 0u));
  }

  uvec2 mx = reads ? uvec2(best, ~best_at) : uvec2(0u);
  uvec2 mn = reads ? uvec2(p.max_luma - least, ~least_at) : uvec2(0u);
  reduce_group(mx, mn, sum);
  uint groups = gl_NumWorkGroups.x;
  if (gl_LocalInvocationIndex == 0u) store_slot(p.partials, groups, gl_WorkGroupID.x, true, 2u, mx, mn, sum);
  finish_region(0u, p.partials, groups, 0u, groups, 2u, p.peak_floor);
}
