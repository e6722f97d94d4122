// Reads a lookup table file of any supported kind, chosen by its extension.
#pragma once

#include <string>

#include "table.hpp"

namespace lut {

// .cube: parse_cube(). .png: a HALD CLUT when the file name contains "hald" (any case) or the
// image is not 512x512, else a GPUImage lookup image (a 512x512 HALD of level 8 would be
// ambiguous otherwise). Errors name the file (and, for .cube, the line).
bool read_table(const std::string& path, Table& table, std::string& error);

}  // namespace lut
