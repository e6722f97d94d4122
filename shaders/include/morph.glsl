// Lane-wise minimum and maximum over the words of the morph kernels' working images (the first
// passes read the input frame's plane in place when it is already one word per pixel in device
// memory: 32-bit RGB formats in a chain). A word holds one pixel: up to four 8-bit channels in its bytes, or (ONE_LANE) a single 8- or 16-bit sample in
// its low bits with the rest zero, which a plain min or max filters in one instruction instead of
// four lanes' worth. Every lane is filtered independently; the element restores the lanes that
// must stay unchanged (alpha, padding) when it writes the output.
//
// `dilate` selects max (dilation) or min (erosion). Pixels outside the frame do not take part:
// they read as the operation's identity (0 for max, all ones for min), OpenCV's default border.

uint lane_max(uint a, uint b) {
  if (ONE_LANE) return max(a, b);
  uvec4 m = max((uvec4(a) >> uvec4(0u, 8u, 16u, 24u)) & 0xffu, (uvec4(b) >> uvec4(0u, 8u, 16u, 24u)) & 0xffu);
  return m.x | (m.y << 8) | (m.z << 16) | (m.w << 24);
}

uint lane_min(uint a, uint b) {
  if (ONE_LANE) return min(a, b);
  uvec4 m = min((uvec4(a) >> uvec4(0u, 8u, 16u, 24u)) & 0xffu, (uvec4(b) >> uvec4(0u, 8u, 16u, 24u)) & 0xffu);
  return m.x | (m.y << 8) | (m.z << 16) | (m.w << 24);
}

uint morph_op(bool dilate, uint a, uint b) { return dilate ? lane_max(a, b) : lane_min(a, b); }

uint morph_identity(bool dilate) { return dilate ? 0u : 0xffffffffu; }
