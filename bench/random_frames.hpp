// Seeded random frame contents, so every variant of a case sees the same frames.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bench {

constexpr int kRingFrames = 4;  // distinct frames fed in turn

// Fills `size` bytes with the pseudo-random bytes of frame `index` (the same for every variant).
void fill_random_frame(uint8_t* data, size_t size, int index);

}  // namespace bench
