#version 450
// The floor of a kernel that streams a frame through device memory: each invocation copies VECS
// 16-byte vectors, a workgroup's invocations taking consecutive vectors in each of VECS rounds (all
// loads issued before any store).
layout(local_size_x = 256) in;
layout(constant_id = 0) const uint VECS = 1;  // at most 4

layout(set = 0, binding = 0) readonly buffer Src { uvec4 src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uvec4 dst[]; };

layout(push_constant) uniform Params {
  uint count;  // 16-byte vectors in the frame
} p;

void main() {
  uint first = gl_WorkGroupID.x * 256u * VECS + gl_LocalInvocationID.x;
  uvec4 v[4];
  for (uint k = 0u; k < VECS; ++k) {
    uint i = first + k * 256u;
    v[k] = i < p.count ? src[i] : uvec4(0u);
  }
  for (uint k = 0u; k < VECS; ++k) {
    uint i = first + k * 256u;
    if (i < p.count) dst[i] = v[k];
  }
}
