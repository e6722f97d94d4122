// A colour lookup table as read from a file, before it goes to the GPU. Pure C++: the readers in
// this directory have no GStreamer or Vulkan dependency, so they are unit-tested and fuzzed alone.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lut {

enum class Dimensions { k1D, k3D };

// Where a table came from; decides how the element interpolates it.
enum class Source {
  kCube,         // Adobe/Resolve .cube
  kLookupImage,  // GPUImage lookup PNG: always GPUImage's formula (trilinear on its 64³ cube)
  kHald,         // HALD CLUT PNG
};

// What a PNG table is read as (the lut element's png-kind). kAuto decides by the image's size and
// the file's name (png.hpp); the others are what the caller knows the image to be.
enum class PngKind {
  kAuto,
  kLookupImage,  // a GPUImage lookup image: 512x512
  kHald,         // a HALD CLUT: L³xL³ for L = 2..16 (level 8 is 512x512 too)
};

inline constexpr size_t kEntryFloats = 4;

struct Table {
  Dimensions dimensions = Dimensions::k3D;
  Source source = Source::kCube;
  uint32_t size = 0;  // entries along each axis
  // Input values map from [domain_min, domain_max] onto the table's first..last entry.
  std::array<float, 3> domain_min = {0.f, 0.f, 0.f};
  std::array<float, 3> domain_max = {1.f, 1.f, 1.f};
  // r, g, b and an unused 0 of each entry (kEntryFloats floats: the element uploads this as the
  // kernel's vec4 array, without a copy). 1D: `size` entries, one per input level of each
  // channel. 3D: size³ entries, red fastest: entry (r, g, b) is at index r + g * size + b * size².
  std::vector<float> rgbx;
  std::string title;

  size_t entries() const { return dimensions == Dimensions::k1D ? size : size_t(size) * size * size; }
};

// The limits the .cube format and the element accept.
inline constexpr uint32_t kMin3DSize = 2, kMax3DSize = 256;
inline constexpr uint32_t kMin1DSize = 2, kMax1DSize = 65536;

}  // namespace lut
