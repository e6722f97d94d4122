#include "tables.h"

#include <gst/check/gstcheck.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

namespace lut_test {
namespace {

// Numbers as the .cube text carries them (and as both readers parse them).
double Printed(double v) {
  char text[32];
  snprintf(text, sizeof text, "%.6f", v);
  return std::strtod(text, nullptr);
}

struct Wave {
  double amplitude, frequency[3], phase;
};

std::vector<Wave> RandomWaves(std::mt19937& rng) {
  std::uniform_real_distribution<double> amplitude(-0.08, 0.08), frequency(0.5, 3.0), phase(0, 6.28);
  std::vector<Wave> waves(3);
  for (Wave& w : waves) w = {amplitude(rng), {frequency(rng), frequency(rng), frequency(rng)}, phase(rng)};
  return waves;
}

double Grade(const std::vector<Wave>& waves, double gain, double x, double y, double z, double self) {
  double v = gain * self;
  for (const Wave& w : waves)
    v += w.amplitude * std::sin(w.frequency[0] * x + w.frequency[1] * y + w.frequency[2] * z + w.phase);
  return v;
}

}  // namespace

lut_ref::Cube IdentityCube(int size, bool one_d) {
  lut_ref::Cube cube;
  cube.one_d = one_d;
  cube.size = size;
  const double last = size - 1;
  if (one_d) {
    for (int i = 0; i < size; ++i) cube.entries.push_back({i / last, i / last, i / last});
    return cube;
  }
  for (int b = 0; b < size; ++b)
    for (int g = 0; g < size; ++g)
      for (int r = 0; r < size; ++r)
        cube.entries.push_back({Printed(r / last), Printed(g / last), Printed(b / last)});
  return cube;
}

lut_ref::Cube RandomSmoothCube(int size, std::mt19937& rng, bool one_d) {
  std::vector<Wave> waves[3] = {RandomWaves(rng), RandomWaves(rng), RandomWaves(rng)};
  std::uniform_real_distribution<double> gain(0.85, 1.12);
  const double gains[3] = {gain(rng), gain(rng), gain(rng)};
  lut_ref::Cube cube;
  cube.one_d = one_d;
  cube.size = size;
  const double last = size - 1;
  if (one_d) {
    for (int i = 0; i < size; ++i) {
      const double x = i / last;
      cube.entries.push_back({Printed(Grade(waves[0], gains[0], x, 0, 0, x)),
                              Printed(Grade(waves[1], gains[1], 0, x, 0, x)),
                              Printed(Grade(waves[2], gains[2], 0, 0, x, x))});
    }
    return cube;
  }
  for (int b = 0; b < size; ++b) {
    for (int g = 0; g < size; ++g) {
      for (int r = 0; r < size; ++r) {
        const double x = r / last, y = g / last, z = b / last;
        cube.entries.push_back({Printed(Grade(waves[0], gains[0], x, y, z, x)),
                                Printed(Grade(waves[1], gains[1], x, y, z, y)),
                                Printed(Grade(waves[2], gains[2], x, y, z, z))});
      }
    }
  }
  return cube;
}

std::string CubeText(const lut_ref::Cube& cube, const std::string& header) {
  std::string text = header;
  text += (cube.one_d ? "LUT_1D_SIZE " : "LUT_3D_SIZE ") + std::to_string(cube.size) + "\n";
  char line[128];
  if (cube.domain_min != lut_ref::Rgb{0, 0, 0} || cube.domain_max != lut_ref::Rgb{1, 1, 1}) {
    snprintf(line, sizeof line, "DOMAIN_MIN %.6f %.6f %.6f\nDOMAIN_MAX %.6f %.6f %.6f\n", cube.domain_min[0],
             cube.domain_min[1], cube.domain_min[2], cube.domain_max[0], cube.domain_max[1],
             cube.domain_max[2]);
    text += line;
  }
  for (const lut_ref::Rgb& e : cube.entries) {
    snprintf(line, sizeof line, "%.6f %.6f %.6f\n", e[0], e[1], e[2]);
    text += line;
  }
  return text;
}

void WritePng(const std::string& path, int width, int height, int bit_depth,
              const std::vector<uint16_t>& rgb) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(fopen(path.c_str(), "wb"), fclose);
  fail_unless(file != nullptr, "cannot write %s", path.c_str());
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) ck_abort_msg("libpng failed writing %s", path.c_str());
  png_init_io(png, file.get());
  png_set_IHDR(png, info, width, height, bit_depth, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 1);
  png_write_info(png, info);
  const int bytes = bit_depth / 8;
  std::vector<uint8_t> row(size_t(width) * 3 * bytes);
  for (int y = 0; y < height; ++y) {
    for (int i = 0; i < width * 3; ++i) {
      const uint16_t v = rgb[size_t(y) * width * 3 + i];
      if (bytes == 1) {
        row[i] = uint8_t(v);
      } else {
        row[2 * i] = uint8_t(v >> 8);
        row[2 * i + 1] = uint8_t(v);
      }
    }
    png_write_row(png, row.data());
  }
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
}

lut_ref::Cube WriteRandomHald(const std::string& path, int level, std::mt19937& rng, int bit_depth) {
  lut_ref::Cube cube = RandomSmoothCube(level * level, rng);
  const int side = level * level * level;
  std::vector<uint16_t> rgb(size_t(side) * side * 3);
  // Entry i (red fastest) is pixel i in reading order.
  for (size_t i = 0; i < cube.entries.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      const double max = bit_depth == 8 ? 255.0 : 65535.0;
      const uint16_t v = uint16_t(std::lround(std::clamp(cube.entries[i][c], 0.0, 1.0) * max));
      rgb[i * 3 + c] = v;
      cube.entries[i][c] = v / max;
    }
  }
  WritePng(path, side, side, bit_depth, rgb);
  return cube;
}

}  // namespace lut_test
