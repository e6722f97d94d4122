#version 450
// lumamax, pass 2: one workgroup combines the per-tile results of the scan (or rescan).
//
// FULL (after the scan): the frame's maximum, minimum and sum, and peak 0 = the maximum.
// Otherwise (after the rescan for peak k - 1): peak k = the largest key among tiles, or the zero
// key when every remaining pixel is suppressed.
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 256) in;
layout(constant_id = 0) const bool FULL = true;

layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };  // unused; shares the scan's layout
layout(set = 0, binding = 1) buffer Scratch { uint scratch[]; };

#include "include/lumamax.glsl"

layout(push_constant) uniform Params {
  uint tiles;
  uint peak;  // index of the peak this pass chooses
} p;

shared uvec2 s_max[256];
shared uvec2 s_min[256];
shared uvec2 s_sum[256];

uvec2 load2(uint at) { return uvec2(scratch[at], scratch[at + 1u]); }

void main() {
  uint i = gl_LocalInvocationIndex;
  uvec2 mx = uvec2(0u), mn = uvec2(0u), sum = uvec2(0u);
  for (uint t = i; t < p.tiles; t += 256u) {
    mx = key_max(mx, load2(kTiles + 2u * t));
    if (FULL) {
      mn = key_max(mn, load2(kTiles + 2u * p.tiles + 2u * t));
      sum = add64(sum, uvec2(scratch[kTiles + 4u * p.tiles + t], 0u));
    }
  }
  s_max[i] = mx;
  s_min[i] = mn;
  s_sum[i] = sum;
  barrier();
  for (uint half_ = 128u; half_ > 0u; half_ >>= 1) {
    if (i < half_) {
      s_max[i] = key_max(s_max[i], s_max[i + half_]);
      s_min[i] = key_max(s_min[i], s_min[i + half_]);
      s_sum[i] = add64(s_sum[i], s_sum[i + half_]);
    }
    barrier();
  }
  if (i == 0u) {
    uvec2 best = s_max[0];
    scratch[kPeaks + 2u * p.peak] = best.x;
    scratch[kPeaks + 2u * p.peak + 1u] = best.y;
    if (FULL) {
      scratch[0] = best.x;
      scratch[1] = best.y;
      scratch[2] = s_min[0].x;
      scratch[3] = s_min[0].y;
      scratch[4] = s_sum[0].x;
      scratch[5] = s_sum[0].y;
    }
  }
}
