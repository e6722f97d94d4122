// libFuzzer target of the .cube reader: any input must parse or fail with a message naming the
// file, without crashing, hanging or reading out of bounds. Built by tests/fuzz/build.sh.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cube.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lut::Table table;
  std::string error;
  const bool ok =
      lut::parse_cube(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.cube", table, error);
  // What a successful parse promises the element.
  if (ok) {
    const bool size_ok = table.dimensions == lut::Dimensions::k3D
                             ? table.size >= lut::kMin3DSize && table.size <= lut::kMax3DSize
                             : table.size >= lut::kMin1DSize && table.size <= lut::kMax1DSize;
    if (!size_ok || table.rgb.size() != table.entries() * 3 || !error.empty()) abort();
    for (int c = 0; c < 3; ++c)
      if (!(table.domain_min[c] < table.domain_max[c])) abort();
  } else if (error.find("fuzz.cube") == std::string::npos) {
    abort();
  }
  return 0;
}
