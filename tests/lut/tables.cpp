#include "tables.h"

#include <gst/check/gstcheck.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
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

// Writes a PNG whose row y (of each pass, when interlaced) `row_of(y)` gives.
void WriteRows(const std::string& path, int width, int height, int bit_depth, int color_type, bool interlaced,
               const std::function<const uint8_t*(int)>& row_of) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(fopen(path.c_str(), "wb"), fclose);
  fail_unless(file != nullptr, "cannot write %s", path.c_str());
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) ck_abort_msg("libpng failed writing %s", path.c_str());
  png_init_io(png, file.get());
  png_set_IHDR(png, info, width, height, bit_depth, color_type,
               interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, 1);
  png_write_info(png, info);
  const int passes = interlaced ? png_set_interlace_handling(png) : 1;
  for (int pass = 0; pass < passes; ++pass)
    for (int y = 0; y < height; ++y) png_write_row(png, row_of(y));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
}

// CRC-32 of PNG chunks (ISO 3309), bit by bit.
uint32_t Crc32(const std::string& bytes) {
  uint32_t crc = 0xffffffffu;
  for (unsigned char b : bytes) {
    crc ^= b;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
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

void WritePng(const std::string& path, int width, int height, int bit_depth, const std::vector<uint16_t>& rgb,
              bool interlaced) {
  const int bytes = bit_depth / 8;
  std::vector<uint8_t> row(size_t(width) * 3 * bytes);
  WriteRows(path, width, height, bit_depth, PNG_COLOR_TYPE_RGB, interlaced, [&](int y) {
    for (int i = 0; i < width * 3; ++i) {
      const uint16_t v = rgb[size_t(y) * width * 3 + i];
      if (bytes == 1) {
        row[i] = uint8_t(v);
      } else {
        row[2 * i] = uint8_t(v >> 8);
        row[2 * i + 1] = uint8_t(v);
      }
    }
    return row.data();
  });
}

void WriteBlackPng(const std::string& path, int width, int height) {
  std::vector<uint8_t> row((size_t(width) + 7) / 8, 0);
  WriteRows(path, width, height, 1, PNG_COLOR_TYPE_GRAY, false, [&](int) { return row.data(); });
}

std::string PngWithHeader(uint32_t width, uint32_t height, size_t idat_bytes) {
  auto be32 = [](uint32_t v) { return std::string{char(v >> 24), char(v >> 16), char(v >> 8), char(v)}; };
  auto chunk = [&](const std::string& type, const std::string& data) {
    const std::string body = type + data;
    return be32(uint32_t(data.size())) + body + be32(Crc32(body));
  };
  // Bit depth 8, colour type 2 (RGB), deflate, adaptive filtering, not interlaced.
  const std::string ihdr = be32(width) + be32(height) + std::string{8, 2, 0, 0, 0};
  return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) +
         chunk("IDAT", std::string(idat_bytes, '\0'));
}

std::vector<uint8_t> ReadPngRgb8(const std::string& path) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  fail_unless(png_image_begin_read_from_file(&image, path.c_str()), "cannot read %s: %s", path.c_str(),
              image.message);
  image.format = PNG_FORMAT_RGB;
  std::vector<uint8_t> rgb(PNG_IMAGE_SIZE(image));
  fail_unless(png_image_finish_read(&image, nullptr, rgb.data(), 0, nullptr), "cannot decode %s: %s",
              path.c_str(), image.message);
  return rgb;
}

lut_ref::Cube WriteHald(const std::string& path, int level, lut_ref::Cube cube, int bit_depth) {
  fail_unless(!cube.one_d && cube.size == level * level, "a HALD of level %d holds a %d³ cube", level,
              level * level);
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

lut_ref::Cube WriteRandomHald(const std::string& path, int level, std::mt19937& rng, int bit_depth) {
  return WriteHald(path, level, RandomSmoothCube(level * level, rng), bit_depth);
}

}  // namespace lut_test
