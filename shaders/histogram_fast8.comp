#version 450
// histogram of 8-bit samples into kNarrowBins (256) bins over one region, for pixels of 1, 2 or 4
// bytes (RGB, GRAY8, an 8-bit YUV plane): a value is its bin. The other cases (other bins, deeper
// samples, 3- and 8-byte pixels, several regions) take histogram.comp.
//
// The grid is bounded (kFastGroups workgroups at most, histogram_layout.h) and strides over the
// region's 16-byte loads (include/frame_loads.glsl); each invocation issues kFastLoads loads before
// it counts any, so that several are in flight. A workgroup clears its histograms in shared memory
// once, counts every pixel of its loads into them, and adds their non-zero bins to the frame's
// histograms with one global atomic each, once: those costs and the finish counter are paid per
// workgroup, not per tile. The finish is histogram.comp's (include/histogram.glsl), and so is the
// counts' layout.
//
// What the pipeline fixes, as specialization constants: the bytes per pixel, the channels, the byte
// of each channel's sample in a pixel and the histograms they go to, so counting a sample is one
// bitfield extract at a constant place, an add and a shared atomicAdd; the luma of R, G and B is
// histogram.comp's to the bit.
//
// Contention: where a frame is smooth (one colour: every invocation adds to the same bin), shared
// atomics on one word are serialized. Each workgroup keeps kCopies copies of its histograms, and
// invocation i counts into copy i % kCopies; the copies lie kCopyWords apart, one word more than
// the histograms, so that the same bin of neighbouring copies sits in neighbouring banks. The
// flush adds the copies of a bin together.
//
// A row whose first byte is not 16-byte aligned (an odd plane offset, stride or region start) is
// read word by word, as is a load that would reach past the buffer (include/words.glsl).
//
// Bounds: a shared count holds at most the workgroup's pixels, and the frame's counts are uint, so
// a frame may hold up to 2^32 - 1 pixels.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "histogram_layout.h"

layout(local_size_x = kFastInvocations) in;
layout(constant_id = 0) const uint BPP = 4u;             // bytes per pixel: 1, 2 or 4
layout(constant_id = 1) const uint CHANNELS = 4u;        // samples counted per pixel, 1..4
layout(constant_id = 2) const uint ORDER = 0u;           // byte of channel c's sample in a pixel: bits 8c..8c+7
layout(constant_id = 3) const uint SLOTS = 0u;           // histogram of channel c in the counts: bits 8c..8c+7
layout(constant_id = 4) const uint LUMA_SLOT = kNoLuma;  // of the luma of channels 0..2 (R, G, B), or kNoLuma

// As histogram.comp's.
layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) coherent buffer Counts { uint counts[]; };
layout(set = 0, binding = 2) readonly buffer Src4 { uvec4 src4[]; };
layout(set = 0, binding = 3) writeonly buffer Result { uint result[]; };

#define SRC_VEC4
#include "include/words.glsl"
#include "include/frame_loads.glsl"

layout(push_constant) uniform PushConstants { Params p; };
#include "include/histogram.glsl"

const uint kPixelsPerLoad = kFastLoadBytes / BPP;
// The workgroup's histograms: one per channel, then the luma's; and their copies.
const uint kHistograms = CHANNELS + (LUMA_SLOT != kNoLuma ? 1u : 0u);
const uint kCopyWords = kHistograms * kNarrowBins + 1u;
const uint kCopiesFitting = kSharedWords / kCopyWords;
const uint kCopies = kCopiesFitting < kFastCopies ? kCopiesFitting : kFastCopies;
shared uint hist[kSharedWords];

// The sample of channel c of pixel k of a load.
uint sample_of(uvec4 w, uint k, uint c) {
  uint bit = (k * BPP + ((ORDER >> (8u * c)) & 0xffu)) * 8u;
  return bitfieldExtract(w[bit >> 5], int(bit & 31u), 8);
}

// Counts pixel k of a load into the copy of the histograms at `copy`.
void count_pixel(uvec4 w, uint k, uint copy) {
  uint v[3];
  [[unroll]] for (uint c = 0u; c < 4u; ++c) {
    if (c < CHANNELS) {
      uint value = sample_of(w, k, c);
      if (c < 3u) v[c] = value;
      atomicAdd(hist[copy + c * kNarrowBins + value], 1u);
    }
  }
  if (LUMA_SLOT != kNoLuma) atomicAdd(hist[copy + CHANNELS * kNarrowBins + luma_of(v[0], v[1], v[2])], 1u);
}

void main() {
  uint i = gl_LocalInvocationIndex;
  for (uint b = i; b < kCopies * kCopyWords; b += kFastInvocations) hist[b] = 0u;
  barrier();

  uint copy = (i % kCopies) * kCopyWords;
  uint rows = p.y1 - p.y0;
  LoadWalk walk = start_walk((((p.x1 - p.x0) * BPP) + kFastLoadBytes - 1u) / kFastLoadBytes);
  while (walk.row < rows) {
    uvec4 words[kFastLoads];
    uint pixels[kFastLoads];  // each load's pixels in the region: 0 past its end
    [[unroll]] for (uint l = 0u; l < kFastLoads; ++l) {
      words[l] = uvec4(0u);
      pixels[l] = 0u;
      if (walk.row < rows) {
        uint x = p.x0 + walk.col * kPixelsPerLoad, y = p.y0 + walk.row;
        words[l] = load16(p.offset + y * p.stride + x * BPP);
        pixels[l] = min(kPixelsPerLoad, p.x1 - x);
      }
      advance(walk);
    }
    [[unroll]] for (uint l = 0u; l < kFastLoads; ++l) {
      [[unroll]] for (uint k = 0u; k < kPixelsPerLoad; ++k) {
        if (k < pixels[l]) count_pixel(words[l], k, copy);
      }
    }
  }
  barrier();

  // Bin b of local histogram h is at h * kNarrowBins + b of each copy.
  for (uint b = i; b < kHistograms * kNarrowBins; b += kFastInvocations) {
    uint n = 0u;
    for (uint c = 0u; c < kCopies; ++c) n += hist[c * kCopyWords + b];
    if (n == 0u) continue;
    uint h = b / kNarrowBins;
    uint slot = h < CHANNELS ? (SLOTS >> (8u * h)) & 0xffu : LUMA_SLOT;
    atomicAdd(counts[slot * p.histogram_words + b % kNarrowBins], n);
  }
  finish_region(0u, p.groups);
}
