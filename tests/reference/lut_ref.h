// CPU reference of the lut element, written from the formulas of ffmpeg's lut3d/lut1d filters and
// GPUImage's lookup filter, in double precision, on tables the tests build themselves.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace lut_ref {

enum class Interp { kNearest, kTrilinear, kTetrahedral };

using Rgb = std::array<double, 3>;

// A 3D (size³ entries, red fastest) or 1D (size entries) table with its input domain.
struct Cube {
  bool one_d = false;
  int size = 0;
  std::vector<Rgb> entries;
  Rgb domain_min = {0, 0, 0};
  Rgb domain_max = {1, 1, 1};

  const Rgb& at(int r, int g, int b) const { return entries[r + size * (g + size * b)]; }
};

// lut(rgb) for rgb in 0..1: domain mapping, scaling by size - 1, clamping, interpolation (1D
// tables: linear per channel, or nearest).
Rgb Apply(const Cube& cube, Interp interp, const Rgb& rgb);

// One 8-bit pixel graded with `intensity`, rounded to 8 bits: mix(in, lut(in), intensity).
std::array<uint8_t, 3> Grade(const Cube& cube, Interp interp, double intensity,
                             const std::array<uint8_t, 3>& in);

// One pixel of `depth`-bit code values graded with `intensity`, rounded half up to `depth` bits.
std::array<uint32_t, 3> Grade(const Cube& cube, Interp interp, double intensity,
                              const std::array<uint32_t, 3>& in, int depth);

// GPUImage's lookup fragment shader on a 512x512 8-bit RGB lookup image (rows top to bottom),
// with GL_LINEAR texture sampling (texel centres at +0.5, clamp to edge), for 8-bit input.
std::array<uint8_t, 3> GpuImageLookup(const std::vector<uint8_t>& image_rgb, double intensity,
                                      const std::array<uint8_t, 3>& in);

}  // namespace lut_ref
