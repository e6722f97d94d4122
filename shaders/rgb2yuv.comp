#version 450
#extension GL_GOOGLE_include_directive : require
// Packed RGB (24 or 32 bits per pixel) to planar, semi-planar or packed YUV.
//
// One invocation converts a block 8 pixels wide and SUB_Y rows high, so that every 32-bit word of
// every output plane is written by exactly one invocation (4:2:0 chroma of 8 columns is one word
// of U and one of V). Input is read as 32-bit words: 24-bit RGB takes six words for eight pixels.

layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint IN_BPP = 4;       // bytes per input pixel: 3 or 4
layout(constant_id = 3) const uint LAYOUT = 0;       // 0 planar, 1 semi-planar, 2 packed 4:2:2, 3 AYUV
layout(constant_id = 4) const uint SUB_X = 2;        // horizontal chroma subsampling: 1 or 2
layout(constant_id = 5) const uint SUB_Y = 2;        // vertical chroma subsampling: 1 or 2
layout(constant_id = 6) const bool COSITED = false;  // chroma at even columns, [1,2,1]/4 filter

const uint LAYOUT_PLANAR = 0;
const uint LAYOUT_SEMI_PLANAR = 1;
const uint LAYOUT_PACKED_422 = 2;
const uint LAYOUT_AYUV = 3;

layout(set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };

#include "include/words.glsl"

layout(push_constant) uniform Params {
  uint width;
  uint height;
  uint src_offset;     // byte offset of the first pixel in src
  uint src_stride;     // bytes; any value
  uint dst_offset[3];  // byte offsets of the Y, U and V planes (multiples of 4)
  uint dst_stride[3];  // multiples of 4
  uint src_order;      // byte index of R, G, B, A inside a pixel, 8 bits each; A = 0xff: opaque
  uint dst_order;      // packed: byte index of Y0,U,Y1,V (4:2:2) or A,Y,U,V (AYUV); NV: U index
  vec4 coef_y;         // value = dot(coef.xyz, rgb) + coef.w, with rgb in 0..255
  vec4 coef_u;
  vec4 coef_v;
} p;

vec4 unpack_pixel(uint word) {
  uint a = (p.src_order >> 24) & 0xffu;
  return vec4(byte_of(word, p.src_order & 0xffu), byte_of(word, (p.src_order >> 8) & 0xffu),
              byte_of(word, (p.src_order >> 16) & 0xffu), a == 0xffu ? 255.0 : float(byte_of(word, a)));
}

// px[0] is the pixel left of the block (for the cosited filter), px[1..8] the block's pixels.
// Pixels outside the frame replicate the nearest edge pixel.
void load_row(uint x0, uint y, out vec4 px[9]) {
  uint row = p.src_offset + y * p.src_stride;
  if (IN_BPP == 4u) {
    for (uint k = 0u; k < 8u; ++k) px[k + 1u] = unpack_pixel(load_word(row + (x0 + k) * 4u));
  } else {
    uint w[6];
    for (uint k = 0u; k < 6u; ++k) w[k] = load_word(row + x0 * 3u + k * 4u);
    for (uint k = 0u; k < 8u; ++k) {
      uint b = k * 3u;
      uint packed = 0u;
      for (uint c = 0u; c < 3u; ++c) packed |= byte_of(w[(b + c) >> 2], (b + c) & 3u) << (c * 8u);
      px[k + 1u] = unpack_pixel(packed);
    }
  }
  uint last = p.width - 1u - x0;  // index of the frame's last column within the block
  for (uint k = last + 1u; k < 8u; ++k) px[k + 1u] = px[last + 1u];
  if (COSITED) px[0] = x0 == 0u ? px[1] : unpack_pixel(load_word(row + (x0 - 1u) * IN_BPP));
}

uint to_byte(float v) { return uint(clamp(floor(v + 0.5), 0.0, 255.0)); }
uint luma(vec4 c) { return to_byte(dot(p.coef_y.xyz, c.rgb) + p.coef_y.w); }
uint pack4(uint a, uint b, uint c, uint d) { return a | (b << 8) | (c << 16) | (d << 24); }

// Writes a word of a plane row when it holds at least one of the row's `row_bytes` samples.
void store(uint plane, uint y, uint byte_in_row, uint row_bytes, uint value) {
  if (byte_in_row < row_bytes) dst[(p.dst_offset[plane] + y * p.dst_stride[plane] + byte_in_row) >> 2] = value;
}

// Places the four bytes b0..b3 at the byte positions given by `order` (8 bits each).
uint place4(uint order, uint b0, uint b1, uint b2, uint b3) {
  return (b0 << ((order & 0xffu) * 8u)) | (b1 << (((order >> 8) & 0xffu) * 8u)) |
         (b2 << (((order >> 16) & 0xffu) * 8u)) | (b3 << (((order >> 24) & 0xffu) * 8u));
}

void main() {
  uint x0 = gl_GlobalInvocationID.x * 8u;
  uint y0 = gl_GlobalInvocationID.y * SUB_Y;
  if (x0 >= p.width || y0 >= p.height) return;

  vec4 rows[SUB_Y][9];
  for (uint r = 0u; r < SUB_Y; ++r) load_row(x0, min(y0 + r, p.height - 1u), rows[r]);

  // Chroma from RGB filtered at chroma resolution: the matrix is linear, so filtering first is
  // the same as filtering U and V, with one matrix product per chroma sample.
  const uint CW = 8u / SUB_X;
  uint u[8], v[8];
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
    u[j] = to_byte(dot(p.coef_u.xyz, c) + p.coef_u.w);
    v[j] = to_byte(dot(p.coef_v.xyz, c) + p.coef_v.w);
  }

  uint cy = y0 / SUB_Y;
  if (LAYOUT == LAYOUT_PLANAR || LAYOUT == LAYOUT_SEMI_PLANAR) {
    for (uint r = 0u; r < SUB_Y; ++r) {
      if (y0 + r >= p.height) break;
      for (uint k = 0u; k < 2u; ++k) {
        vec4 q[9] = rows[r];
        uint i = 4u * k + 1u;
        store(0u, y0 + r, x0 + 4u * k, p.width,
              pack4(luma(q[i]), luma(q[i + 1u]), luma(q[i + 2u]), luma(q[i + 3u])));
      }
    }
    uint chroma_width = (p.width + SUB_X - 1u) / SUB_X;
    if (LAYOUT == LAYOUT_PLANAR) {
      for (uint k = 0u; k < CW / 4u; ++k) {
        uint j = 4u * k;
        uint at = x0 / SUB_X + j;
        store(1u, cy, at, chroma_width, pack4(u[j], u[j + 1u], u[j + 2u], u[j + 3u]));
        store(2u, cy, at, chroma_width, pack4(v[j], v[j + 1u], v[j + 2u], v[j + 3u]));
      }
    } else {
      uint u_at = p.dst_order & 1u;  // NV12: U first; NV21: V first
      for (uint k = 0u; k < 2u; ++k) {
        uint j = 2u * k;
        uint pair0 = (u[j] << (u_at * 8u)) | (v[j] << ((1u - u_at) * 8u));
        uint pair1 = (u[j + 1u] << (u_at * 8u)) | (v[j + 1u] << ((1u - u_at) * 8u));
        store(1u, cy, x0 + 4u * k, 2u * chroma_width, pair0 | (pair1 << 16));
      }
    }
  } else if (LAYOUT == LAYOUT_PACKED_422) {
    uint row_bytes = 4u * ((p.width + 1u) / 2u);
    for (uint j = 0u; j < 4u; ++j)
      store(0u, y0, 2u * x0 + 4u * j, row_bytes,
            place4(p.dst_order, luma(rows[0][2u * j + 1u]), u[j], luma(rows[0][2u * j + 2u]), v[j]));
  } else {
    for (uint j = 0u; j < 8u; ++j) {
      vec4 c = rows[0][j + 1u];
      store(0u, y0, 4u * (x0 + j), 4u * p.width, place4(p.dst_order, uint(c.a), luma(c), u[j], v[j]));
    }
  }
}
