#version 450
// lumamax, pass 1 (scan) and the per-peak rescan.
//
// Scan: one workgroup per tile (kTileWidth x kTileHeight, lumamax_layout.h) of the region of
// interest; each invocation reads kPixelsPerInvocation pixels of a row as 32-bit words, computes
// their luma L and reduces (subgroup operations where the device has them, shared memory
// otherwise) to the tile's maximum key, minimum key and sum of L >> kLumaSumShift, written to the tile's
// slots: no global atomics, and the order of summation is fixed, so results do not depend on
// scheduling. The reduce pass combines the tiles.
//
// Finish (push constant `finish`, count = 1 where lumamax_frame.comp does not apply: several
// regions, pixels of 3 or 8 bytes): the last workgroup to finish (counted by an atomic) also does
// the reduce pass's work and writes the frame's results to the host-visible result buffer
// (include/lumamax.glsl's finish_region), so a frame is one dispatch with no barrier or transfer
// between frames. Peak 0 is the maximum, or "no pixel" (the zero key) when the maximum is below
// `peak_floor`.
//
// Rescan (RESCAN): after peak k was chosen, only the tiles within min-distance of it can change.
// The dispatch covers those tiles; each recomputes its maximum over the pixels that no chosen peak
// suppresses (squared distance < min_dist2).
//
// Several regions (p.regions > 0, lumamax_layout.h): the scan's workgroups cover the tiles of every
// region, each region's last workgroup finishing that region; a rescan covers the same window of
// tiles in each region, rescan_rows rows of workgroups per region.
#extension GL_GOOGLE_include_directive : require
#ifdef SUBGROUPS
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif
#include "lumamax_layout.h"

layout(local_size_x_id = 0, local_size_y_id = 1) in;  // kScanGroupX x kScanGroupY
layout(constant_id = 2) const uint BPP = 1;  // 1 or 2 (Y plane, GRAY8, GRAY16), 3, 4 or 8 (RGB)
layout(constant_id = 3) const bool RESCAN = false;
layout(constant_id = 4) const uint SAMPLE_BYTES = 1;  // 1, 2 or 4 (BGR10A2_LE's packed word)
layout(constant_id = 5) const bool RGB = false;       // luma from R, G, B; else the Y sample

layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) coherent buffer Scratch { uint scratch[]; };
layout(set = 0, binding = 2) readonly buffer Src4 { uvec4 src4[]; };  // src again, for 16-byte loads
// Host-visible scratch[0..kTiles) when `finish` is set; otherwise the scratch buffer, never written here.
layout(set = 0, binding = 3) writeonly buffer Result { uint result[]; };

#define SRC_VEC4
#include "include/words.glsl"
#define TILE_REDUCTION
#define FINISH
#include "include/lumamax.glsl"

layout(push_constant) uniform PushConstants { ScanParams p; };

shared ivec2 s_peaks[kMaxPeaks];

// Value c (R, G, B; or Y) of a pixel whose sample starts at byte `index` of the words, at any depth.
uint value_of(uint w[8], uint index, uint c) {
  return (sample_of(w, index, SAMPLE_BYTES, BPP <= 4u) >> ((p.shifts >> (8u * c)) & 0xffu)) & p.value_mask;
}

uint luma_of(uint w[8], uint k) {
  uint b = k * BPP;
  if (SAMPLE_BYTES == 1u) {  // 8-bit samples
    uint w4[4] = uint[4](w[0], w[1], w[2], w[3]);
    if (!RGB) return byte_of4(w4, k) << kLumaBits;
    return p.kr * byte_of4(w4, b + (p.order & 0xffu)) + p.kg * byte_of4(w4, b + ((p.order >> 8) & 0xffu)) +
           p.kb * byte_of4(w4, b + ((p.order >> 16) & 0xffu));
  }
  // Deeper: L < 2^16 << kLumaBits still fits 32 bits (the coefficients sum to 1 << kLumaBits).
  if (!RGB) return value_of(w, b, 0u) << kLumaBits;
  return p.kr * value_of(w, b + (p.order & 0xffu), 0u) + p.kg * value_of(w, b + ((p.order >> 8) & 0xffu), 1u) +
         p.kb * value_of(w, b + ((p.order >> 16) & 0xffu), 2u);
}

ivec2 position_of(uvec2 key) {
  uint index = ~key.y;
  return ivec2(index % p.width, index / p.width);
}

bool suppressed(ivec2 pos) {
  for (uint j = 0u; j <= p.peak; ++j) {
    ivec2 d = pos - s_peaks[j];
    if (uint(d.x * d.x + d.y * d.y) < p.min_dist2) return true;
  }
  return false;
}

void main() {
  // This workgroup's region and its tile in it.
  Region region = Region(p.roi_x0, p.roi_y0, p.roi_x1, p.roi_y1, p.tiles_x, p.tiles, 0u, 0u);
  uvec2 tile = gl_WorkGroupID.xy;
  if (p.regions != 0u) {
    if (RESCAN) {
      uint r = p.region_base + gl_WorkGroupID.y / p.rescan_rows;
      if (r >= p.regions) return;  // the whole workgroup
      region = table_region(p.table, r);
      tile.y = gl_WorkGroupID.y % p.rescan_rows;
    } else {
      uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
      if (g >= p.tiles_total) return;  // the whole workgroup: the grid's last row is not full
      region = table_region(p.table, region_of_tile(p.table, p.regions, g));
      uint t = g - region.first_tile;
      tile = uvec2(t % region.tiles_x, t / region.tiles_x);
    }
  }
  bool in_play = true;
  if (RESCAN) {
    // Tiles that may hold pixels the newest peak suppresses; none when there was no new peak.
    uint peaks = region.block + kPeaks;
    uvec2 newest = uvec2(scratch[peaks + 2u * p.peak], scratch[peaks + 2u * p.peak + 1u]);
    ivec2 at = position_of(newest);
    int lo_x = max(at.x - int(p.reach), int(region.x0)), hi_x = min(at.x + int(p.reach), int(region.x1) - 1);
    int lo_y = max(at.y - int(p.reach), int(region.y0)), hi_y = min(at.y + int(p.reach), int(region.y1) - 1);
    uvec2 first = uvec2(lo_x - int(region.x0), lo_y - int(region.y0)) / uvec2(kTileWidth, kTileHeight);
    uvec2 last = uvec2(hi_x - int(region.x0), hi_y - int(region.y0)) / uvec2(kTileWidth, kTileHeight);
    tile += first;
    in_play = newest != uvec2(0u) && tile.x <= last.x && tile.y <= last.y;
    if (gl_LocalInvocationIndex <= p.peak) {
      uvec2 key = uvec2(scratch[peaks + 2u * gl_LocalInvocationIndex], scratch[peaks + 2u * gl_LocalInvocationIndex + 1u]);
      s_peaks[gl_LocalInvocationIndex] = position_of(key);
    }
    barrier();
  }

  uvec2 mx = uvec2(0u), mn = uvec2(0u), sum = uvec2(0u);  // a tile's sum is below 2^26: sum.x
  uint x0 = region.x0 + tile.x * kTileWidth + gl_LocalInvocationID.x * kPixelsPerInvocation;
  uint y = region.y0 + tile.y * kTileHeight + gl_LocalInvocationID.y;
  if (in_play && x0 < region.x1 && y < region.y1) {
    uint addr = p.offset + y * p.stride + x0 * BPP;
    uint w[8];
    load_words(addr, BPP, w);  // the four pixels: BPP words
    for (uint k = 0u; k < kPixelsPerInvocation; ++k) {
      uint x = x0 + k;
      if (x >= region.x1) break;
      uint L = luma_of(w, k);
      uint not_index = ~(y * p.width + x);
      if (RESCAN && suppressed(ivec2(x, y))) continue;
      mx = key_max(mx, uvec2(L, not_index));
      mn = key_max(mn, uvec2(p.max_luma - L, not_index));
      sum.x += L >> p.sum_shift;
    }
  }
  reduce_group(mx, mn, sum);

  uint t = region.first_tile + tile.y * region.tiles_x + tile.x;
  if (gl_LocalInvocationIndex == 0u && in_play)
    store_slot(p.tiles_base, p.tiles_total, t, !RESCAN, 1u, mx, mn, sum);
  if (p.finish != 0u)
    finish_region(region.block, p.tiles_base, p.tiles_total, region.first_tile, region.tiles, 1u, p.peak_floor);
}
