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

// Every step below hands each invocation up to PER_INVOCATION entries, `GROUP` apart, and reads
// all of them before it combines or stores any: a constant trip count, so the reads (of device
// memory, then of shared memory) are in flight together rather than one latency after the other.
const uint GROUP = kTileGroupX * kTileGroupY;
const uint PER_INVOCATION = (TABLE_WORDS + GROUP - 1u) / GROUP;

// One step of a table: entry i of the next level from entries i and i + span of this one, for the
// first n entries. Entries whose window passes the end of their row or column are never queried,
// so they are built from whatever follows (within the table).
void next_level(uint t, uint n, uint span, bool dilate, uint lid) {
  uint a[PER_INVOCATION], b[PER_INVOCATION];
  for (uint j = 0u; j < PER_INVOCATION; ++j) {
    uint i = lid + j * GROUP;
    if (i < n) {
      a[j] = s_table[t][i];
      b[j] = s_table[t][min(i + span, n - 1u)];
    }
  }
  for (uint j = 0u; j < PER_INVOCATION; ++j) {
    uint i = lid + j * GROUP;
    if (i < n) s_table[t ^ 1u][i] = morph_op(dilate, a[j], b[j]);
  }
}

void main() {
  uint lid = gl_LocalInvocationIndex;
  bool dilate = p.dilate != 0u;
  uint ident = morph_identity(dilate);
  int x0 = int(gl_WorkGroupID.x * p.tile_w), y0 = int(gl_WorkGroupID.y * p.tile_h);
  uint kw = 2u * p.half_w + 1u, kh = 2u * p.half_h + 1u;
  uint pw = p.tile_w + 2u * p.half_w, ph = p.tile_h + 2u * p.half_h;  // the padded tile
  uint tile_shift = uint(findMSB(p.tile_w));  // tiles are a power of two wide

  // The padded tile, pixels outside the frame as the identity (they never win). Entry i is
  // (row i / pw, column i % pw), followed from the invocation's first by GROUP = q rows and m columns.
  {
    uint q = GROUP / pw, m = GROUP % pw;
    uint r = lid / pw, c = lid % pw;
    uint v[PER_INVOCATION];
    for (uint j = 0u; j < PER_INVOCATION; ++j) {
      int y = y0 - int(p.half_h) + int(r), x = x0 - int(p.half_w) + int(c);
      bool inside = r < ph && y >= 0 && y < int(p.height) && x >= 0 && x < int(p.width);
      v[j] = inside ? src[p.src_origin + uint(y) * p.src_stride + uint(x)] : ident;
      r += q;
      c += m;
      if (c >= pw) c -= pw, r += 1u;
    }
    for (uint j = 0u; j < PER_INVOCATION; ++j) {
      uint i = lid + j * GROUP;
      if (i < pw * ph) s_table[0][i] = v[j];
    }
  }

  // Rows, pw entries each.
  uint t = 0u, span = 1u;
  for (; 2u * span <= kw; span *= 2u, t ^= 1u) {
    barrier();
    next_level(t, pw * ph, span, dilate, lid);
  }
  barrier();
  {
    // The rows' results, tile_w a row, start the columns' table.
    uint n = p.tile_w * ph, a[PER_INVOCATION], b[PER_INVOCATION];
    for (uint j = 0u; j < PER_INVOCATION; ++j) {
      uint i = lid + j * GROUP;
      uint at = (i >> tile_shift) * pw + (i & (p.tile_w - 1u));
      if (i < n) {
        a[j] = s_table[t][at];
        b[j] = s_table[t][at + kw - span];
      }
    }
    for (uint j = 0u; j < PER_INVOCATION; ++j)
      if (lid + j * GROUP < n) s_table[t ^ 1u][lid + j * GROUP] = morph_op(dilate, a[j], b[j]);
    t ^= 1u;
  }

  // Columns, tile_w entries apart.
  for (span = 1u; 2u * span <= kh; span *= 2u, t ^= 1u) {
    barrier();
    next_level(t, p.tile_w * ph, span * p.tile_w, dilate, lid);
  }
  barrier();
  for (uint j = 0u; j < PER_INVOCATION; ++j) {
    uint i = lid + j * GROUP;
    uint r = i >> tile_shift, c = i & (p.tile_w - 1u);
    uint x = uint(x0) + c, y = uint(y0) + r;
    if (r >= p.tile_h || x >= p.width || y >= p.height) continue;
    uint v = morph_op(dilate, s_table[t][i], s_table[t][i + (kh - span) * p.tile_w]);
    if (p.keep != 0u) v = (v & ~p.keep) | (other[p.other_origin + y * p.other_stride + x] & p.keep);
    dst[p.dst_origin + y * p.dst_stride + x] = v;
  }
}
