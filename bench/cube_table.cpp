#include "cube_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

namespace bench {

bool write_cube_table(const std::string& path, int size) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::perror(path.c_str());
    return false;
  }
  // A mild colour grade: gamma per channel plus a low-frequency random wobble.
  std::mt19937 rng(33);
  std::uniform_real_distribution<double> wobble(-0.05, 0.05);
  const double gamma[3] = {0.9, 1.0, 1.1}, amp[3] = {wobble(rng), wobble(rng), wobble(rng)};
  std::fprintf(f, "TITLE \"vkcompute-bench %d\"\nLUT_3D_SIZE %d\n", size, size);
  for (int b = 0; b < size; ++b)
    for (int g = 0; g < size; ++g)
      for (int r = 0; r < size; ++r) {
        const double in[3] = {double(r) / (size - 1), double(g) / (size - 1), double(b) / (size - 1)};
        double out[3];
        for (int c = 0; c < 3; ++c)
          out[c] = std::clamp(std::pow(in[c], gamma[c]) + amp[c] * std::sin(3.0 * in[(c + 1) % 3]), 0.0, 1.0);
        std::fprintf(f, "%.6f %.6f %.6f\n", out[0], out[1], out[2]);
      }
  return std::fclose(f) == 0;
}

}  // namespace bench
