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

void fill_smooth_frame(uint8_t* data, int width, int height, int bpp, size_t stride, int index) {
  std::mt19937 rng(0x5300u + unsigned(index));
  std::uniform_int_distribution<int> noise(-2, 2);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < bpp; ++c) {
        // Byte c: a gradient along x, along y, along the diagonal or both ways, shifted per frame.
        const int ramp[4] = {255 * x / width, 255 * y / height, 255 * (x + y) / (width + height),
                             255 - 255 * x / width};
        const int v = (ramp[c % 4] + 16 * index) % 256 + noise(rng);
        data[size_t(y) * stride + size_t(x) * bpp + c] = uint8_t(v < 0 ? 0 : v > 255 ? 255 : v);
      }
}

}  // namespace bench
