// Lookup tables for the tests: identity and random smooth tables, written as .cube text or as
// HALD/lookup PNGs, kept as lut_ref::Cube for the CPU reference.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "reference/lut_ref.h"

namespace lut_test {

lut_ref::Cube IdentityCube(int size, bool one_d = false);

// A smooth random grade: the identity plus a few low-frequency waves with random amplitudes and
// phases, per channel and mixing channels, reaching a little below 0 and above 1 (so that
// clipping is exercised). Values are rounded to what WriteCube() prints, so that the reference
// sees the exact numbers the element and ffmpeg parse.
lut_ref::Cube RandomSmoothCube(int size, std::mt19937& rng, bool one_d = false);

// The .cube text of `cube` (LUT_3D_SIZE or LUT_1D_SIZE, DOMAIN_MIN/MAX when not 0..1), after
// `header` lines (e.g. a TITLE or comments).
std::string CubeText(const lut_ref::Cube& cube, const std::string& header = "");

// Writes an RGB PNG (8 or 16 bits per sample; samples in 0..255 or 0..65535, rows top to bottom),
// Adam7-interlaced when `interlaced`.
void WritePng(const std::string& path, int width, int height, int bit_depth, const std::vector<uint16_t>& rgb,
              bool interlaced = false);

// Writes a black 1-bit greyscale PNG of any size, a row at a time (a large image in little memory).
void WriteBlackPng(const std::string& path, int width, int height);

// The bytes of a PNG whose header says `width` x `height` (8-bit RGB) followed by an IDAT chunk
// of `idat_bytes` zeros: a header that lies about what the file holds.
std::string PngWithHeader(uint32_t width, uint32_t height, size_t idat_bytes);

// The 8-bit RGB samples of any PNG, rows top to bottom.
std::vector<uint8_t> ReadPngRgb8(const std::string& path);

// `cube` (of size level², 3D) as a HALD CLUT of `level` (image level³ x level³), an 8- or 16-bit
// PNG; returns the cube of the values written (clipped to 0..1 and quantized).
lut_ref::Cube WriteHald(const std::string& path, int level, lut_ref::Cube cube, int bit_depth = 16);

// A HALD CLUT of `level` of a smooth random grade (WriteHald of RandomSmoothCube(level²)).
lut_ref::Cube WriteRandomHald(const std::string& path, int level, std::mt19937& rng, int bit_depth = 16);

}  // namespace lut_test
