#version 450
// histogram: per-channel counts of one plane's region of interest.
//
// Each workgroup counts a 256x16 block of the region into its own histograms in shared memory
// (cleared first, so no count is lost whatever the block's position), then adds its non-zero
// bins to the frame's histograms in device memory with one atomic each. The last workgroup to
// finish (over all of the frame's dispatches, counted by an atomic) moves the histograms into the
// host-visible result buffer and leaves them and the counter zeroed for the slot's next frame, so
// a frame is one dispatch per plane with no barrier or transfer between frames. A plane of a pixel
// holds up to four channels (R, G, B, A or U, V or Y); RGB planes also count the luma computed
// from R, G, B. Pixels are read as 32-bit words, four pixels per invocation and row.
//
// Bounds: a workgroup counts at most 4096 pixels per bin (shared uint); the frame's counts are
// uint, so a frame may hold up to 2^32 - 1 pixels.
#extension GL_GOOGLE_include_directive : require

layout(local_size_x = 64, local_size_y = 4) in;
layout(constant_id = 0) const uint BPP = 1;  // bytes per pixel of the plane: 1, 2, 3 or 4

layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
// kChannels x 256 bins, then the count of finished workgroups; zero between frames.
layout(set = 0, binding = 1) coherent buffer Counts { uint counts[]; };
layout(set = 0, binding = 2) readonly buffer Src4 { uvec4 src4[]; };  // src again, for 16-byte loads
layout(set = 0, binding = 3) writeonly buffer Result { uint result[]; };  // host-visible, kChannels x 256

#define SRC_VEC4
#include "include/words.glsl"

layout(push_constant) uniform Params {
  uint offset;  // byte offset of the plane in src
  uint stride;  // its stride in bytes
  uint x0, y0, x1, y1;  // region, in this plane's pixels
  uint channels;  // channels per pixel, 1..4
  uint order;     // byte index of channel c inside a pixel: bits 8c..8c+7
  uint slots;     // histogram of channel c: bits 8c..8c+7
  uint luma_slot; // histogram of the luma of channels 0..2 (R, G, B), or 0xff for none
  uint kr, kg, kb;  // luma coefficients x 65536
  uint bins;
  uint groups;  // workgroups of all of the frame's dispatches
} p;

const uint kChannels = 5;
const uint kFinished = kChannels * 256u;  // index of the finished-workgroup counter
// Rows per invocation: a workgroup covers 256 x 16 pixels. Wide, short blocks: a GPU reads host
// memory faster in long runs of a row (NVIDIA H200, 1080p RGBA: 182 us per frame against 194-196
// us for 64 x 64 blocks).
const uint kRows = 4;
shared uint hist[kChannels * 256u];
shared bool s_last;

uint bin_of(uint value) { return value * p.bins / 256u; }

void main() {
  uint i = gl_LocalInvocationIndex;
  for (uint b = i; b < kChannels * 256u; b += 256u) hist[b] = 0u;
  barrier();

  uint x = p.x0 + gl_GlobalInvocationID.x * 4u;
  uint first_row = p.y0 + gl_WorkGroupID.y * gl_WorkGroupSize.y * kRows + gl_LocalInvocationID.y;
  for (uint r = 0u; r < kRows; ++r) {
    uint y = first_row + r * gl_WorkGroupSize.y;
    if (x >= p.x1 || y >= p.y1) break;
    uint addr = p.offset + y * p.stride + x * BPP;
    uint w[4];
    load_quad(addr, BPP, w);
    for (uint k = 0u; k < 4u; ++k) {
      if (x + k >= p.x1) break;
      uint v[4];
      for (uint c = 0u; c < 4u; ++c) {
        if (c >= p.channels) break;
        v[c] = byte_of4(w, k * BPP + ((p.order >> (8u * c)) & 0xffu));
        atomicAdd(hist[((p.slots >> (8u * c)) & 0xffu) * 256u + bin_of(v[c])], 1u);
      }
      if (p.luma_slot != 0xffu) {
        uint luma = (p.kr * v[0] + p.kg * v[1] + p.kb * v[2] + 32768u) >> 16;
        atomicAdd(hist[p.luma_slot * 256u + bin_of(luma)], 1u);
      }
    }
  }
  barrier();
  for (uint b = i; b < kChannels * 256u; b += 256u) {
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
    for (uint b = i; b < kChannels * 256u; b += 256u) result[b] = atomicExchange(counts[b], 0u);
    if (i == 0u) counts[kFinished] = 0u;
  }
}
