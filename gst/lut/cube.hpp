// Reader of Adobe/Resolve .cube files (Adobe "Cube LUT Specification" 1.0).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "table.hpp"

namespace lut {

// What a .cube file may hold, so that what is read is bounded before it is read: lines of at
// most kMaxCubeLineBytes, and in all kCubeHeaderBytes of keywords and comments plus
// kCubeRowBytes for each table row (a row of three floats at full precision is under 50 bytes).
inline constexpr size_t kMaxCubeLineBytes = 4096;
inline constexpr uint64_t kCubeHeaderBytes = 1 << 20, kCubeRowBytes = 96;

// The largest .cube file a table of `rows` rows can be: LUT_3D_SIZE 256 (16.7 M rows) 1.5 GiB.
constexpr uint64_t max_cube_bytes(uint64_t rows) {
  return kCubeHeaderBytes + rows * kCubeRowBytes;
}

// Parses the text of a .cube file; `name` is used in error messages. Accepts TITLE, comments
// (from '#' to the end of the line), blank lines, LUT_3D_SIZE 2..256 or LUT_1D_SIZE 2..65536,
// DOMAIN_MIN/DOMAIN_MAX (and Resolve's LUT_1D_INPUT_RANGE/LUT_3D_INPUT_RANGE) before the table,
// then exactly size³ (3D) or size (1D) rows of three finite numbers, red fastest. On failure
// returns false with `error` naming the file and line ("LUT_3D_SIZE 300 at line 3 of x.cube:
// must be 2..256").
bool parse_cube(std::string_view text, const std::string& name, Table& table, std::string& error);

// The same, read line by line from `file`, whose size was `file_bytes` when it was opened: a file
// larger than max_cube_bytes() of its table (or of the largest table, checked first) is refused
// before it is read, and reading stops as soon as it holds more than its table.
bool read_cube(FILE* file, uint64_t file_bytes, const std::string& name, Table& table, std::string& error);

}  // namespace lut
