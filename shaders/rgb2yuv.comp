#version 450
#extension GL_GOOGLE_include_directive : require
// Packed RGB (24 or 32 bits per pixel at 8 bits a channel; 32 bits at 10; 64 bits at 16) to planar,
// semi-planar or packed YUV of 8 bits, or planar and semi-planar YUV of 10, 12 or 16 bits in 16-bit
// words.
//
// One invocation converts a block BLOCK pixels wide (kBlockWidth, 8; kAyuvBlockWidth, 4, for AYUV;
// rgb2yuv_layout.h) and SUB_Y rows high, so that every 32-bit word of every output plane is
// written by exactly one invocation (4:2:0 chroma of 8 columns is one word of U and one of V; 4
// AYUV pixels are one 16-byte store; 16-bit samples: 8 columns of luma are one 16-byte store).
// Input is read as 32-bit words: 24-bit RGB takes six words for eight pixels, RGBA64 sixteen.
//
// Memory access is shaped for frames in host memory read and written across PCIe: where the
// plane is aligned, each invocation reads its pixels and writes each plane's bytes with 8- or
// 16-byte vector accesses, so a subgroup's accesses cover whole contiguous lines instead of
// strided words (strided stores into host memory cost several times the bandwidth).

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
layout(constant_id = 11) const uint OUT_SHIFT = 0;   // deep output: where the value sits in its word

// Bindings 2..4 alias 0 and 1 (the same buffers) for vector access.
layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };
layout(set = 0, binding = 2) readonly buffer Src4 { uvec4 src4[]; };
layout(set = 0, binding = 3) writeonly buffer Dst2 { uvec2 dst2[]; };
layout(set = 0, binding = 4) writeonly buffer Dst4 { uvec4 dst4[]; };

#define SRC_VEC4
#include "include/words.glsl"

layout(push_constant) uniform PushConstants { Params p; };

// A pixel's 32 (or, IN_BPP 8, 64) bits as R, G, B in input code values and alpha in 0..255 (AYUV
// is the only output with alpha). src_order holds where R, G, B and A start: the byte at 8 bits a
// channel, the bit otherwise.
vec4 unpack_pixel(uvec2 px) {
  uint a = (p.src_order >> 24) & 0xffu;
  if (IN_DEPTH == 8u)
    return vec4(byte_of(px.x, p.src_order & 0xffu), byte_of(px.x, (p.src_order >> 8) & 0xffu),
                byte_of(px.x, (p.src_order >> 16) & 0xffu), a == kNoAlpha ? 255.0 : float(byte_of(px.x, a)));
  vec4 c;
  for (uint k = 0u; k < 4u; ++k) {
    uint at = (p.src_order >> (8u * k)) & 0xffu, bits = k == 3u ? ALPHA_DEPTH : IN_DEPTH;
    uint word = at < 32u ? px.x : px.y;
    c[k] = float((word >> (at & 31u)) & ((1u << bits) - 1u));
  }
  c.a = a == kNoAlpha ? 255.0 : floor(c.a * 255.0 / float((1u << ALPHA_DEPTH) - 1u) + 0.5);
  return c;
}

vec4 unpack_pixel(uint word) { return unpack_pixel(uvec2(word, 0u)); }

vec4 load_pixel(uint row, uint x) {
  uint at = row + x * IN_BPP;
  return unpack_pixel(uvec2(load_word(at), IN_BPP == 8u ? load_word(at + 4u) : 0u));
}

// px[0] is the pixel left of the block (for the cosited filter), px[1..BLOCK] the block's pixels.
// Pixels outside the frame replicate the nearest edge pixel. Every index into px and w is known
// at compile time once the loops unroll: an array indexed by a run-time value would live in the
// invocation's local memory instead of registers (on NVIDIA, several times the kernel's time).
void load_row(uint x0, uint y, out vec4 px[kBlockWidth + 1u]) {
  uint row = p.src_offset + y * p.src_stride;
  if (x0 + BLOCK <= p.width) {
    uint w[8];
    if (IN_BPP == 8u) {  // RGBA64: two words a pixel, sixteen for the block
      uint w2[8];
      load_words(row + x0 * 8u, 8u, w);
      load_words(row + x0 * 8u + 32u, 8u, w2);
      for (uint k = 0u; k < 4u; ++k) {
        px[k + 1u] = unpack_pixel(uvec2(w[2u * k], w[2u * k + 1u]));
        px[k + 5u] = unpack_pixel(uvec2(w2[2u * k], w2[2u * k + 1u]));
      }
    } else if (IN_BPP == 4u) {
      load_words(row + x0 * IN_BPP, BLOCK * IN_BPP / 4u, w);
      for (uint k = 0u; k < BLOCK; ++k) px[k + 1u] = unpack_pixel(w[k]);
    } else {
      load_words(row + x0 * IN_BPP, BLOCK * IN_BPP / 4u, w);
      for (uint k = 0u; k < BLOCK; ++k) {
        uint b = k * 3u;
        uint packed = 0u;
        for (uint c = 0u; c < 3u; ++c) packed |= byte_of(w[(b + c) >> 2], (b + c) & 3u) << (c * 8u);
        px[k + 1u] = unpack_pixel(packed);
      }
    }
  } else {  // the row's last block, cut by the frame's edge: one pixel at a time
    for (uint k = 0u; k < BLOCK; ++k) px[k + 1u] = load_pixel(row, min(x0 + k, p.width - 1u));
  }
  if (COSITED) px[0] = x0 == 0u ? px[1] : load_pixel(row, x0 - 1u);
}

// A code value at the output's depth, rounded half up.
uint to_code(float v) { return uint(clamp(floor(v + 0.5), 0.0, float((1u << OUT_DEPTH) - 1u))); }
uint luma(vec4 c) { return to_code(dot(p.coef_y.xyz, c.rgb) + p.coef_y.w); }
uint pack4(uint a, uint b, uint c, uint d) { return a | (b << 8) | (c << 16) | (d << 24); }
// Two samples of a deep output, each in a 16-bit word.
uint pack2(uint a, uint b) { return (a << OUT_SHIFT) | (b << (OUT_SHIFT + 16u)); }

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

// Places the four bytes b0..b3 at the byte positions given by `order` (8 bits each).
uint place4(uint order, uint b0, uint b1, uint b2, uint b3) {
  return (b0 << ((order & 0xffu) * 8u)) | (b1 << (((order >> 8) & 0xffu) * 8u)) |
         (b2 << (((order >> 16) & 0xffu) * 8u)) | (b3 << (((order >> 24) & 0xffu) * 8u));
}

// Planar and semi-planar output of 16-bit words: twice the bytes of the 8-bit layouts, so one
// block's luma row is a 16-byte store, and its chroma one of 8 (4:2:x planar) or 16 bytes.
void store_deep(uint x0, uint y0, uint cy, vec4 rows[SUB_Y][kBlockWidth + 1u], uint u[kBlockWidth],
                uint v[kBlockWidth]) {
  for (uint r = 0u; r < SUB_Y; ++r) {
    if (y0 + r >= p.height) break;
    uint l[kBlockWidth];
    for (uint k = 0u; k < kBlockWidth; ++k) l[k] = luma(rows[r][k + 1u]);
    store4(0u, y0 + r, 2u * x0, 2u * p.width,
           uvec4(pack2(l[0], l[1]), pack2(l[2], l[3]), pack2(l[4], l[5]), pack2(l[6], l[7])));
  }
  uint chroma_width = (p.width + SUB_X - 1u) / SUB_X;
  uint at = 2u * (x0 / SUB_X);
  if (LAYOUT == kLayoutSemiPlanar) {  // U, V pairs; P010 and P016 put U first
    uint pairs[4];
    for (uint j = 0u; j < 4u; ++j) pairs[j] = p.dst_order == 0u ? pack2(u[j], v[j]) : pack2(v[j], u[j]);
    store4(1u, cy, 2u * x0, 4u * chroma_width, uvec4(pairs[0], pairs[1], pairs[2], pairs[3]));
  } else if (SUB_X == 1u) {
    store4(1u, cy, at, 2u * chroma_width, uvec4(pack2(u[0], u[1]), pack2(u[2], u[3]), pack2(u[4], u[5]), pack2(u[6], u[7])));
    store4(2u, cy, at, 2u * chroma_width, uvec4(pack2(v[0], v[1]), pack2(v[2], v[3]), pack2(v[4], v[5]), pack2(v[6], v[7])));
  } else {
    store2(1u, cy, at, 2u * chroma_width, uvec2(pack2(u[0], u[1]), pack2(u[2], u[3])));
    store2(2u, cy, at, 2u * chroma_width, uvec2(pack2(v[0], v[1]), pack2(v[2], v[3])));
  }
}

void main() {
  uint x0 = gl_GlobalInvocationID.x * BLOCK;
  uint y0 = gl_GlobalInvocationID.y * SUB_Y;
  if (x0 >= p.width || y0 >= p.height) return;

  vec4 rows[SUB_Y][kBlockWidth + 1u];
  for (uint r = 0u; r < SUB_Y; ++r) load_row(x0, min(y0 + r, p.height - 1u), rows[r]);

  // Chroma from RGB filtered at chroma resolution: the matrix is linear, so filtering first is
  // the same as filtering U and V, with one matrix product per chroma sample.
  const uint CW = BLOCK / SUB_X;
  uint u[kBlockWidth], v[kBlockWidth];
  for (uint j = 0u; j < CW; ++j) {
    vec4 sum = vec4(0.0);
    for (uint r = 0u; r < SUB_Y; ++r) {
      if (SUB_X == 1u)
        sum += rows[r][j + 1u];
      else if (COSITED)
        sum += (rows[r][2u * j] + 2.0 * rows[r][2u * j + 1u] + rows[r][2u * j + 2u]) * 0.5;
      else
        sum += rows[r][2u * j + 1u] + rows[r][2u * j + 2u];
    }
    vec3 c = sum.rgb / float(SUB_X * SUB_Y);
    u[j] = to_code(dot(p.coef_u.xyz, c) + p.coef_u.w);
    v[j] = to_code(dot(p.coef_v.xyz, c) + p.coef_v.w);
  }

  uint cy = y0 / SUB_Y;
  if (OUT_DEPTH > 8u) {
    store_deep(x0, y0, cy, rows, u, v);
  } else if (LAYOUT == kLayoutPlanar || LAYOUT == kLayoutSemiPlanar) {
    for (uint r = 0u; r < SUB_Y; ++r) {
      if (y0 + r >= p.height) break;
      uint l[kBlockWidth];
      for (uint k = 0u; k < kBlockWidth; ++k) l[k] = luma(rows[r][k + 1u]);
      store2(0u, y0 + r, x0, p.width, uvec2(pack4(l[0], l[1], l[2], l[3]), pack4(l[4], l[5], l[6], l[7])));
    }
    uint chroma_width = (p.width + SUB_X - 1u) / SUB_X;
    if (LAYOUT == kLayoutPlanar) {
      uint at = x0 / SUB_X;
      if (CW == kBlockWidth) {
        store2(1u, cy, at, chroma_width, uvec2(pack4(u[0], u[1], u[2], u[3]), pack4(u[4], u[5], u[6], u[7])));
        store2(2u, cy, at, chroma_width, uvec2(pack4(v[0], v[1], v[2], v[3]), pack4(v[4], v[5], v[6], v[7])));
      } else {
        store(1u, cy, at, chroma_width, pack4(u[0], u[1], u[2], u[3]));
        store(2u, cy, at, chroma_width, pack4(v[0], v[1], v[2], v[3]));
      }
    } else {
      uint u_at = p.dst_order & 1u;  // NV12: U first; NV21: V first
      uint pairs[4];
      for (uint j = 0u; j < 4u; ++j) pairs[j] = (u[j] << (u_at * 8u)) | (v[j] << ((1u - u_at) * 8u));
      store2(1u, cy, x0, 2u * chroma_width, uvec2(pairs[0] | (pairs[1] << 16), pairs[2] | (pairs[3] << 16)));
    }
  } else if (LAYOUT == kLayoutPacked422) {
    uint row_bytes = 4u * ((p.width + 1u) / 2u);
    uint words[4];
    for (uint j = 0u; j < 4u; ++j)
      words[j] = place4(p.dst_order, luma(rows[0][2u * j + 1u]), u[j], luma(rows[0][2u * j + 2u]), v[j]);
    store4(0u, y0, 2u * x0, row_bytes, uvec4(words[0], words[1], words[2], words[3]));
  } else {
    uint words[kBlockWidth];
    for (uint j = 0u; j < BLOCK; ++j) {
      vec4 c = rows[0][j + 1u];
      words[j] = place4(p.dst_order, uint(c.a), luma(c), u[j], v[j]);
    }
    for (uint k = 0u; k < BLOCK / 4u; ++k)
      store4(0u, y0, 4u * (x0 + 4u * k), 4u * p.width,
             uvec4(words[4u * k], words[4u * k + 1u], words[4u * k + 2u], words[4u * k + 3u]));
  }
}
