// Shared by the lumamax kernels: 64-bit ordering keys as uvec2, the reduction of a workgroup's
// values, the slots of the tiles (or of the frame kernel's workgroups) and the last workgroup's
// finish. The scratch buffer's layout and the constants are in lumamax_layout.h.
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

// reduce_group()'s exchange: one entry per invocation (shared memory) or per subgroup.
shared uvec2 g_max[kGroupInvocations];
shared uvec2 g_min[kGroupInvocations];
shared uvec2 g_sum[kGroupInvocations];

#ifdef SUBGROUPS
// The subgroup's maximum key, minimum key and sum, in each of its invocations. The sums' low words
// are added as two 16-bit halves: a subgroup has at most 128 invocations, so no 32-bit add
// overflows; the high words add up to the high word of a sum below 2^48.
void reduce_subgroup(inout uvec2 mx, inout uvec2 mn, inout uvec2 sum) {
  uint hi = subgroupMax(mx.x);
  mx = uvec2(hi, subgroupMax(mx.x == hi ? mx.y : 0u));
  hi = subgroupMax(mn.x);
  mn = uvec2(hi, subgroupMax(mn.x == hi ? mn.y : 0u));
  uint low = subgroupAdd(sum.x & 0xffffu), middle = subgroupAdd(sum.x >> 16), high = subgroupAdd(sum.y);
  sum = add64(uvec2(low, high), uvec2(middle << 16, middle >> 16));
}
#endif

// Combines the values of every invocation of the workgroup (kGroupInvocations of them, all calling
// it); invocation 0 gets the workgroup's. Two calls need a barrier between them.
void reduce_group(inout uvec2 mx, inout uvec2 mn, inout uvec2 sum) {
#ifdef SUBGROUPS  // compiled twice: with subgroup arithmetic and without
  reduce_subgroup(mx, mn, sum);
  if (subgroupElect()) {
    g_max[gl_SubgroupID] = mx;
    g_min[gl_SubgroupID] = mn;
    g_sum[gl_SubgroupID] = sum;
  }
  barrier();
  if (gl_SubgroupID == 0u) {
    // Subgroup 0 folds the subgroups' values. Lavapipe's subgroups are its SIMD width, so a
    // workgroup may have more subgroups than a subgroup has invocations: each takes every
    // gl_SubgroupSize-th.
    mx = mn = sum = uvec2(0u);
    for (uint s = gl_SubgroupInvocationID; s < gl_NumSubgroups; s += gl_SubgroupSize) {
      mx = key_max(mx, g_max[s]);
      mn = key_max(mn, g_min[s]);
      sum = add64(sum, g_sum[s]);
    }
    reduce_subgroup(mx, mn, sum);
  }
#else
  // A tree: at each level the lower half takes in the upper half's entries, keeping its own
  // combined values in registers, so invocation 0 ends with the workgroup's.
  uint i = gl_LocalInvocationIndex;
  g_max[i] = mx;
  g_min[i] = mn;
  g_sum[i] = sum;
  barrier();
  for (uint half_ = kGroupInvocations / 2u; half_ > 0u; half_ >>= 1) {
    if (i < half_) {
      mx = key_max(mx, g_max[i + half_]);
      mn = key_max(mn, g_min[i + half_]);
      sum = add64(sum, g_sum[i + half_]);
      g_max[i] = mx;
      g_min[i] = mn;
      g_sum[i] = sum;
    }
    barrier();
  }
#endif
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

// Slot t of a layout of `total` slots at word `base` (lumamax_layout.h): the maximum key, and when
// `full` the minimum key and the sum, whose `sum_words` are 1 (the scan's tiles, below 2^32) or 2
// (the frame kernel's workgroups, kWordsPerPartial).
void store_slot(uint base, uint total, uint t, bool full, uint sum_words, uvec2 mx, uvec2 mn, uvec2 sum) {
  scratch[base + 2u * t] = mx.x;
  scratch[base + 2u * t + 1u] = mx.y;
  if (full) {
    scratch[base + 2u * total + 2u * t] = mn.x;
    scratch[base + 2u * total + 2u * t + 1u] = mn.y;
    scratch[base + 4u * total + sum_words * t] = sum.x;
    if (sum_words == 2u) scratch[base + 4u * total + 2u * t + 1u] = sum.y;
  }
}

// Combines `count` slots from slot `first` of that layout; every invocation of a workgroup of
// kGroupInvocations calls it, and invocation 0 gets the largest key and, when `full`, the smallest
// key and the sum.
void reduce_tiles(uint base, uint total, uint first, uint count, bool full, uint sum_words, out uvec2 best,
                  out uvec2 least, out uvec2 sum_out) {
  uvec2 mx = uvec2(0u), mn = uvec2(0u), sum = uvec2(0u);
  for (uint k = gl_LocalInvocationIndex; k < count; k += kGroupInvocations) {
    uint t = first + k;
    mx = key_max(mx, uvec2(scratch[base + 2u * t], scratch[base + 2u * t + 1u]));
    if (full) {
      mn = key_max(mn, uvec2(scratch[base + 2u * total + 2u * t], scratch[base + 2u * total + 2u * t + 1u]));
      uint s = base + 4u * total + sum_words * t;
      sum = add64(sum, uvec2(scratch[s], sum_words == 2u ? scratch[s + 1u] : 0u));
    }
  }
  reduce_group(mx, mn, sum);
  best = mx;
  least = mn;
  sum_out = sum;
}

#ifdef FINISH
// Needs `result`, the host-visible results.
shared bool s_last;

// Called by every workgroup of a region once invocation 0 has stored its slot (`count` slots of
// that layout from `first`, one per workgroup of the region): the last workgroup to arrive,
// counted at the region's kFinished (left at zero for the slot's next frame), combines them and
// writes the region's results at word `block` of `result`. Peak 0 is the maximum, or "no pixel"
// (the zero key) when the maximum is below `peak_floor`.
void finish_region(uint block, uint base, uint total, uint first, uint count, uint sum_words, uint peak_floor) {
  // Our slot is written before our count; whoever counts last in the region sees every slot.
  memoryBarrierBuffer();
  barrier();
  if (gl_LocalInvocationIndex == 0u) s_last = atomicAdd(scratch[block + kFinished], 1u) == count - 1u;
  barrier();
  if (s_last) {
    memoryBarrierBuffer();
    uvec2 best, least, sum;
    reduce_tiles(base, total, first, count, true, sum_words, best, least, sum);
    if (gl_LocalInvocationIndex == 0u) {
      result[block + kMaxKey] = best.x;
      result[block + kMaxKey + 1u] = best.y;
      result[block + kMinKey] = least.x;
      result[block + kMinKey + 1u] = least.y;
      result[block + kLumaSum] = sum.x;
      result[block + kLumaSum + 1u] = sum.y;
      uvec2 peak = best.x >= peak_floor ? best : uvec2(0u);
      result[block + kPeaks] = peak.x;
      result[block + kPeaks + 1u] = peak.y;
      scratch[block + kFinished] = 0u;
    }
  }
}
#endif
#endif
