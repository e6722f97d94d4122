// Shared by the lumamax kernels: 64-bit ordering keys as uvec2, and the reduction of the tiles.
// The scratch buffer's layout and the constants are in lumamax_layout.h.
//
// A key orders pixels for a maximum: x = the value to maximize, y = ~(frame raster index), so that
// among equal values the first pixel in raster order has the larger key. The zero key means "no
// pixel" (a raster index of 0xffffffff cannot occur: frames are limited to 2^32 - 1 pixels).
#include "lumamax_layout.h"

bool key_greater(uvec2 a, uvec2 b) { return a.x > b.x || (a.x == b.x && a.y > b.y); }
uvec2 key_max(uvec2 a, uvec2 b) { return key_greater(a, b) ? a : b; }

// 64-bit sum as (lo, hi).
uvec2 add64(uvec2 a, uvec2 b) {
  uint carry;
  uint lo = uaddCarry(a.x, b.x, carry);
  return uvec2(lo, a.y + b.y + carry);
}

#ifdef TILE_REDUCTION
// Needs `scratch`. Combines the slots of `tiles` tiles; every invocation of a workgroup of
// kGroupInvocations calls it and gets the largest key and, when `full`, the smallest key and the sum.
shared uvec2 r_max[kGroupInvocations];
shared uvec2 r_min[kGroupInvocations];
shared uvec2 r_sum[kGroupInvocations];

void reduce_tiles(uint tiles, bool full, out uvec2 best, out uvec2 least, out uvec2 total) {
  uint i = gl_LocalInvocationIndex;
  uvec2 mx = uvec2(0u), mn = uvec2(0u), sum = uvec2(0u);
  for (uint t = i; t < tiles; t += kGroupInvocations) {
    mx = key_max(mx, uvec2(scratch[kTiles + 2u * t], scratch[kTiles + 2u * t + 1u]));
    if (full) {
      mn = key_max(mn, uvec2(scratch[kTiles + 2u * tiles + 2u * t], scratch[kTiles + 2u * tiles + 2u * t + 1u]));
      sum = add64(sum, uvec2(scratch[kTiles + 4u * tiles + t], 0u));
    }
  }
  r_max[i] = mx;
  r_min[i] = mn;
  r_sum[i] = sum;
  barrier();
  for (uint half_ = kGroupInvocations / 2u; half_ > 0u; half_ >>= 1) {
    if (i < half_) {
      r_max[i] = key_max(r_max[i], r_max[i + half_]);
      r_min[i] = key_max(r_min[i], r_min[i + half_]);
      r_sum[i] = add64(r_sum[i], r_sum[i + half_]);
    }
    barrier();
  }
  best = r_max[0];
  least = r_min[0];
  total = r_sum[0];
}
#endif
