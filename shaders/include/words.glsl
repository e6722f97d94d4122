// Byte access to a frame held in a uint[] storage buffer named `src`: the kernels read packed
// 8-bit pixels as 32-bit words, at any byte address (GStreamer strides and plane offsets need not
// be multiples of 4).

// The 32-bit word starting at any byte address; word indices are clamped to the buffer, so reads
// past its end return repeated data instead of faulting.
uint load_word(uint byte_addr) {
  uint last = uint(src.length()) - 1u;
  uint i = byte_addr >> 2;
  uint shift = (byte_addr & 3u) * 8u;
  uint lo = src[min(i, last)];
  if (shift == 0u) return lo;
  uint hi = src[min(i + 1u, last)];
  return (lo >> shift) | (hi << (32u - shift));
}

uint byte_of(uint word, uint index) { return (word >> (index * 8u)) & 0xffu; }

// Byte `index` (0..15) of four consecutive words.
uint byte_of4(uint w[4], uint index) { return byte_of(w[index >> 2], index & 3u); }

#ifdef SRC_VEC4
// Needs `src4`, a uvec4 view of the same buffer as `src`.
// The words holding four pixels of `bpp` bytes from byte `addr` (words past bpp are 0): one
// 16-byte load for 32-bit pixels at an aligned address, so a subgroup reads whole contiguous lines
// (on a discrete GPU reading host memory, four strided word loads fetch the same lines four
// times).
void load_quad(uint addr, uint bpp, out uint w[4]) {
  if (bpp == 4u && (addr & 15u) == 0u && (addr >> 4) < uint(src4.length())) {
    uvec4 v = src4[addr >> 4];
    w = uint[4](v.x, v.y, v.z, v.w);
  } else {
    for (uint k = 0u; k < 4u; ++k) w[k] = k < bpp ? load_word(addr + 4u * k) : 0u;
  }
}
#endif
