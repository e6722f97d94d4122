#version 450
// The floor of a kernel that streams a frame through device memory: each invocation copies VECS
// 16-byte vectors, a workgroup's invocations taking consecutive vectors in each of VECS rounds (all
// loads issued before any store).
#extension GL_GOOGLE_include_directive : require
#include "floor_layout.h"

layout(local_size_x = kGroupSize) in;
layout(constant_id = 0) const uint VECS = 1;  // at most kMaxVecs

layout(set = 0, binding = 0) readonly buffer Src { uvec4 src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uvec4 dst[]; };

layout(push_constant) uniform PushConstants { FloorParams p; };

void main() {
  uint first = gl_WorkGroupID.x * kGroupSize * VECS + gl_LocalInvocationID.x;
  uvec4 v[kMaxVecs];
  for (uint k = 0u; k < VECS; ++k) {
    uint i = first + k * kGroupSize;
    v[k] = i < p.count ? src[i] : uvec4(0u);
  }
  for (uint k = 0u; k < VECS; ++k) {
    uint i = first + k * kGroupSize;
    if (i < p.count) dst[i] = v[k];
  }
}
