#version 450
#extension GL_GOOGLE_include_directive : require
// Erosion or dilation with a mask made of one horizontal run per row, centred on the mask's
// centre column (OpenCV's ellipse; any symmetric mask of that kind), at O(mask height) per pixel.
//
// A workgroup produces a tile of TILE_W x TILE_H pixels (kRowsTileWidth x kRowsTileHeight of
// morph_layout.h). It walks the input rows that reach the tile; for each it builds, in shared
// memory, a sparse table of the row segment: level j holds the extreme of the 2^j samples starting
// at each position. A run of length L = 2a + 1 is then the combination of two overlapping
// level-floor(log2 L) windows, so each output pixel combines two table entries per mask row,
// whatever the run lengths. Every input row is read once per tile.

#include "morph_layout.h"

layout(local_size_x = kRowsGroupX, local_size_y = kRowsGroupY) in;
layout(constant_id = 0) const bool ONE_LANE = false;  // see include/morph.glsl
layout(constant_id = 1) const uint LANE_BITS = 8;     // 8, 10 or 16: see include/morph.glsl

const uint TILE_W = kRowsTileWidth;
const uint ROWS_PER_THREAD = kRowsPerInvocation;
const uint TILE_H = kRowsTileHeight;
const uint MAX_HALF = kMaxHalf;  // half of the widest mask (kMaxMaskSize)
const uint SEGMENT = TILE_W + 2u * MAX_HALF;
const uint LEVELS = 8u;  // windows of 1..128 samples: enough for runs of up to 255 (kMaxMaskSize)

layout(set = 0, binding = 0) restrict readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) restrict writeonly buffer Dst { uint dst[]; };
layout(set = 0, binding = 2) restrict readonly buffer Runs { uint half_width[]; };  // per mask row

#include "include/morph.glsl"

layout(push_constant) uniform PushConstants { RowsParams p; };

const uint GROUP = kRowsGroupX * kRowsGroupY;               // invocations
const uint SEGMENT_LOADS = (SEGMENT + GROUP - 1u) / GROUP;  // samples each loads per row

shared uint table[LEVELS][SEGMENT];

// Row `y`'s samples [x0 - half_w, x0 - half_w + segment) that invocation `lid` loads.
void load_segment(int y, int x0, uint segment, uint lid, uint ident, out uint values[SEGMENT_LOADS]) {
  for (uint i = 0u; i < SEGMENT_LOADS; ++i) {
    int ix = x0 - int(p.half_w) + int(lid + i * GROUP);
    bool inside = lid + i * GROUP < segment && ix >= 0 && ix < int(p.width);
    values[i] = inside ? src[p.src_origin + uint(y) * p.src_stride + uint(ix)] : ident;
  }
}

void main() {
  bool dilate = p.dilate != 0u;
  uint ident = morph_identity(dilate);
  uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
  uint lid = ly * TILE_W + lx;
  int x0 = int(gl_WorkGroupID.x * TILE_W), y0 = int(gl_WorkGroupID.y * TILE_H);
  uint segment = TILE_W + 2u * p.half_w;
  uint levels = uint(findMSB(2u * p.half_w + 1u));  // highest level a run needs

  uint acc[ROWS_PER_THREAD];
  for (uint t = 0u; t < ROWS_PER_THREAD; ++t) acc[t] = ident;

  // Rows outside the frame hold only the identity: skip them (a uniform decision).
  int first = max(y0 - int(p.half_h), 0);
  int last = min(y0 + int(TILE_H) - 1 + int(p.half_h), int(p.height) - 1);
  // Each invocation loads at most SEGMENT_LOADS samples of a row segment. The next row's are
  // loaded while the current row's table is built and queried, hiding the memory latency.
  uint pending[SEGMENT_LOADS];
  load_segment(first, x0, segment, lid, ident, pending);
  for (int iy = first; iy <= last; ++iy) {
    barrier();  // the previous row's table is no longer read
    for (uint i = 0u; i < SEGMENT_LOADS; ++i)
      if (lid + i * GROUP < segment) table[0][lid + i * GROUP] = pending[i];
    if (iy < last) load_segment(iy + 1, x0, segment, lid, ident, pending);
    for (uint level = 1u; level <= levels; ++level) {
      barrier();
      uint half_span = 1u << (level - 1u);
      for (uint j = lid; j + 2u * half_span <= segment; j += GROUP)
        table[level][j] = morph_op(dilate, table[level - 1u][j], table[level - 1u][j + half_span]);
    }
    barrier();
    for (uint t = 0u; t < ROWS_PER_THREAD; ++t) {
      int dy = iy - (y0 + int(ly + kRowsGroupY * t));
      if (dy < -int(p.half_h) || dy > int(p.half_h)) continue;
      uint a = half_width[uint(dy + int(p.half_h))];
      uint level = uint(findMSB(2u * a + 1u));
      uint from = lx + p.half_w - a;
      uint to = lx + p.half_w + a + 1u - (1u << level);
      acc[t] = morph_op(dilate, acc[t], morph_op(dilate, table[level][from], table[level][to]));
    }
  }
  uint x = uint(x0) + lx;
  for (uint t = 0u; t < ROWS_PER_THREAD; ++t) {
    uint y = uint(y0) + ly + kRowsGroupY * t;
    if (x < p.width && y < p.height) dst[y * p.width + x] = acc[t];
  }
}
