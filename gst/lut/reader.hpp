// Reads a lookup table file of any supported kind, chosen by its extension.
#pragma once

#include <string>

#include "table.hpp"

namespace lut {

// .cube: read_cube(). .png: read_png_table() as `png_kind` says; with PngKind::kAuto a 512x512
// image is a HALD CLUT when the file name contains "hald" (any case), a GPUImage lookup image
// otherwise. Only regular files (or symlinks to them) are read: a directory, device or FIFO is
// refused before any read. Errors name the file (and, for .cube, the line).
bool read_table(const std::string& path, Table& table, std::string& error, PngKind png_kind = PngKind::kAuto);

// Whether read_table() reads `path` as a PNG (its extension is .png, any case): whether
// `png_kind` matters for it.
bool is_png_path(const std::string& path);

}  // namespace lut
