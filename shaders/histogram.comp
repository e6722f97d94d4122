#version 450
// histogram: per-channel counts of one plane's region of interest.
//
// Each workgroup counts a kBlockWidth x kBlockHeight block (histogram_layout.h) of the region into
// its own histograms in shared memory (cleared first, so no count is lost whatever the block's
// position), then adds its non-zero bins to the frame's histograms in device memory with one atomic
// each. The last workgroup to finish (over all of the frame's dispatches, counted by an atomic)
// moves the histograms into the host-visible result buffer and leaves them and the counter zeroed
// for the slot's next frame, so a frame is one dispatch per plane with no barrier or transfer
// between frames. A plane of a pixel holds up to four channels (R, G, B, A or U, V or Y); RGB
// planes also count the luma computed from R, G, B. Pixels are read as 32-bit words,
// kPixelsPerInvocation per invocation and row.
//
// Bounds: a workgroup counts at most kBlockWidth x kBlockHeight pixels per bin (shared uint); the
// frame's counts are uint, so a frame may hold up to 2^32 - 1 pixels.
#extension GL_GOOGLE_include_directive : require
#include "histogram_layout.h"

layout(local_size_x = kGroupX, local_size_y = kGroupY) in;
layout(constant_id = 0) const uint BPP = 1;  // bytes per pixel of the plane: 1, 2, 3 or 4

layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
// kChannels x kMaxBins bins, then the count of finished workgroups; zero between frames.
layout(set = 0, binding = 1) coherent buffer Counts { uint counts[]; };
layout(set = 0, binding = 2) readonly buffer Src4 { uvec4 src4[]; };  // src again, for 16-byte loads
// Host-visible: kChannels x kMaxBins.
layout(set = 0, binding = 3) writeonly buffer Result { uint result[]; };

#define SRC_VEC4
#include "include/words.glsl"

layout(push_constant) uniform PushConstants { Params p; };

const uint kInvocations = kGroupX * kGroupY;
shared uint hist[kChannels * kMaxBins];
shared bool s_last;

uint bin_of(uint value) { return value * p.bins / 256u; }

void main() {
  uint i = gl_LocalInvocationIndex;
  for (uint b = i; b < kChannels * kMaxBins; b += kInvocations) hist[b] = 0u;
  barrier();

  uint x = p.x0 + gl_GlobalInvocationID.x * kPixelsPerInvocation;
  uint first_row = p.y0 + gl_WorkGroupID.y * kBlockHeight + gl_LocalInvocationID.y;
  for (uint r = 0u; r < kRowsPerInvocation; ++r) {
    uint y = first_row + r * gl_WorkGroupSize.y;
    if (x >= p.x1 || y >= p.y1) break;
    uint addr = p.offset + y * p.stride + x * BPP;
    uint w[4];
    load_quad(addr, BPP, w);
    for (uint k = 0u; k < kPixelsPerInvocation; ++k) {
      if (x + k >= p.x1) break;
      uint v[4];
      for (uint c = 0u; c < 4u; ++c) {
        if (c >= p.channels) break;
        v[c] = byte_of4(w, k * BPP + ((p.order >> (8u * c)) & 0xffu));
        atomicAdd(hist[((p.slots >> (8u * c)) & 0xffu) * kMaxBins + bin_of(v[c])], 1u);
      }
      if (p.luma_slot != kNoLuma) {
        uint luma = (p.kr * v[0] + p.kg * v[1] + p.kb * v[2] + (1u << (kLumaBits - 1u))) >> kLumaBits;
        atomicAdd(hist[p.luma_slot * kMaxBins + bin_of(luma)], 1u);
      }
    }
  }
  barrier();
  for (uint b = i; b < kChannels * kMaxBins; b += kInvocations) {
    uint n = hist[b];
    if (n != 0u) atomicAdd(counts[b], n);
  }

  // Our additions happen before our count; whoever counts last sees every workgroup's additions.
  memoryBarrierBuffer();
  barrier();
  if (i == 0u) s_last = atomicAdd(counts[kFinished], 1u) == p.groups - 1u;
  barrier();
  if (s_last) {
    memoryBarrierBuffer();
    for (uint b = i; b < kChannels * kMaxBins; b += kInvocations) result[b] = atomicExchange(counts[b], 0u);
    if (i == 0u) counts[kFinished] = 0u;
  }
}
