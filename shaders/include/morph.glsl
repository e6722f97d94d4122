// Lane-wise minimum and maximum over the words of the morph kernels' working images (the first
// passes read the input frame's plane in place when it is already one word per pixel in device
// memory: 32-bit RGB formats in a chain). A word holds one pixel: up to four 8-bit channels in its bytes (or lanes of LANE_BITS), or (ONE_LANE) a single 8- or 16-bit sample in
// its low bits with the rest zero, which a plain min or max filters in one instruction instead of
// four lanes' worth. Every lane is filtered independently; the element restores the lanes that
// must stay unchanged (alpha, padding) when it writes the output.
//
// `dilate` selects max (dilation) or min (erosion). Pixels outside the frame do not take part:
// they read as the operation's identity (0 for max, all ones for min), OpenCV's default border.

// Per lane, all ones where a's lane is at least b's, else zero: the unsigned comparison of every
// lane at once in a few word operations (no lane's borrow reaches the next). The filters run a
// handful of these per pixel, so unpacking the lanes into a vector instead (shift, mask, compare
// and repack: about three times the instructions) made the four-lane passes bound by integer
// throughput on the GPU. Lanes are LANE_BITS wide from bit 0: four bytes, two 16-bit halves
// (RGBA64_LE's R and G, or B and A), or three 10-bit lanes (BGR10A2_LE's colour; its two alpha bits
// take part in no comparison and come out of either operand, the element restoring them).
uint lane_high_bits() {
  return LANE_BITS == 16u ? 0x80008000u : LANE_BITS == 10u ? 0x20080200u : 0x80808080u;
}

uint lanes_at_least(uint a, uint b) {
  const uint kHigh = lane_high_bits();
  // The top bit of each lane: the low bits of a's lane >= those of b's.
  uint low_ge = (a | kHigh) - (b & ~kHigh);
  // a >= b: a's top bit set and b's clear, or both equal and the low bits decide.
  uint ge = ((a & ~b) | (~(a ^ b) & low_ge)) & kHigh;
  return (ge >> (LANE_BITS - 1u)) * ((1u << LANE_BITS) - 1u);
}

uint lane_max(uint a, uint b) {
  if (ONE_LANE) return max(a, b);
  uint a_wins = lanes_at_least(a, b);
  return (a & a_wins) | (b & ~a_wins);
}

uint lane_min(uint a, uint b) {
  if (ONE_LANE) return min(a, b);
  uint a_wins = lanes_at_least(a, b);
  return (b & a_wins) | (a & ~a_wins);
}

uint morph_op(bool dilate, uint a, uint b) { return dilate ? lane_max(a, b) : lane_min(a, b); }

uint morph_identity(bool dilate) { return dilate ? 0u : 0xffffffffu; }
