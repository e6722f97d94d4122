#version 450
#extension GL_GOOGLE_include_directive : require
// Erosion or dilation with a rectangle (or a rectangle's iterations: one wider rectangle) in one
// pass: a workgroup produces a tile of tile_w x tile_h pixels from the tile's input and its border
// of half_w columns and half_h rows each side, held in shared memory.
//
// The two separable passes of the line kernels need a barrier between them, and a working image
// that every morph of the device shares, so every frame waited for all earlier work on the queue
// twice and frames never overlapped on the GPU. Here a frame is one dispatch with no barrier: the
// price is the border, read again by each neighbouring tile (from the cache) and filtered with it.
//
// Along rows then along columns, a sparse table (as morph_row_table.comp): each level holds the
// extreme of twice the samples of the previous one, from each position, and a window of k samples
// is the extreme of two overlapping entries of the largest level not longer than k. The levels
// alternate between the two tables; the rows' results, tile_w wide, start the columns' table.
// The element takes this kernel where both tables fit the device's shared memory, choosing the
// tile shape that reads the fewest border samples (morph_passes.cpp).

#include "morph_layout.h"

layout(local_size_x = kTileGroupX, local_size_y = kTileGroupY) in;
layout(constant_id = 0) const bool ONE_LANE = false;  // see include/morph.glsl
layout(constant_id = 1) const uint LANE_BITS = 8;     // 8, 10 or 16: see include/morph.glsl
layout(constant_id = 2) const uint TABLE_WORDS = 1;   // of each table: at least (tile_w + 2 half_w) x (tile_h + 2 half_h)

layout(set = 0, binding = 0) restrict readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) restrict writeonly buffer Dst { uint dst[]; };
layout(set = 0, binding = 2) restrict readonly buffer Other { uint other[]; };  // keep: lanes from here

#include "include/morph.glsl"

layout(push_constant) uniform PushConstants { TileParams p; };

shared uint s_table[2][TABLE_WORDS];

void main() {
  const uint GX = gl_WorkGroupSize.x, GY = gl_WorkGroupSize.y;
  uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
  bool dilate = p.dilate != 0u;
  uint ident = morph_identity(dilate);
  int x0 = int(gl_WorkGroupID.x * p.tile_w), y0 = int(gl_WorkGroupID.y * p.tile_h);
  uint kw = 2u * p.half_w + 1u, kh = 2u * p.half_h + 1u;
  uint pw = p.tile_w + 2u * p.half_w, ph = p.tile_h + 2u * p.half_h;  // the padded tile

  // The padded tile, pixels outside the frame as the identity (they never win).
  for (uint r = ly; r < ph; r += GY) {
    int y = y0 - int(p.half_h) + int(r);
    bool row_inside = y >= 0 && y < int(p.height);
    for (uint c = lx; c < pw; c += GX) {
      int x = x0 - int(p.half_w) + int(c);
      bool inside = row_inside && x >= 0 && x < int(p.width);
      s_table[0][r * pw + c] = inside ? src[p.src_origin + uint(y) * p.src_stride + uint(x)] : ident;
    }
  }

  // Rows: level entries of `span` samples; only those a window can reach are built.
  uint t = 0u, span = 1u;
  for (; 2u * span <= kw; span *= 2u, t ^= 1u) {
    barrier();
    for (uint r = ly; r < ph; r += GY)
      for (uint c = lx; c + 2u * span <= pw; c += GX)
        s_table[t ^ 1u][r * pw + c] = morph_op(dilate, s_table[t][r * pw + c], s_table[t][r * pw + c + span]);
  }
  barrier();
  for (uint r = ly; r < ph; r += GY)
    for (uint c = lx; c < p.tile_w; c += GX)
      s_table[t ^ 1u][r * p.tile_w + c] =
          morph_op(dilate, s_table[t][r * pw + c], s_table[t][r * pw + c + kw - span]);
  t ^= 1u;

  // Columns of the rows' results, tile_w words a row.
  for (span = 1u; 2u * span <= kh; span *= 2u, t ^= 1u) {
    barrier();
    for (uint r = ly; r + 2u * span <= ph; r += GY)
      for (uint c = lx; c < p.tile_w; c += GX)
        s_table[t ^ 1u][r * p.tile_w + c] =
            morph_op(dilate, s_table[t][r * p.tile_w + c], s_table[t][(r + span) * p.tile_w + c]);
  }
  barrier();
  for (uint r = ly; r < p.tile_h; r += GY) {
    uint y = uint(y0) + r;
    for (uint c = lx; c < p.tile_w; c += GX) {
      uint x = uint(x0) + c;
      if (x >= p.width || y >= p.height) continue;
      uint v = morph_op(dilate, s_table[t][r * p.tile_w + c], s_table[t][(r + kh - span) * p.tile_w + c]);
      if (p.keep != 0u) v = (v & ~p.keep) | (other[p.other_origin + y * p.other_stride + x] & p.keep);
      dst[p.dst_origin + y * p.dst_stride + x] = v;
    }
  }
}
