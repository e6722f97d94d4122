// Reader of Adobe/Resolve .cube files (Adobe "Cube LUT Specification" 1.0).
#pragma once

#include <string>
#include <string_view>

#include "table.hpp"

namespace lut {

// Parses the text of a .cube file; `name` is used in error messages. Accepts TITLE, comments
// (from '#' to the end of the line), blank lines, LUT_3D_SIZE 2..256 or LUT_1D_SIZE 2..65536,
// DOMAIN_MIN/DOMAIN_MAX (and Resolve's LUT_1D_INPUT_RANGE/LUT_3D_INPUT_RANGE) before the table,
// then exactly size³ (3D) or size (1D) rows of three finite numbers, red fastest. On failure
// returns false with `error` naming the file and line ("LUT_3D_SIZE 300 at line 3 of x.cube:
// must be 2..256").
bool parse_cube(std::string_view text, const std::string& name, Table& table, std::string& error);

}  // namespace lut
