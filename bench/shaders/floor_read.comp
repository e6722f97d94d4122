#version 450
// The floor of an analysis kernel: each invocation reads VECS 16-byte vectors of the frame and sums
// their bytes; each workgroup writes its sum to its own slot (no atomics), as lumamax and
// histogram write per-tile results. With LAST, the workgroups then count themselves done on one
// atomic counter after a memory barrier, and the last one adds up every slot, as lumamax's scan
// finishes a frame in one dispatch.
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_GOOGLE_include_directive : require
#include "floor_layout.h"

layout(local_size_x = kGroupSize) in;
layout(constant_id = 0) const uint VECS = 1;  // at most kMaxVecs
layout(constant_id = 1) const bool LAST = false;

layout(set = 0, binding = 0) readonly buffer Src { uvec4 src[]; };
// A slot per workgroup, then (LAST) the counter of finished workgroups (zero between dispatches)
// and the total.
layout(set = 0, binding = 1) coherent buffer Sums { uint sums[]; };

layout(push_constant) uniform PushConstants { FloorParams p; };

shared uint s_partial[32];
shared bool s_last;

uint byte_sum(uint w) { return (w & 0xffu) + ((w >> 8) & 0xffu) + ((w >> 16) & 0xffu) + (w >> 24); }

void main() {
  uint first = gl_WorkGroupID.x * kGroupSize * VECS + gl_LocalInvocationID.x;
  uvec4 v[kMaxVecs];
  for (uint k = 0u; k < VECS; ++k) {
    uint i = first + k * kGroupSize;
    v[k] = i < p.count ? src[i] : uvec4(0u);
  }
  uint sum = 0u;
  for (uint k = 0u; k < VECS; ++k) sum += byte_sum(v[k].x) + byte_sum(v[k].y) + byte_sum(v[k].z) + byte_sum(v[k].w);
  sum = subgroupAdd(sum);
  if (subgroupElect()) s_partial[gl_SubgroupID] = sum;
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    uint total = 0u;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) total += s_partial[s];
    sums[gl_WorkGroupID.x] = total;
  }
  if (!LAST) return;
  uint groups = gl_NumWorkGroups.x;
  memoryBarrierBuffer();
  barrier();
  if (gl_LocalInvocationIndex == 0u) s_last = atomicAdd(sums[groups], 1u) == groups - 1u;
  barrier();
  if (!s_last) return;
  memoryBarrierBuffer();
  uint total = 0u;
  for (uint g = gl_LocalInvocationIndex; g < groups; g += kGroupSize) total += sums[g];
  total = subgroupAdd(total);
  if (subgroupElect()) s_partial[gl_SubgroupID] = total;
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    uint all = 0u;
    for (uint s = 0u; s < gl_NumSubgroups; ++s) all += s_partial[s];
    sums[groups + 1u] = all;
    sums[groups] = 0u;
  }
}
