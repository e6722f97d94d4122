#version 450
#extension GL_GOOGLE_include_directive : require
// One-dimensional erosion or dilation along the rows of a working image (or of the input frame's
// plane, see include/morph.glsl), over the window [x - radius, x + radius], with a sparse table in
// shared memory. A workgroup takes one row.
//
// The row is copied into shared memory with `radius` identity samples on each side (pixels outside
// the frame never win), so that every output's window is k = 2 * radius + 1 samples of that padded
// line starting at the output's own index. Level l of the table holds the extreme of the 2^l samples
// starting at each position; each level is one parallel step over the line. With p the largest
// power of two not above k, an output is the extreme of two overlapping level-log2(p) entries,
// at x and at x + k - p.
//
// Every invocation of the workgroup works at every step: log2(k) short steps with no dependency
// between neighbouring samples. A walk along the row (van Herk) costs O(1) per sample too, but its
// 2k steps are one dependent chain per block of k samples, run by only width / k invocations of
// the row. Measured on the H200 (1080p, four 8-bit lanes): the walk took 19 us at k = 15 and 36 us
// at k = 61, the table 18 and 24 us.

#include "morph_layout.h"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const bool ONE_LANE = false;  // see include/morph.glsl
layout(constant_id = 2) const uint LINE_WORDS = 1;  // at least width + 2 * radius
layout(constant_id = 3) const uint LANE_BITS = 8;   // 8, 10 or 16: see include/morph.glsl

layout(set = 0, binding = 0) restrict readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1) restrict writeonly buffer Dst { uint dst[]; };

#include "include/morph.glsl"

layout(push_constant) uniform PushConstants { RowTableParams p; };

// The table's current level and the next one, in turn.
shared uint s_table[kRowTableLevels][LINE_WORDS];

// Each step hands an invocation up to PER_INVOCATION samples, a workgroup apart, and reads all of
// them before it combines or stores any: a constant trip count, so that the reads (of the row in
// device memory, then of the table) are in flight together rather than one latency after another.
// A workgroup's row is then read in the time of one read, not of LINE_WORDS / local_size_x of them.
// H200, 16 frames in device memory (run 199): dilate 9x9 at 1080p 29.4 -> 28.9 us a frame, at 4K
// 97.7 -> 92.1.
const uint PER_INVOCATION = (LINE_WORDS + gl_WorkGroupSize.x - 1u) / gl_WorkGroupSize.x;

void main() {
  const uint W = gl_WorkGroupSize.x;
  uint lid = gl_LocalInvocationID.x;
  bool dilate = p.dilate != 0u;
  uint ident = morph_identity(dilate);
  uint base = gl_WorkGroupID.x * p.line_step;
  uint src_base = p.src_origin + gl_WorkGroupID.x * p.src_line_step;
  uint k = 2u * p.radius + 1u;
  uint padded = p.width + 2u * p.radius;

  {
    uint v[PER_INVOCATION];
    for (uint i = 0u; i < PER_INVOCATION; ++i) {
      uint j = lid + i * W;
      bool inside = j >= p.radius && j < p.radius + p.width;
      v[i] = inside ? src[src_base + j - p.radius] : ident;
    }
    for (uint i = 0u; i < PER_INVOCATION; ++i)
      if (lid + i * W < padded) s_table[0][lid + i * W] = v[i];
  }
  uint level = 0u;
  uint span = 1u;  // samples per entry of the current level
  for (; 2u * span <= k; span *= 2u, level ^= 1u) {
    barrier();
    // Entries whose span would reach past the line are never queried.
    uint a[PER_INVOCATION], b[PER_INVOCATION];
    for (uint i = 0u; i < PER_INVOCATION; ++i) {
      uint j = lid + i * W;
      if (j + 2u * span <= padded) {
        a[i] = s_table[level][j];
        b[i] = s_table[level][j + span];
      }
    }
    for (uint i = 0u; i < PER_INVOCATION; ++i) {
      uint j = lid + i * W;
      if (j + 2u * span <= padded) s_table[level ^ 1u][j] = morph_op(dilate, a[i], b[i]);
    }
  }
  barrier();
  for (uint x = lid; x < p.width; x += W)
    dst[base + x] = morph_op(dilate, s_table[level][x], s_table[level][x + k - span]);
}
