#version 450
#extension GL_GOOGLE_include_directive : require
// lumamax's HDR light statistics: the displayed light of every pixel of a region, in cd/m², and
// per workgroup tile its largest value and its sum (light_layout.h). The element reduces the
// tiles' partials on the CPU (a few thousand a 4K frame): max-light and average-light.
//
// A pixel's R'G'B' signal comes from its samples (YUV through the caps' matrix, with the chroma
// sample that covers the pixel), clamped to 0..1. Its light is max(R, G, B) of the display light:
//   PQ (ST 2084): the EOTF of max(R', G', B') (monotonic, so the largest channel is the brightest);
//   HLG (BT.2100): scene light by the inverse OETF per channel, then the OOTF for a 1 000 cd/m²
//   display, 1000 * Ys^0.2 * max(R, G, B) with Ys = 0.2627 R + 0.6780 G + 0.0593 B.

#include "light_layout.h"

layout(local_size_x_id = 0, local_size_y_id = 1) in;  // kLightGroupX x kLightGroupY
layout(constant_id = 2) const uint SAMPLE_BYTES = 2;  // 1, 2 or 4 (a packed 10-bit RGB word)
layout(constant_id = 3) const bool RGB = true;        // else Y, U, V through to_rgb
layout(constant_id = 4) const uint TRANSFER = 0;      // kTransferPq or kTransferHlg

layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Partials { vec2 partials[]; };  // (largest, sum) per tile

#include "include/words.glsl"

layout(push_constant) uniform PushConstants { LightParams p; };

shared float s_max[kLightGroupX * kLightGroupY];
shared float s_sum[kLightGroupX * kLightGroupY];

float signal(uint c, uint x, uint y) {
  uint sub = (p.subsampling >> (8u * c)) & 0xffu;
  uint word = load_word(p.offset[c] + (y >> (sub >> 4)) * p.stride[c] + (x >> (sub & 0xfu)) * p.step[c]);
  if (SAMPLE_BYTES < 4u) word &= (1u << (8u * SAMPLE_BYTES)) - 1u;
  uint value = (word >> ((p.shifts >> (8u * c)) & 0xffu)) & p.value_mask;
  return (float(value) - p.black[c]) * p.gain[c];
}

// ST 2084's EOTF: cd/m² of a signal in 0..1.
float pq_eotf(float e) {
  const float m1 = 2610.0 / 16384.0, m2 = 2523.0 / 4096.0 * 128.0;
  const float c1 = 3424.0 / 4096.0, c2 = 2413.0 / 4096.0 * 32.0, c3 = 2392.0 / 4096.0 * 32.0;
  float ep = pow(e, 1.0 / m2);
  return 10000.0 * pow(max(ep - c1, 0.0) / (c2 - c3 * ep), 1.0 / m1);
}

// BT.2100 HLG's inverse OETF: scene light in 0..1 of a signal in 0..1.
float hlg_scene(float e) {
  const float a = 0.17883277, b = 1.0 - 4.0 * a, c = 0.5 - a * log(4.0 * a);
  return e <= 0.5 ? e * e / 3.0 : (exp((e - c) / a) + b) / 12.0;
}

float light(uint x, uint y) {
  vec3 e = vec3(signal(0u, x, y), signal(1u, x, y), signal(2u, x, y));
  if (!RGB)
    e = vec3(e.x + p.to_rgb.x * e.z, e.x - p.to_rgb.y * e.y - p.to_rgb.z * e.z, e.x + p.to_rgb.w * e.y);
  e = clamp(e, 0.0, 1.0);
  if (TRANSFER == kTransferPq) return pq_eotf(max(e.r, max(e.g, e.b)));
  vec3 scene = vec3(hlg_scene(e.r), hlg_scene(e.g), hlg_scene(e.b));
  float ys = dot(vec3(0.2627, 0.6780, 0.0593), scene);
  return ys > 0.0 ? 1000.0 * pow(ys, 0.2) * max(scene.r, max(scene.g, scene.b)) : 0.0;
}

void main() {
  uint i = gl_LocalInvocationIndex;
  uint y = p.y0 + gl_GlobalInvocationID.y;
  uint x = p.x0 + gl_WorkGroupID.x * kLightTileWidth + gl_LocalInvocationID.x;
  float largest = 0.0, sum = 0.0;  // light is never negative
  if (y < p.y1) {
    // Consecutive invocations take consecutive pixels in each of kLightPixels passes.
    for (uint k = 0u; k < kLightPixels; ++k, x += kLightGroupX) {
      if (x >= p.x1) break;
      float l = light(x, y);
      largest = max(largest, l);
      sum += l;
    }
  }
  s_max[i] = largest;
  s_sum[i] = sum;
  barrier();
  for (uint half_size = kLightGroupX * kLightGroupY / 2u; half_size > 0u; half_size >>= 1) {
    if (i < half_size) {
      s_max[i] = max(s_max[i], s_max[i + half_size]);
      s_sum[i] += s_sum[i + half_size];
    }
    barrier();
  }
  if (i == 0u) partials[p.first + gl_WorkGroupID.y * p.tiles_x + gl_WorkGroupID.x] = vec2(s_max[0], s_sum[0]);
}
