// libFuzzer target of the PNG reader, through the entry the element uses (read_png_table on a
// stream of the file's bytes), once for each reading the element can ask for: auto by size
// without and with "hald" in the name, and the explicit lookup and hald kinds. Any input must give
// a table of the kind asked for (auto: one of the accepted kinds) or fail with a message naming
// the file, without crashing, leaking or allocating for a header's claims. Built by
// tests/fuzz/build.sh, and by the test suite against a main() that runs the seed corpus.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "png.hpp"

namespace {

struct Reading {
  lut::PngKind kind;
  bool hald_name;
};
constexpr Reading kReadings[] = {
    {lut::PngKind::kAuto, false},
    {lut::PngKind::kAuto, true},
    {lut::PngKind::kLookupImage, true},
    {lut::PngKind::kHald, false},
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;  // fmemopen() needs a byte; an empty file fails the signature check
  for (const Reading& reading : kReadings) {
    FILE* file = fmemopen(const_cast<uint8_t*>(data), size, "rb");
    if (!file) abort();
    lut::Table table;
    std::string error;
    const bool ok =
        lut::read_png_table(file, size, "fuzz.png", reading.kind, reading.hald_name, table, error);
    fclose(file);
    if (!ok) {
      if (error.find("fuzz.png") == std::string::npos) abort();
      continue;
    }
    const bool may_be_lookup = reading.kind == lut::PngKind::kLookupImage ||
                               (reading.kind == lut::PngKind::kAuto && !reading.hald_name);
    const bool lookup = table.source == lut::Source::kLookupImage && may_be_lookup && table.size == 64;
    uint32_t level = 2;
    while (level < 16 && level * level < table.size) ++level;
    const bool hald = table.source == lut::Source::kHald && reading.kind != lut::PngKind::kLookupImage &&
                      table.size == level * level;
    if (!(lookup || hald) || table.dimensions != lut::Dimensions::k3D ||
        table.rgbx.size() != table.entries() * lut::kEntryFloats || !error.empty())
      abort();
    for (size_t i = 0; i < table.rgbx.size(); ++i) {
      const float v = table.rgbx[i];
      if (!(v >= 0.f && v <= 1.f) || (i % lut::kEntryFloats == 3 && v != 0.f)) abort();
    }
  }
  return 0;
}
