#version 450
#extension GL_GOOGLE_include_directive : require
// First pass of every morph frame: one plane of the input frame (host memory, any byte offset and
// stride) into a working image of one 32-bit word per pixel in device memory, the pixel's bytes in
// the word's low bytes. Each input byte is read once.

layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint BPP = 4;  // bytes per pixel: 1, 2, 3 or 4

layout(set = 0, binding = 0) restrict readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) restrict writeonly buffer Dst { uint dst[]; };

#include "include/words.glsl"

layout(push_constant) uniform Params {
  uint width;
  uint height;
  uint offset;  // byte offset of the plane's first pixel
  uint stride;  // bytes between rows; any value
} p;

void main() {
  uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
  if (x >= p.width || y >= p.height) return;
  uint word = load_word(p.offset + y * p.stride + x * BPP);
  if (BPP < 4u) word &= (1u << (8u * BPP)) - 1u;
  dst[y * p.width + x] = word;
}
