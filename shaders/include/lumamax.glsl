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
// Needs `scratch`.

// A region: its rectangle, its tiles and where its results go (lumamax_layout.h).
struct Region {
  uint x0, y0, x1, y1;
  uint tiles_x, tiles, first_tile;
  uint block;  // word offset of its results
};

// Region r of the table at word `table` of the scratch buffer.
Region table_region(uint table, uint r) {
  uint a = table + r * kRegionWords;
  return Region(scratch[a + kRegionX0], scratch[a + kRegionY0], scratch[a + kRegionX1], scratch[a + kRegionY1],
                scratch[a + kRegionTilesX], scratch[a + kRegionTiles], scratch[a + kRegionFirstTile], r * kTiles);
}

// The region of the table's `regions` whose tiles hold tile `t` of all of them.
uint region_of_tile(uint table, uint regions, uint t) {
  uint lo = 0u, hi = regions - 1u;
  while (lo < hi) {
    uint mid = (lo + hi + 1u) / 2u;
    if (scratch[table + mid * kRegionWords + kRegionFirstTile] <= t)
      lo = mid;
    else
      hi = mid - 1u;
  }
  return lo;
}

// Combines the slots of `count` tiles from tile `first`, of a layout of `total` tiles at word
// `base`; every invocation of a workgroup of kGroupInvocations calls it and gets the largest key
// and, when `full`, the smallest key and the sum.
shared uvec2 r_max[kGroupInvocations];
shared uvec2 r_min[kGroupInvocations];
shared uvec2 r_sum[kGroupInvocations];

void reduce_tiles(uint base, uint total, uint first, uint count, bool full, out uvec2 best, out uvec2 least,
                  out uvec2 sum_out) {
  uint i = gl_LocalInvocationIndex;
  uvec2 mx = uvec2(0u), mn = uvec2(0u), sum = uvec2(0u);
  for (uint k = i; k < count; k += kGroupInvocations) {
    uint t = first + k;
    mx = key_max(mx, uvec2(scratch[base + 2u * t], scratch[base + 2u * t + 1u]));
    if (full) {
      mn = key_max(mn, uvec2(scratch[base + 2u * total + 2u * t], scratch[base + 2u * total + 2u * t + 1u]));
      sum = add64(sum, uvec2(scratch[base + 4u * total + t], 0u));
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
  sum_out = r_sum[0];
}
#endif
