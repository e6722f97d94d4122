#version 450
// Packed RGB (24 or 32 bits per pixel at 8 bits a channel; 32 bits at 10; 64 bits at 16) to planar,
// semi-planar or packed YUV of 8 bits, or planar and semi-planar YUV of 10, 12 or 16 bits in 16-bit
// words.
//
// One invocation converts a block BLOCK pixels wide (kBlockWidth, 8; kAyuvBlockWidth, 4, for AYUV;
// rgb2yuv_layout.h) and SUB_Y rows high, so that every 32-bit word of every output plane is
// written by exactly one invocation (4:2:0 chroma of 8 columns is one word of U and one of V; 4
// AYUV pixels are one 16-byte store; 16-bit samples: 8 columns of luma are one 16-byte store).
// Workgroups are kGroupX x kGroupY = 256 invocations.
//
// What an invocation holds: first the block's rows as they lie in memory, one 32-bit word per
// pixel (two for RGBA64; 24-bit RGB reads six words for eight pixels and gives each pixel a word),
// then the output rows as words. The block is converted a quad of 4 columns at a time, down its SUB_Y rows: each
// pixel is unpacked to floats, its luma code goes at once into its place in the luma row's words,
// and only the quad's chroma sums (two or four vec3) live until its last row is added, when its
// chroma codes go into theirs. So floats live for one quad, not the whole block: the registers are
// the words being loaded and the words being written, a few dozen, which leaves room for many
// invocations per core. The channels' places in a pixel and the output's byte order are
// specialization constants: unpacking and packing are shifts and masks known when the pipeline is
// compiled.
//
// Memory access is shaped for frames in host memory read and written across PCIe: where the
// plane is aligned, each invocation reads its pixels and writes each plane's bytes with 8- or
// 16-byte vector accesses, so a subgroup's accesses cover whole contiguous lines instead of
// strided words (strided stores into host memory cost several times the bandwidth). Wider blocks
// would spread a subgroup's loads further apart (RGBA64's 64 bytes an invocation already read host
// memory at a fraction of the link's rate: rgb2yuv.cpp stages them in device memory).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "rgb2yuv_layout.h"

layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint IN_BPP = 4;       // bytes per input pixel: 3, 4 or 8
layout(constant_id = 3) const uint LAYOUT = 0;       // kLayout*: planar, semi-planar, packed 4:2:2, AYUV
layout(constant_id = 4) const uint SUB_X = 2;        // horizontal chroma subsampling: 1 or 2
layout(constant_id = 5) const uint SUB_Y = 2;        // vertical chroma subsampling: 1 or 2
layout(constant_id = 6) const bool COSITED = false;  // chroma at even columns, [1,2,1]/4 filter
layout(constant_id = 7) const uint BLOCK = 8;        // pixels per invocation: 8, or 4 (AYUV only)
layout(constant_id = 8) const uint IN_DEPTH = 8;     // bits of R, G and B: 8, 10 or 16
layout(constant_id = 9) const uint ALPHA_DEPTH = 8;  // bits of the input's alpha: 8, 2 or 16
layout(constant_id = 10) const uint OUT_DEPTH = 8;   // bits of Y, U and V: 8, 10, 12 or 16
layout(constant_id = 11) const uint OUT_SHIFT = 0;   // where a sample sits in its 8 or 16 bits
// Where R, G, B and A start in a pixel, 8 bits each: the byte at 8 bits a channel, the bit
// otherwise; A = kNoAlpha: opaque.
layout(constant_id = 12) const uint SRC_ORDER = 0xff020100u;
// Packed: the byte of Y0, U, Y1, V in a 4:2:2 macropixel, or of A, Y, U, V in an AYUV pixel, 8 bits
// each; semi-planar: 0 for U first in a pair, 1 for V first.
layout(constant_id = 13) const uint DST_ORDER = 0u;

// Bindings 2..4 alias 0 and 1 (the same buffers) for vector access.
layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };
layout(set = 0, binding = 2) readonly buffer Src4 { uvec4 src4[]; };
layout(set = 0, binding = 3) writeonly buffer Dst2 { uvec2 dst2[]; };
layout(set = 0, binding = 4) writeonly buffer Dst4 { uvec4 dst4[]; };

#define SRC_VEC4
#include "include/words.glsl"

layout(push_constant) uniform PushConstants { Params p; };

// Y has a plane of its own (planar and semi-planar layouts); else plane 0 holds packed pixels.
const bool Y_PLANE = LAYOUT == kLayoutPlanar || LAYOUT == kLayoutSemiPlanar;
const uint OUT_BYTES = OUT_DEPTH > 8u ? 2u : 1u;  // a sample's bytes in the output
// Output words of a block row per plane: at most 4 (8 pixels of 16-bit luma; 4 AYUV pixels).
const uint kRowWords = 4u;

// Field `index` (0..3) of an order packed 8 bits a field.
uint field(uint order, uint index) { return (order >> (8u * index)) & 0xffu; }

// A pixel's 32 (or, IN_BPP 8, 64) bits as R, G, B in input code values and alpha in 0..255 (AYUV
// is the only output with alpha).
vec4 unpack_pixel(uvec2 px) {
  uint a = field(SRC_ORDER, 3u);
  if (IN_DEPTH == 8u)
    return vec4(byte_of(px.x, field(SRC_ORDER, 0u)), byte_of(px.x, field(SRC_ORDER, 1u)),
                byte_of(px.x, field(SRC_ORDER, 2u)), a == kNoAlpha ? 255.0 : float(byte_of(px.x, a)));
  vec4 c;
  for (uint k = 0u; k < 4u; ++k) {
    uint at = field(SRC_ORDER, k), bits = k == 3u ? ALPHA_DEPTH : IN_DEPTH;
    uint word = at < 32u ? px.x : px.y;
    c[k] = float((word >> (at & 31u)) & ((1u << bits) - 1u));
  }
  c.a = a == kNoAlpha ? 255.0 : floor(c.a * 255.0 / float((1u << ALPHA_DEPTH) - 1u) + 0.5);
  return c;
}

// The bits of pixel x of the row starting at byte `row`, read word by word.
uvec2 pixel_bits(uint row, uint x) {
  uint at = row + x * IN_BPP;
  return uvec2(load_word(at), IN_BPP == 8u ? load_word(at + 4u) : 0u);
}

// The bits of the block's pixels in row y, as unpack_pixel() takes them. Pixels outside the frame
// replicate the nearest edge pixel. Every index into `bits` and `w` is known at compile time once
// the loops unroll: an array indexed by a run-time value would live in the invocation's local
// memory instead of registers (on NVIDIA, several times the kernel's time).
void load_block_row(uint x0, uint y, out uvec2 bits[kBlockWidth]) {
  uint row = p.src_offset + y * p.src_stride;
  if (x0 + BLOCK <= p.width) {
    uint w[8];
    if (IN_BPP == 8u) {  // RGBA64: two words a pixel, sixteen for a block of 8
      uint w2[8];
      load_words(row + x0 * 8u, 8u, w);
      if (BLOCK > 4u) load_words(row + x0 * 8u + 32u, 8u, w2);
      [[unroll]] for (uint k = 0u; k < 4u; ++k) {
        bits[k] = uvec2(w[2u * k], w[2u * k + 1u]);
        if (BLOCK > 4u) bits[k + 4u] = uvec2(w2[2u * k], w2[2u * k + 1u]);
      }
    } else if (IN_BPP == 4u) {
      load_words(row + x0 * IN_BPP, BLOCK, w);
      [[unroll]] for (uint k = 0u; k < BLOCK; ++k) bits[k] = uvec2(w[k], 0u);
    } else {
      load_words(row + x0 * IN_BPP, BLOCK * IN_BPP / 4u, w);
      [[unroll]] for (uint k = 0u; k < BLOCK; ++k) {
        uint b = k * 3u;
        uint packed = 0u;
        for (uint c = 0u; c < 3u; ++c) packed |= byte_of(w[(b + c) >> 2], (b + c) & 3u) << (c * 8u);
        bits[k] = uvec2(packed, 0u);
      }
    }
  } else {  // the row's last block, cut by the frame's edge: one pixel at a time
    [[unroll]] for (uint k = 0u; k < BLOCK; ++k) bits[k] = pixel_bits(row, min(x0 + k, p.width - 1u));
  }
}

// A code value at the output's depth, rounded half up.
uint to_code(float v) { return uint(clamp(floor(v + 0.5), 0.0, float((1u << OUT_DEPTH) - 1u))); }
uint luma(vec4 c) { return to_code(dot(p.coef_y.xyz, c.rgb) + p.coef_y.w); }

// Row r's term of the sum behind chroma sample s (0..4/SUB_X-1) of a quad of pixels `px`; `before`
// is the pixel left of the quad (for the cosited filter). Terms and sums are multiples of 0.5 below
// 2^19, exact in float in any order.
vec3 chroma_term(vec4 px[4], vec4 before, uint s) {
  if (SUB_X == 1u) return px[s].rgb;
  vec4 left = s == 0u ? before : px[1];
  if (COSITED) return ((left + 2.0 * px[2u * s] + px[2u * s + 1u]) * 0.5).rgb;
  return (px[2u * s] + px[2u * s + 1u]).rgb;
}

// U and V codes of a chroma sample from the sum of its SUB_X x SUB_Y terms. Chroma is filtered in
// RGB first: the matrix is linear, so filtering first is the same as filtering U and V, with one
// matrix product per chroma sample.
uvec2 chroma(vec3 sum) {
  vec3 c = sum / float(SUB_X * SUB_Y);
  return uvec2(to_code(dot(p.coef_u.xyz, c) + p.coef_u.w), to_code(dot(p.coef_v.xyz, c) + p.coef_v.w));
}

// Ors `value` into the words of a row at byte `at` (a constant once the loops unroll).
void put(inout uint words[kRowWords], uint at, uint value) { words[at >> 2] |= value << ((at & 3u) * 8u); }

// A sample of a Y, U or V plane: sample `index` of the block's row, at the output's depth.
void put_sample(inout uint words[kRowWords], uint index, uint code) {
  put(words, index * OUT_BYTES, code << OUT_SHIFT);
}

// Pixel k's luma code (and, AYUV, its alpha) into plane 0's row.
void put_luma(inout uint words[kRowWords], uint k, uint code, float alpha) {
  if (Y_PLANE) {
    put_sample(words, k, code);
  } else if (LAYOUT == kLayoutPacked422) {
    put(words, 4u * (k >> 1) + field(DST_ORDER, 2u * (k & 1u)), code);
  } else {
    put(words, 4u * k + field(DST_ORDER, 0u), uint(alpha));
    put(words, 4u * k + field(DST_ORDER, 1u), code);
  }
}

// Chroma sample j's U and V codes: into the U and V rows (the pairs of the semi-planar row in
// `u_words`), or into plane 0's packed row.
void put_chroma(inout uint packed_words[kRowWords], inout uint u_words[kRowWords], inout uint v_words[kRowWords],
                uint j, uvec2 uv) {
  if (LAYOUT == kLayoutPlanar) {
    put_sample(u_words, j, uv.x);
    put_sample(v_words, j, uv.y);
  } else if (LAYOUT == kLayoutSemiPlanar) {  // NV12, P010, P016: U first; NV21: V first
    put_sample(u_words, 2u * j + DST_ORDER, uv.x);
    put_sample(u_words, 2u * j + 1u - DST_ORDER, uv.y);
  } else {  // packed 4:2:2: a macropixel per sample; AYUV: a pixel per sample
    uint first = LAYOUT == kLayoutPacked422 ? 1u : 2u;
    put(packed_words, 4u * j + field(DST_ORDER, first), uv.x);
    put(packed_words, 4u * j + field(DST_ORDER, 3u), uv.y);
  }
}

uint plane_address(uint plane, uint y, uint byte_in_row) {
  return p.dst_offset[plane] + y * p.dst_stride[plane] + byte_in_row;
}

// Writes a word of a plane row when it holds at least one of the row's `row_bytes` samples.
void store(uint plane, uint y, uint byte_in_row, uint row_bytes, uint value) {
  if (byte_in_row < row_bytes) dst[plane_address(plane, y, byte_in_row) >> 2] = value;
}

// Two and four consecutive words, as one vector store where the whole vector lies in the row and
// is aligned.
void store2(uint plane, uint y, uint byte_in_row, uint row_bytes, uvec2 value) {
  uint at = plane_address(plane, y, byte_in_row);
  if (byte_in_row + 4u < row_bytes && (at & 7u) == 0u) {
    dst2[at >> 3] = value;
  } else {
    store(plane, y, byte_in_row, row_bytes, value.x);
    store(plane, y, byte_in_row + 4u, row_bytes, value.y);
  }
}

void store4(uint plane, uint y, uint byte_in_row, uint row_bytes, uvec4 value) {
  uint at = plane_address(plane, y, byte_in_row);
  if (byte_in_row + 12u < row_bytes && (at & 15u) == 0u) {
    dst4[at >> 4] = value;
  } else {
    store2(plane, y, byte_in_row, row_bytes, value.xy);
    store2(plane, y, byte_in_row + 8u, row_bytes, value.zw);
  }
}

// The first `n` (1, 2 or 4) words of a block's row of a plane.
void store_row(uint plane, uint y, uint byte_in_row, uint row_bytes, uint words[kRowWords], uint n) {
  if (n == 4u)
    store4(plane, y, byte_in_row, row_bytes, uvec4(words[0], words[1], words[2], words[3]));
  else if (n == 2u)
    store2(plane, y, byte_in_row, row_bytes, uvec2(words[0], words[1]));
  else
    store(plane, y, byte_in_row, row_bytes, words[0]);
}

void main() {
  uint x0 = gl_GlobalInvocationID.x * BLOCK;
  uint y0 = gl_GlobalInvocationID.y * SUB_Y;
  if (x0 >= p.width || y0 >= p.height) return;

  uvec2 bits[SUB_Y][kBlockWidth];
  vec4 before[SUB_Y];  // the pixel left of the quad being converted, in each row (cosited filter)
  [[unroll]] for (uint r = 0u; r < SUB_Y; ++r) {
    uint y = min(y0 + r, p.height - 1u);
    load_block_row(x0, y, bits[r]);
    before[r] = vec4(0.0);
    if (COSITED) before[r] = unpack_pixel(pixel_bits(p.src_offset + y * p.src_stride, max(x0, 1u) - 1u));
  }

  // Plane 0's rows (Y, or packed pixels), and the chroma row: U and V, or the semi-planar pairs in
  // u_words.
  uint y_words[SUB_Y][kRowWords];
  uint u_words[kRowWords] = uint[](0u, 0u, 0u, 0u), v_words[kRowWords] = uint[](0u, 0u, 0u, 0u);
  for (uint r = 0u; r < SUB_Y; ++r) y_words[r] = uint[](0u, 0u, 0u, 0u);
  const uint SAMPLES = 4u / SUB_X;  // chroma samples per quad
  [[unroll]] for (uint q = 0u; q < BLOCK / 4u; ++q) {
    vec3 sums[4] = vec3[](vec3(0.0), vec3(0.0), vec3(0.0), vec3(0.0));
    [[unroll]] for (uint r = 0u; r < SUB_Y; ++r) {
      vec4 px[4];
      [[unroll]] for (uint i = 0u; i < 4u; ++i) {
        px[i] = unpack_pixel(bits[r][4u * q + i]);
        put_luma(y_words[r], 4u * q + i, luma(px[i]), px[i].a);
      }
      [[unroll]] for (uint s = 0u; s < SAMPLES; ++s) sums[s] += chroma_term(px, before[r], s);
      if (COSITED) before[r] = px[3];
    }
    [[unroll]] for (uint s = 0u; s < SAMPLES; ++s)
      put_chroma(y_words[0], u_words, v_words, SAMPLES * q + s, chroma(sums[s]));
  }

  if (Y_PLANE) {
    for (uint r = 0u; r < SUB_Y; ++r) {
      if (y0 + r >= p.height) break;
      store_row(0u, y0 + r, x0 * OUT_BYTES, p.width * OUT_BYTES, y_words[r], BLOCK * OUT_BYTES / 4u);
    }
    uint cy = y0 / SUB_Y;
    uint chroma_width = (p.width + SUB_X - 1u) / SUB_X;
    if (LAYOUT == kLayoutPlanar) {
      uint at = x0 / SUB_X * OUT_BYTES, row_bytes = chroma_width * OUT_BYTES;
      uint n = BLOCK / SUB_X * OUT_BYTES / 4u;
      store_row(1u, cy, at, row_bytes, u_words, n);
      store_row(2u, cy, at, row_bytes, v_words, n);
    } else {
      store_row(1u, cy, x0 * OUT_BYTES, 2u * chroma_width * OUT_BYTES, u_words, BLOCK * OUT_BYTES / 4u);
    }
  } else if (LAYOUT == kLayoutPacked422) {
    store_row(0u, y0, 2u * x0, 4u * ((p.width + 1u) / 2u), y_words[0], BLOCK / 2u);
  } else {
    store_row(0u, y0, 4u * x0, 4u * p.width, y_words[0], BLOCK);
  }
}
