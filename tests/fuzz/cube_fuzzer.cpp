// libFuzzer target of the .cube reader: any input must parse or fail with a message naming the
// file, without crashing, hanging or reading out of bounds. The input is read as the element
// reads a file (line by line from a stream) and as text; both must agree. Built by
// tests/fuzz/build.sh, and by the test suite against a main() that runs the seed corpus.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cube.hpp"

namespace {

// What a successful read promises the element; a failure names the file.
void check(bool ok, const lut::Table& table, const std::string& error) {
  if (ok) {
    const bool size_ok = table.dimensions == lut::Dimensions::k3D
                             ? table.size >= lut::kMin3DSize && table.size <= lut::kMax3DSize
                             : table.size >= lut::kMin1DSize && table.size <= lut::kMax1DSize;
    if (!size_ok || table.rgbx.size() != table.entries() * lut::kEntryFloats || !error.empty()) abort();
    for (int c = 0; c < 3; ++c)
      if (!(table.domain_min[c] < table.domain_max[c])) abort();
  } else if (error.find("fuzz.cube") == std::string::npos) {
    abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lut::Table text_table, file_table;
  std::string text_error, file_error;
  const bool text_ok = lut::parse_cube(std::string_view(reinterpret_cast<const char*>(data), size),
                                       "fuzz.cube", text_table, text_error);
  check(text_ok, text_table, text_error);
  // fmemopen() needs at least one byte; an empty file is the empty text.
  if (size == 0) return 0;
  FILE* file = fmemopen(const_cast<uint8_t*>(data), size, "rb");
  if (!file) abort();
  const bool file_ok = lut::read_cube(file, size, "fuzz.cube", file_table, file_error);
  fclose(file);
  check(file_ok, file_table, file_error);
  if (file_ok != text_ok || file_error != text_error || file_table.rgbx != text_table.rgbx) abort();
  return 0;
}
