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
