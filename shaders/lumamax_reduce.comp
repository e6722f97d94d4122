#version 450
// lumamax, pass 2: one workgroup combines the per-tile results of the scan (or rescan).
//
// FULL (after the scan): the frame's maximum, minimum and sum, and peak 0 = the maximum.
// Otherwise (after the rescan for peak k - 1): peak k = the largest key among tiles, or the zero
// key when every remaining pixel is suppressed.
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
  uvec2 best, least, total;
  reduce_tiles(p.tiles, FULL, best, least, total);
  if (gl_LocalInvocationIndex == 0u) {
    uvec2 peak = best.x >= p.peak_floor ? best : uvec2(0u);
    scratch[kPeaks + 2u * p.peak] = peak.x;
    scratch[kPeaks + 2u * p.peak + 1u] = peak.y;
    if (FULL) {
      scratch[kMaxKey] = best.x;
      scratch[kMaxKey + 1u] = best.y;
      scratch[kMinKey] = least.x;
      scratch[kMinKey + 1u] = least.y;
      scratch[kLumaSum] = total.x;
      scratch[kLumaSum + 1u] = total.y;
    }
  }
}
