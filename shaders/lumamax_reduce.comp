#version 450
// lumamax, pass 2: one workgroup combines the per-tile results of the scan (or rescan).
//
// FULL (after the scan): the frame's maximum, minimum and sum, and peak 0 = the maximum.
// Otherwise (after the rescan for peak k - 1): peak k = the largest key among tiles, or the zero
// key when every remaining pixel is suppressed. With several regions, one workgroup per region.
// A peak darker than `peak_floor` is the zero key too: peaks come in non-increasing L, so every
// later one would be as well (their rescans then skip every tile, and their reductions find the
// same key below the floor).
#extension GL_GOOGLE_include_directive : require
#include "lumamax_layout.h"

layout(local_size_x = kGroupInvocations) in;
layout(constant_id = 0) const bool FULL = true;

layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };  // unused; shares the scan's layout
layout(set = 0, binding = 1) buffer Scratch { uint scratch[]; };

#define TILE_REDUCTION
#include "include/lumamax.glsl"

layout(push_constant) uniform PushConstants { ReduceParams p; };

void main() {
  // One region, block 0; or one workgroup per region of the table.
  Region region = Region(0u, 0u, 0u, 0u, 0u, p.tiles, 0u, 0u);
  if (p.regions != 0u) region = table_region(p.table, gl_WorkGroupID.x);
  uvec2 best, least, total;
  reduce_tiles(p.tiles_base, p.tiles_total, region.first_tile, region.tiles, FULL, 1u, best, least, total);
  if (gl_LocalInvocationIndex == 0u) {
    uint b = region.block;
    uvec2 peak = best.x >= p.peak_floor ? best : uvec2(0u);
    scratch[b + kPeaks + 2u * p.peak] = peak.x;
    scratch[b + kPeaks + 2u * p.peak + 1u] = peak.y;
    if (FULL) {
      scratch[b + kMaxKey] = best.x;
      scratch[b + kMaxKey + 1u] = best.y;
      scratch[b + kMinKey] = least.x;
      scratch[b + kMinKey + 1u] = least.y;
      scratch[b + kLumaSum] = total.x;
      scratch[b + kLumaSum + 1u] = total.y;
    }
  }
}
