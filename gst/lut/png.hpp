// Reader of PNG lookup images: GPUImage-style lookup images and HALD CLUTs.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "table.hpp"

namespace lut {

// Reads a PNG table from `file`, whose size was `file_bytes` when it was opened; `name` is used in
// error messages. `kind` says what the image is; with PngKind::kAuto it is a HALD CLUT when
// `hald_name` (the file name says "hald") or when it is not 512x512, else a GPUImage lookup image
// (a 512x512 image is ambiguous: a HALD of level 8 has that size too). An explicit kind that the
// image's size does not fit is an error naming the file, its size and what the kind needs:
// - GPUImage lookup image: 512x512, an 8x8 grid of 64x64 tiles. Tile t = b (0..63, row-major in
//   the grid) holds blue level b; inside a tile, x is red and y is green (0..63). Gives the 64³
//   cube that GPUImage's formula interpolates.
// - HALD CLUT of level L (2..16): an L³ x L³ image holding an L² cube, entry i = r + g*L² + b*L⁴
//   at pixel (i mod L³, i div L³).
// Any PNG colour type and depth is read (grey and palette become RGB, alpha is dropped; 8-bit
// samples v are v / 255 exactly). The header's dimensions are checked against these kinds, and
// the file's size against what the image needs compressed, before anything is allocated; rows
// are decoded one at a time straight into the table.
bool read_png_table(FILE* file, uint64_t file_bytes, const std::string& name, PngKind kind, bool hald_name,
                    Table& table, std::string& error);

}  // namespace lut
