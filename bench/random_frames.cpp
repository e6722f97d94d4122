#include "random_frames.hpp"

#include <cstring>
#include <random>

namespace bench {

void fill_random_frame(uint8_t* data, size_t size, int index) {
  std::mt19937_64 rng(0x5eed0000u + unsigned(index));
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    const uint64_t word = rng();
    std::memcpy(data + i, &word, 8);
  }
  for (const uint64_t word = rng(); i < size; ++i) data[i] = uint8_t(word >> (8 * (i % 8)));
}

}  // namespace bench
