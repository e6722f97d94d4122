#version 450
// histogram: per-channel counts of one plane's region of interest. (256 bins of 8-bit samples in
// pixels of 1, 2 or 4 bytes over one region take histogram_fast8.comp, with the same counts and
// finish.)
//
// Each workgroup counts a kBlockWidth x kBlockHeight block (histogram_layout.h) of the region into
// its own histograms in shared memory (cleared first, so no count is lost whatever the block's
// position), then adds its non-zero bins to the frame's histograms in device memory with one atomic
// each. The last workgroup to finish (over all of the frame's dispatches, counted by an atomic)
// moves the histograms into the host-visible result buffer and leaves them and the counter zeroed
// for the slot's next frame, so a frame is one dispatch per plane with no barrier or transfer
// between frames. A plane of a pixel holds up to four channels (R, G, B, A or U, V or Y); RGB
// planes also count the luma computed from R, G, B. Pixels are read as 32-bit words,
// kPixelsPerInvocation per invocation and row; a channel's value is its sample (1, 2 or 4 bytes)
// shifted and masked to its depth (8 to 16 bits; 2 for a packed alpha), so every depth counts its
// own code values. With many bins (a plane's histograms times the bins beyond kSharedWords, e.g.
// 1 024 bins of RGB's five histograms) there is no room in shared memory: every sample is added
// straight to the frame's histograms instead.
//
// Several regions (p.regions > 0, histogram_layout.h): the workgroups of a plane's dispatch cover
// the blocks of every region, each region counted into its own histograms and finished by its own
// last workgroup.
//
// Bounds: a workgroup counts at most kBlockWidth x kBlockHeight pixels per bin (shared uint); the
// frame's counts are uint, so a frame may hold up to 2^32 - 1 pixels.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "histogram_layout.h"

layout(local_size_x = kGroupX, local_size_y = kGroupY) in;
layout(constant_id = 0) const uint BPP = 1;  // bytes per pixel of the plane: 1, 2, 3, 4 or 8
layout(constant_id = 1) const uint SAMPLE_BYTES = 1;  // bytes per sample: 1, 2 or 4 (packed 10-bit RGB)

layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
// kChannels histograms of histogram_words uints, then the count of finished workgroups, per region;
// zero between frames. Then the region tables.
layout(set = 0, binding = 1) coherent buffer Counts { uint counts[]; };
layout(set = 0, binding = 2) readonly buffer Src4 { uvec4 src4[]; };  // src again, for 16-byte loads
// Host-visible: the histograms, at the same places.
layout(set = 0, binding = 3) writeonly buffer Result { uint result[]; };

#define SRC_VEC4
#include "include/words.glsl"

layout(push_constant) uniform PushConstants { Params p; };
#include "include/histogram.glsl"

const uint kInvocations = kGroupX * kGroupY;
shared uint hist[kSharedWords];

// A value of `depth` bits falls in bin value * bins / 2^depth (< 2^16 * 2^16: no overflow).
uint bin_of(uint value, uint depth) { return (value * p.bins) >> depth; }

// Histogram `slot` (0..kChannels-1) of the plane's histograms, counted at `local` among them.
bool g_shared;  // set in main(): whether they are in shared memory
void count(uint local, uint slot, uint bin, uint base) {
  if (g_shared)
    atomicAdd(hist[local * p.bins + bin], 1u);
  else
    atomicAdd(counts[base + slot * p.histogram_words + bin], 1u);
}


void main() {
  // This workgroup's region, its block in it and where the region's counts go.
  uvec4 rect = uvec4(p.x0, p.y0, p.x1, p.y1);
  uvec2 block = gl_WorkGroupID.xy;
  uint base = 0u, groups = p.groups;
  if (p.regions != 0u) {
    uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (g >= p.blocks) return;  // the whole workgroup: the grid's last row is not full
    uint lo = 0u, hi = p.regions - 1u;
    while (lo < hi) {
      uint mid = (lo + hi + 1u) / 2u;
      if (counts[p.table + mid * kRegionWords + kRegionFirstBlock] <= g)
        lo = mid;
      else
        hi = mid - 1u;
    }
    uint a = p.table + lo * kRegionWords;
    rect = uvec4(counts[a + kRegionX0], counts[a + kRegionY0], counts[a + kRegionX1], counts[a + kRegionY1]);
    uint b = g - counts[a + kRegionFirstBlock];
    block = uvec2(b % counts[a + kRegionBlocksX], b / counts[a + kRegionBlocksX]);
    base = lo * (kChannels * p.histogram_words + 1u);
    groups = counts[a + kRegionGroups];
  }

  // The plane's histograms: one per channel, and luma for RGB; in shared memory when they fit.
  uint histograms = p.channels + (p.luma_slot != kNoLuma ? 1u : 0u);
  g_shared = histograms * p.bins <= kSharedWords;
  uint shared_words = g_shared ? histograms * p.bins : 0u;
  uint i = gl_LocalInvocationIndex;
  for (uint b = i; b < shared_words; b += kInvocations) hist[b] = 0u;
  barrier();

  uint x = rect.x + (block.x * kGroupX + gl_LocalInvocationID.x) * kPixelsPerInvocation;
  uint first_row = rect.y + block.y * kBlockHeight + gl_LocalInvocationID.y;
  for (uint r = 0u; r < kRowsPerInvocation; ++r) {
    uint y = first_row + r * gl_WorkGroupSize.y;
    if (x >= rect.z || y >= rect.w) break;
    uint addr = p.offset + y * p.stride + x * BPP;
    uint w[8];
    load_words(addr, BPP, w);  // the four pixels: BPP words
    for (uint k = 0u; k < kPixelsPerInvocation; ++k) {
      if (x + k >= rect.z) break;
      uint v[4];
      for (uint c = 0u; c < 4u; ++c) {
        if (c >= p.channels) break;
        uint depth = (p.depths >> (8u * c)) & 0xffu;
        uint index = k * BPP + ((p.order >> (8u * c)) & 0xffu);
        v[c] = (sample_of(w, index, SAMPLE_BYTES, BPP <= 4u) >> ((p.shifts >> (8u * c)) & 0xffu)) & ((1u << depth) - 1u);
        count(c, (p.slots >> (8u * c)) & 0xffu, bin_of(v[c], depth), base);
      }
      if (p.luma_slot != kNoLuma) {  // at R's depth
        count(p.channels, p.luma_slot, bin_of(luma_of(v[0], v[1], v[2]), p.depths & 0xffu), base);
      }
    }
  }
  barrier();
  for (uint b = i; b < shared_words; b += kInvocations) {
    uint n = hist[b];
    if (n == 0u) continue;
    uint local = b / p.bins;
    uint slot = local == p.channels ? p.luma_slot : (p.slots >> (8u * local)) & 0xffu;
    atomicAdd(counts[base + slot * p.histogram_words + b % p.bins], n);
  }

  finish_region(base, groups);
}
