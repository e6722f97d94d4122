// The bounded 1-D grid of the frame kernels (lumamax_frame.comp, histogram_fast8.comp): a region's
// rows, laid end to end, are a sequence of 16-byte loads, each row's first at its first pixel, and
// a tile is one load per invocation of a workgroup. The grid's workgroups stride over the tiles:
// invocation i of workgroup g takes load g * N + i of the sequence (N the workgroup's invocations),
// then a grid's worth of loads further each time. A bounded grid pays a workgroup's fixed costs
// (clearing, flushing, the finish counter) once per workgroup, not per tile, and no frame is too
// tall for one dispatch. Needs words.glsl with SRC_VEC4.

// Where an invocation's next load is: its row in the region and its load in that row; and the
// grid's worth of loads it moves on by, as rows and loads.
struct LoadWalk {
  uint row, col;
  uint step_rows, step_cols;
  uint row_loads;  // loads per row of the region
};

LoadWalk start_walk(uint row_loads) {
  uint step = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uint first = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationIndex;
  return LoadWalk(first / row_loads, first % row_loads, step / row_loads, step % row_loads, row_loads);
}

void advance(inout LoadWalk walk) {
  walk.col += walk.step_cols;
  walk.row += walk.step_rows;
  if (walk.col >= walk.row_loads) {
    walk.col -= walk.row_loads;
    ++walk.row;
  }
}

// The 16 bytes from byte `addr`: one 16-byte load where aligned and inside the buffer, else words
// (words.glsl's load_words).
uvec4 load16(uint addr) {
  uint w[8];
  load_words(addr, 4u, w);
  return uvec4(w[0], w[1], w[2], w[3]);
}
