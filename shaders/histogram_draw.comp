#version 450
// histogram, draw: paints the frame's histograms as a translucent bar graph into the bottom-left
// corner of the output frame (already a copy of the input). Inside the graph, the drawn channels
// are darkened to 3/4, and within a channel's bar lightened half way to the top code value (255 at
// 8 bits, 1023 at 10) instead: RGB frames show
// red, green and blue bars that mix where they overlap; YUV and GRAY8 frames a white luma graph
// on the Y plane. Bars are scaled to each channel's largest bin.
//
// One invocation owns up to four horizontally adjacent pixels and reads and writes only the
// 32-bit words that hold their bytes: the graph starts at column 0 and output rows start on word
// boundaries, so these words start with its first pixel and end with its last one, unless the
// graph spans the whole row (frames narrower than 256 pixels) and the row ends inside a word
// (3- and 1-byte pixels): the rest of that word is the row's padding (strides are multiples of
// 4), which nothing else touches. So no word has two writers, and none is outside the frame.
#extension GL_GOOGLE_include_directive : require
#include "histogram_layout.h"

layout(local_size_x = kDrawGroupX, local_size_y = kDrawGroupY) in;
layout(constant_id = 0) const uint BPP = 1;           // bytes per pixel of plane 0: 1, 2, 3, 4 or 8
layout(constant_id = 1) const uint SAMPLE_BYTES = 1;  // bytes per sample: 1, 2 or 4

layout(set = 0, binding = 0) readonly buffer Counts { uint counts[]; };
layout(set = 0, binding = 1) buffer Dst { uint dst[]; };

layout(push_constant) uniform PushConstants { DrawParams p; };

shared uint s_max[kMaxDrawnChannels];

// ceil(count * height / largest), exactly: float division on a GPU may be off by an ulp (a
// reciprocal and a multiply), which turns a quotient that is a whole number into the next one
// and a bar one pixel too tall. The float quotient is within one of the truth; the smallest b
// with b * largest >= count * height is found among its neighbours with 64-bit products.
bool covers(uint b, uint largest, uint count, uint height) {
  uint bh, bl, ch, cl;
  umulExtended(b, largest, bh, bl);
  umulExtended(count, height, ch, cl);
  return bh > ch || (bh == ch && bl >= cl);
}

uint bar_height(uint count, uint height, uint largest) {
  uint estimate = uint(float(count) * float(height) / float(largest));
  uint b = estimate > 0u ? estimate - 1u : 0u;
  while (!covers(b, largest, count, height)) ++b;
  return b;
}

// The SAMPLE_BYTES bytes from byte `index` of the invocation's words, little-endian, and back.
// Word and byte are picked by loops over constants, which keep `w` in registers.
uint read_sample(uint w[8], uint index) {
  uint v = 0u;
  for (uint b = 0u; b < SAMPLE_BYTES; ++b) {
    uint i = index + b;
    for (uint k = 0u; k < 8u; ++k)
      if (k == (i >> 2)) v |= ((w[k] >> ((i & 3u) * 8u)) & 0xffu) << (8u * b);
  }
  return v;
}

void write_sample(inout uint w[8], uint index, uint v) {
  for (uint b = 0u; b < SAMPLE_BYTES; ++b) {
    uint i = index + b, shift = (i & 3u) * 8u;
    for (uint k = 0u; k < 8u; ++k)
      if (k == (i >> 2)) w[k] = (w[k] & ~(0xffu << shift)) | (((v >> (8u * b)) & 0xffu) << shift);
  }
}

void main() {
  uint i = gl_LocalInvocationIndex;
  if (i < kMaxDrawnChannels) s_max[i] = 1u;
  barrier();
  for (uint c = 0u; c < p.channels; ++c)
    for (uint b = i; b < p.bins; b += kDrawGroupX * kDrawGroupY)
      atomicMax(s_max[c], counts[c * p.histogram_words + b]);
  barrier();

  uint x0 = gl_GlobalInvocationID.x * kDrawPixelsPerInvocation;
  uint row = gl_GlobalInvocationID.y;  // 0 = top of the graph
  if (x0 >= p.width || row >= p.height) return;  // no barrier follows
  uint level = p.height - row;  // 1 at the bottom row
  uint at = (p.offset + (p.top + row) * p.stride + x0 * BPP) >> 2;
  uint pixels = min(kDrawPixelsPerInvocation, p.width - x0);
  uint words = (pixels * BPP + 3u) / 4u;
  uint w[8] = uint[8](0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
  for (uint k = 0u; k < words; ++k) w[k] = dst[at + k];
  for (uint k = 0u; k < pixels; ++k) {
    uint bin = (x0 + k) * p.bins / p.width;
    // Only the drawn channels' value bits change: alpha, padding and the bits beside a value
    // (P010's low 6) stay.
    for (uint c = 0u; c < p.channels; ++c) {
      uint index = k * BPP + ((p.order >> (8u * c)) & 0xffu);  // the sample's first byte
      uint shift = (p.shifts >> (8u * c)) & 0xffu, depth = (p.depths >> (8u * c)) & 0xffu;
      uint top = (1u << depth) - 1u;
      uint packed = read_sample(w, index);
      uint value = (packed >> shift) & top;
      uint bar = bar_height(counts[c * p.histogram_words + bin], p.height, s_max[c]);
      uint result = level <= bar ? (value + top) / 2u : value * 3u / 4u;
      write_sample(w, index, (packed & ~(top << shift)) | (result << shift));
    }
  }
  for (uint k = 0u; k < words; ++k) dst[at + k] = w[k];
}
