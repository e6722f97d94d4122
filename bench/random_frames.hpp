// Seeded random frame contents, so every variant of a case sees the same frames.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bench {

constexpr int kRingFrames = 4;  // distinct frames fed in turn

// Fills `size` bytes with the pseudo-random bytes of frame `index` (the same for every variant).
void fill_random_frame(uint8_t* data, size_t size, int index);

// Fills a packed 8-bit frame (`bpp` bytes per pixel, `stride` bytes per row) with frame `index` of
// smooth content, as camera frames have: each byte of a pixel a different slow gradient across the
// frame, plus seeded noise of +-2 levels. Neighbouring pixels then have neighbouring colours (a
// colour lookup fetches nearby table entries), which random bytes never do.
void fill_smooth_frame(uint8_t* data, int width, int height, int bpp, size_t stride, int index);

}  // namespace bench
