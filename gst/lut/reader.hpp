// Reads a lookup table file of any supported kind, chosen by its extension.
#pragma once

#include <string>

#include "table.hpp"

namespace lut {

// .cube: read_cube(). .png: read_png_table(), a HALD CLUT when the file name contains "hald" (any
// case). Only regular files (or symlinks to them) are read: a directory, device or FIFO is
// refused before any read. Errors name the file (and, for .cube, the line).
bool read_table(const std::string& path, Table& table, std::string& error);

}  // namespace lut
