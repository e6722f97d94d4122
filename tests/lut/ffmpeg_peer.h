// ffmpeg as the peer the lut element is measured against: its lut3d, lut1d and haldclut filters
// run as a subprocess on rgb24 frames.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lut_test {

// Runs `ffmpeg -f rawvideo -pix_fmt <pix_fmt> -s WxH -i in.raw -vf <filter> -f rawvideo -pix_fmt
// <pix_fmt> out.raw` in `dir` and returns out.raw; fails the test (with ffmpeg's messages) when it
// fails. `pixels`: tightly packed rows of `pix_fmt` (rgb24, or rgba64le for 16-bit RGBA64_LE).
std::vector<uint8_t> RunFfmpeg(const std::string& dir, const std::string& filter, int width, int height,
                               const std::vector<uint8_t>& pixels, const char* pix_fmt = "rgb24");

// The lut3d/lut1d filter string for a table file and an interpolation name of the element
// (nearest, trilinear, tetrahedral; 1D tables: nearest or linear).
std::string Lut3dFilter(const std::string& cube_path, const std::string& interp);
std::string Lut1dFilter(const std::string& cube_path, const std::string& interp);
// ffmpeg's haldclut with the HALD CLUT PNG at `png_path` as its second input.
std::string HaldFilter(const std::string& png_path, const std::string& interp);

}  // namespace lut_test
