#include "lut_ref.h"

#include <algorithm>
#include <cmath>

namespace lut_ref {
namespace {

Rgb Lerp(const Rgb& a, const Rgb& b, double t) {
  return {a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t};
}

Rgb Weighted(std::initializer_list<std::pair<double, const Rgb*>> terms) {
  Rgb out = {0, 0, 0};
  for (auto [w, c] : terms)
    for (int i = 0; i < 3; ++i) out[i] += w * (*c)[i];
  return out;
}

uint8_t ToByte(double v) {
  return uint8_t(std::clamp(std::floor(v * 255.0 + 0.5), 0.0, 255.0));
}

}  // namespace

Rgb Apply(const Cube& cube, Interp interp, const Rgb& rgb) {
  const double last = cube.size - 1;
  Rgb s;
  for (int c = 0; c < 3; ++c)
    s[c] = std::clamp((rgb[c] - cube.domain_min[c]) * last / (cube.domain_max[c] - cube.domain_min[c]), 0.0,
                      last);
  if (cube.one_d) {
    Rgb out;
    for (int c = 0; c < 3; ++c) {
      if (interp == Interp::kNearest) {
        out[c] = cube.entries[int(s[c] + 0.5)][c];
      } else {
        const int i0 = int(s[c]), i1 = std::min(i0 + 1, cube.size - 1);
        out[c] = cube.entries[i0][c] + (cube.entries[i1][c] - cube.entries[i0][c]) * (s[c] - i0);
      }
    }
    return out;
  }
  if (interp == Interp::kNearest) return cube.at(int(s[0] + 0.5), int(s[1] + 0.5), int(s[2] + 0.5));
  const int r0 = int(s[0]), g0 = int(s[1]), b0 = int(s[2]);
  const int r1 = std::min(r0 + 1, cube.size - 1), g1 = std::min(g0 + 1, cube.size - 1),
            b1 = std::min(b0 + 1, cube.size - 1);
  const double dr = s[0] - r0, dg = s[1] - g0, db = s[2] - b0;
  const Rgb &c000 = cube.at(r0, g0, b0), &c100 = cube.at(r1, g0, b0), &c010 = cube.at(r0, g1, b0),
            &c110 = cube.at(r1, g1, b0), &c001 = cube.at(r0, g0, b1), &c101 = cube.at(r1, g0, b1),
            &c011 = cube.at(r0, g1, b1), &c111 = cube.at(r1, g1, b1);
  if (interp == Interp::kTrilinear) {
    const Rgb c00 = Lerp(c000, c100, dr), c10 = Lerp(c010, c110, dr), c01 = Lerp(c001, c101, dr),
              c11 = Lerp(c011, c111, dr);
    return Lerp(Lerp(c00, c10, dg), Lerp(c01, c11, dg), db);
  }
  // The six tetrahedra of the cell, chosen by the order of the fractions (as ffmpeg's lut3d).
  if (dr > dg) {
    if (dg > db) return Weighted({{1 - dr, &c000}, {dr - dg, &c100}, {dg - db, &c110}, {db, &c111}});
    if (dr > db) return Weighted({{1 - dr, &c000}, {dr - db, &c100}, {db - dg, &c101}, {dg, &c111}});
    return Weighted({{1 - db, &c000}, {db - dr, &c001}, {dr - dg, &c101}, {dg, &c111}});
  }
  if (db > dg) return Weighted({{1 - db, &c000}, {db - dg, &c001}, {dg - dr, &c011}, {dr, &c111}});
  if (db > dr) return Weighted({{1 - dg, &c000}, {dg - db, &c010}, {db - dr, &c011}, {dr, &c111}});
  return Weighted({{1 - dg, &c000}, {dg - dr, &c010}, {dr - db, &c110}, {db, &c111}});
}

std::array<uint8_t, 3> Grade(const Cube& cube, Interp interp, double intensity,
                             const std::array<uint8_t, 3>& in) {
  const Rgb rgb = {in[0] / 255.0, in[1] / 255.0, in[2] / 255.0};
  const Rgb graded = Apply(cube, interp, rgb);
  std::array<uint8_t, 3> out;
  for (int c = 0; c < 3; ++c) out[c] = ToByte(rgb[c] + (graded[c] - rgb[c]) * intensity);
  return out;
}

std::array<uint32_t, 3> Grade(const Cube& cube, Interp interp, double intensity,
                              const std::array<uint32_t, 3>& in, int depth) {
  const double top = std::ldexp(1.0, depth) - 1.0;
  const Rgb rgb = {in[0] / top, in[1] / top, in[2] / top};
  const Rgb graded = Apply(cube, interp, rgb);
  std::array<uint32_t, 3> out;
  for (int c = 0; c < 3; ++c)
    out[c] =
        uint32_t(std::clamp(std::floor((rgb[c] + (graded[c] - rgb[c]) * intensity) * top + 0.5), 0.0, top));
  return out;
}

namespace {

// texture2D() of a 512x512 texture with GL_LINEAR filtering and clamp-to-edge, at normalized
// coordinates (u, v); v = 0 is the first row.
Rgb Texture(const std::vector<uint8_t>& image, double u, double v) {
  const double x = u * 512 - 0.5, y = v * 512 - 0.5;
  const int x0 = int(std::floor(x)), y0 = int(std::floor(y));
  const double fx = x - x0, fy = y - y0;
  auto texel = [&](int tx, int ty) {
    tx = std::clamp(tx, 0, 511);
    ty = std::clamp(ty, 0, 511);
    const uint8_t* p = &image[(size_t(ty) * 512 + tx) * 3];
    return Rgb{p[0] / 255.0, p[1] / 255.0, p[2] / 255.0};
  };
  return Lerp(Lerp(texel(x0, y0), texel(x0 + 1, y0), fx), Lerp(texel(x0, y0 + 1), texel(x0 + 1, y0 + 1), fx),
              fy);
}

}  // namespace

std::array<uint8_t, 3> GpuImageLookup(const std::vector<uint8_t>& image, double intensity,
                                      const std::array<uint8_t, 3>& in) {
  // GPUImageLookupFilter's fragment shader, line by line.
  const Rgb color = {in[0] / 255.0, in[1] / 255.0, in[2] / 255.0};
  const double blue = color[2] * 63.0;
  const double quad1_y = std::floor(std::floor(blue) / 8.0), quad1_x = std::floor(blue) - quad1_y * 8.0;
  const double quad2_y = std::floor(std::ceil(blue) / 8.0), quad2_x = std::ceil(blue) - quad2_y * 8.0;
  const double tex1_x = quad1_x * 0.125 + 0.5 / 512.0 + (0.125 - 1.0 / 512.0) * color[0];
  const double tex1_y = quad1_y * 0.125 + 0.5 / 512.0 + (0.125 - 1.0 / 512.0) * color[1];
  const double tex2_x = quad2_x * 0.125 + 0.5 / 512.0 + (0.125 - 1.0 / 512.0) * color[0];
  const double tex2_y = quad2_y * 0.125 + 0.5 / 512.0 + (0.125 - 1.0 / 512.0) * color[1];
  const Rgb c1 = Texture(image, tex1_x, tex1_y), c2 = Texture(image, tex2_x, tex2_y);
  const Rgb looked_up = Lerp(c1, c2, blue - std::floor(blue));
  std::array<uint8_t, 3> out;
  for (int c = 0; c < 3; ++c) out[c] = ToByte(color[c] + (looked_up[c] - color[c]) * intensity);
  return out;
}

}  // namespace lut_ref
