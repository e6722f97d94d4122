#include "png.hpp"

#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <vector>

namespace lut {
namespace {

// libpng reports errors by longjmp to the setjmp of the function that called it. Those
// functions (read_header, read_rows) hold no C++ object of their own: the libpng structs and
// the message live here, destroyed on every way out (return, longjmp, exception).
struct PngReader {
  png_structp png = nullptr;
  png_infop info = nullptr;
  char message[256] = "";
  ~PngReader() {
    if (png) png_destroy_read_struct(&png, info ? &info : nullptr, nullptr);
  }
};

void on_error(png_structp png, png_const_charp message) {
  auto* reader = static_cast<PngReader*>(png_get_error_ptr(png));
  snprintf(reader->message, sizeof reader->message, "%s", message);
  png_longjmp(png, 1);
}
void on_warning(png_structp, png_const_charp) {}

// Ancillary chunks that nothing here uses: skipped rather than stored (text chunks, for one, may
// inflate to megabytes each).
constexpr png_byte kIgnoredChunks[] =
    "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0pHYs\0sBIT\0"
    "sCAL\0sPLT\0sRGB\0tEXt\0tIME\0zTXt";

struct Header {
  uint32_t width = 0, height = 0;
  uint64_t raw_bytes = 0;  // the decompressed pixel data, filter bytes included
  bool interlaced = false;
};

// The header, and the decoding set up to give RGB, 16 bits per sample, big-endian.
bool read_header(PngReader* reader, FILE* file, Header* header) {
  if (setjmp(png_jmpbuf(reader->png))) return false;
  png_structp png = reader->png;
  png_infop info = reader->info;
  png_init_io(png, file);
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, nullptr, 0);
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, kIgnoredChunks, sizeof kIgnoredChunks / 5);
  png_read_info(png, info);
  header->width = png_get_image_width(png, info);
  header->height = png_get_image_height(png, info);
  header->raw_bytes = uint64_t(header->height) * (png_get_rowbytes(png, info) + 1);
  header->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
  png_set_expand(png);  // palette and low-bit grey to 8 bits, tRNS to alpha
  png_set_expand_16(png);
  png_set_strip_alpha(png);
  png_set_gray_to_rgb(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != size_t(header->width) * 6)
    png_error(png, "unexpected row layout after decoding");
  return true;
}

// Where image pixel (x, y) goes in the table.
using EntryOf = size_t (*)(uint32_t x, uint32_t y, uint32_t width);
size_t lookup_entry(uint32_t x, uint32_t y, uint32_t) {
  // Tile (x / 64, y / 64) holds blue level b; inside it x is red, y green.
  const uint32_t b = (y / 64) * 8 + x / 64;
  return (x % 64) + (y % 64) * 64 + size_t(b) * 64 * 64;
}
size_t hald_entry(uint32_t x, uint32_t y, uint32_t width) {
  // Pixels in reading order are the entries in order, red fastest.
  return size_t(y) * width + x;
}

// Decodes every row into `row` and spreads its pixels over `rgbx`. An interlaced image comes as
// the seven reduced images of Adam7, one pass after the other, each pixel placed where its pass
// puts it; no whole image is ever held.
bool read_rows(PngReader* reader, const Header* header, EntryOf entry_of, png_bytep row, float* rgbx) {
  if (setjmp(png_jmpbuf(reader->png))) return false;
  const int passes = header->interlaced ? PNG_INTERLACE_ADAM7_PASSES : 1;
  for (int pass = 0; pass < passes; ++pass) {
    const uint32_t rows = header->interlaced ? PNG_PASS_ROWS(header->height, pass) : header->height;
    const uint32_t cols = header->interlaced ? PNG_PASS_COLS(header->width, pass) : header->width;
    if (rows == 0 || cols == 0) continue;  // libpng skips empty passes
    for (uint32_t j = 0; j < rows; ++j) {
      png_read_row(reader->png, row, nullptr);
      const uint32_t y = header->interlaced ? PNG_ROW_FROM_PASS_ROW(j, pass) : j;
      for (uint32_t i = 0; i < cols; ++i) {
        const uint32_t x = header->interlaced ? PNG_COL_FROM_PASS_COL(i, pass) : i;
        float* out = rgbx + entry_of(x, y, header->width) * kEntryFloats;
        for (int c = 0; c < 3; ++c)
          out[c] = float((row[i * 6 + c * 2] << 8) | row[i * 6 + c * 2 + 1]) / 65535.f;
        out[3] = 0.f;
      }
    }
  }
  png_read_end(reader->png, nullptr);
  return true;
}

std::string dims(const Header& header) {
  return std::to_string(header.width) + "x" + std::to_string(header.height);
}

// The table `header` describes when read as `kind`: its source and size, or false with `error`.
bool table_kind(const Header& header, const std::string& name, PngKind kind, bool hald_name, Table& table,
                std::string& error) {
  table.dimensions = Dimensions::k3D;
  const bool lookup_size = header.width == 512 && header.height == 512;
  if (kind == PngKind::kLookupImage || (kind == PngKind::kAuto && lookup_size && !hald_name)) {
    if (!lookup_size) {
      error = name + " is " + dims(header) + ": a GPUImage lookup image must be 512x512 pixels";
      return false;
    }
    table.source = Source::kLookupImage;
    table.size = 64;
    return true;
  }
  uint32_t level = 2;
  while (level < 16 && level * level * level < header.width) ++level;
  const uint32_t side = level * level * level;
  if (header.width != header.height || header.width != side) {
    error = name + " is " + dims(header) +
            ": a HALD CLUT of level L must be L³xL³ pixels (8x8, 27x27, 64x64, ... 4096x4096 for L = 2..16)";
    return false;
  }
  table.source = Source::kHald;
  table.size = level * level;
  return true;
}

}  // namespace

bool read_png_table(FILE* file, uint64_t file_bytes, const std::string& name, PngKind kind, bool hald_name,
                    Table& table, std::string& error) {
  png_byte signature[8];
  if (fread(signature, 1, 8, file) != 8 || png_sig_cmp(signature, 0, 8)) {
    error = name + " is not a PNG file (no PNG signature)";
    return false;
  }
  PngReader reader;
  reader.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader, on_error, on_warning);
  if (reader.png) reader.info = png_create_info_struct(reader.png);
  if (!reader.info) {
    error = "out of memory reading " + name;
    return false;
  }
  png_set_sig_bytes(reader.png, 8);
  Header header;
  if (!read_header(&reader, file, &header)) {
    error = name + " is not a readable PNG: " + reader.message;
    return false;
  }
  Table t;
  if (!table_kind(header, name, kind, hald_name, t, error)) return false;
  // Deflate compresses at most 1032:1: a file shorter than that cannot hold its pixels (a header
  // claiming a large image in a few bytes).
  const uint64_t least = header.raw_bytes / 1032;
  if (file_bytes < least) {
    error = name + " is " + std::to_string(file_bytes) + " bytes: too short for the " + dims(header) +
            " image its header declares (at least " + std::to_string(least) + ")";
    return false;
  }
  t.rgbx.resize(t.entries() * kEntryFloats);
  std::vector<png_byte> row(size_t(header.width) * 6);
  if (!read_rows(&reader, &header, t.source == Source::kHald ? hald_entry : lookup_entry, row.data(),
                 t.rgbx.data())) {
    error = name + " is not a readable PNG: " + reader.message;
    return false;
  }
  table = std::move(t);
  return true;
}

}  // namespace lut
