// Readers of PNG lookup images: GPUImage-style lookup images and HALD CLUTs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "table.hpp"

namespace lut {

// A decoded PNG: RGB, 16 bits per sample (8-bit files are expanded exactly: v * 257).
struct RgbImage {
  uint32_t width = 0, height = 0;
  std::vector<uint16_t> rgb;  // width * height * 3, rows top to bottom
};

// Decodes any PNG (grey, palette, alpha are converted to RGB; alpha is dropped) through libpng.
bool read_png(const std::string& path, RgbImage& image, std::string& error);

// GPUImage lookup image: 512x512, an 8x8 grid of 64x64 tiles. Tile t = b (0..63, row-major in
// the grid) holds blue level b; inside a tile, x is red and y is green (0..63). Gives the 64³
// cube that GPUImage's formula interpolates.
bool lookup_image_table(const RgbImage& image, const std::string& name, Table& table, std::string& error);

// HALD CLUT of level L (2..16): an L³ x L³ image holding an L² cube, entry i = r + g*L² + b*L⁴
// at pixel (i mod L³, i div L³).
bool hald_table(const RgbImage& image, const std::string& name, Table& table, std::string& error);

}  // namespace lut
