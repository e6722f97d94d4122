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

// Byte `index` (0..15) of four consecutive words. The word is picked by selects, not by indexing
// `w` with a value known only at run time: that would put the array in the invocation's local
// memory (off-chip, on NVIDIA) instead of registers.
uint byte_of4(uint w[4], uint index) {
  uint i = index >> 2;
  return byte_of(i == 0u ? w[0] : i == 1u ? w[1] : i == 2u ? w[2] : w[3], index & 3u);
}

#ifdef SRC_VEC4
// Needs `src4`, a uvec4 view of the same buffer as `src`.
// The `n` (at most 8) words from byte `addr`, read with 16-byte loads where `addr` is aligned and
// the loads stay inside the buffer, so a subgroup reads whole contiguous lines (on a discrete GPU
// reading host memory, strided word loads fetch the same lines several times). Words past `n`
// may hold the bytes that follow.
void load_words(uint addr, uint n, out uint w[8]) {
  if ((addr & 15u) == 0u && (addr >> 4) + (n + 3u) / 4u <= uint(src4.length())) {
    for (uint k = 0u; k < n; k += 4u) {
      uvec4 v = src4[(addr >> 4) + k / 4u];
      w[k] = v.x;
      w[k + 1u] = v.y;
      w[k + 2u] = v.z;
      w[k + 3u] = v.w;
    }
  } else {
    for (uint k = 0u; k < n; ++k) w[k] = load_word(addr + 4u * k);
  }
}

// Byte `index` (0..31) of eight consecutive words, selected as byte_of4 does.
uint byte_of8(uint w[8], uint index) {
  uint i = index >> 2;
  uint lo = i == 0u ? w[0] : i == 1u ? w[1] : i == 2u ? w[2] : w[3];
  uint hi = i == 4u ? w[4] : i == 5u ? w[5] : i == 6u ? w[6] : w[7];
  return byte_of(i < 4u ? lo : hi, index & 3u);
}

// The `bytes` (1, 2 or 4) bytes from byte `index` of eight words, little-endian (a sample of a
// deep format). `narrow`: the pixels have at most 4 bytes (index < 16), where byte_of4 picks among
// four words only, as for the 8-bit formats. Give constants for both: the branches fold.
uint sample_of(uint w[8], uint index, uint bytes, bool narrow) {
  if (narrow && bytes == 1u) {
    uint w4[4] = uint[4](w[0], w[1], w[2], w[3]);
    return byte_of4(w4, index);
  }
  uint v = byte_of8(w, index);
  if (bytes >= 2u) v |= byte_of8(w, index + 1u) << 8;
  if (bytes == 4u) v |= (byte_of8(w, index + 2u) << 16) | (byte_of8(w, index + 3u) << 24);
  return v;
}

// The words holding four pixels of `bpp` bytes from byte `addr` (words past bpp are 0).
void load_quad(uint addr, uint bpp, out uint w[4]) {
  uint all[8];
  load_words(addr, bpp, all);
  for (uint k = 0u; k < 4u; ++k) w[k] = k < bpp ? all[k] : 0u;
}
#endif
