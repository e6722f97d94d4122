#include "png.hpp"

#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>

namespace lut {
namespace {

// State libpng's error handler reaches through the png struct; only touched through a pointer
// so that its contents are well defined after longjmp.
struct PngRead {
  std::string message;
  uint32_t width = 0, height = 0;
  std::vector<uint16_t>* rgb = nullptr;
  std::vector<png_bytep> rows;
};

void on_error(png_structp png, png_const_charp message) {
  static_cast<PngRead*>(png_get_error_ptr(png))->message = message;
  png_longjmp(png, 1);
}
void on_warning(png_structp, png_const_charp) {}

// Decodes with libpng's classic API; every allocation that must survive longjmp lives in `state`.
bool decode(FILE* file, PngRead* state) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, state, on_error, on_warning);
  if (!png) {
    state->message = "out of memory";
    return false;
  }
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, info ? &info : nullptr, nullptr);
    if (state->message.empty()) state->message = "out of memory";
    return false;
  }
  png_init_io(png, file);
  // Lookup tables are large images; libpng's default 1,000,000-pixel limit on width or height
  // is fine, but keep a bound so a forged header cannot ask for gigabytes.
  png_set_user_limits(png, 8192, 8192);
  png_read_info(png, info);
  state->width = png_get_image_width(png, info);
  state->height = png_get_image_height(png, info);
  png_set_expand(png);  // palette and low-bit grey to 8 bits, tRNS to alpha
  png_set_expand_16(png);
  png_set_strip_alpha(png);
  png_set_gray_to_rgb(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != size_t(state->width) * 6)
    png_error(png, "unexpected row layout after decoding");
  state->rgb->assign(size_t(state->width) * state->height * 3, 0);
  state->rows.resize(state->height);
  for (uint32_t y = 0; y < state->height; ++y)
    state->rows[y] = reinterpret_cast<png_bytep>(state->rgb->data() + size_t(y) * state->width * 3);
  png_read_image(png, state->rows.data());
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  // PNG samples are big-endian.
  for (uint16_t& v : *state->rgb) {
    const auto* b = reinterpret_cast<const uint8_t*>(&v);
    v = uint16_t((b[0] << 8) | b[1]);
  }
  return true;
}

std::string dims(const RgbImage& image) {
  return std::to_string(image.width) + "x" + std::to_string(image.height);
}

float sample(const RgbImage& image, size_t pixel, int c) {
  return image.rgb[pixel * 3 + c] / 65535.f;
}

}  // namespace

bool read_png(const std::string& path, RgbImage& image, std::string& error) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(fopen(path.c_str(), "rb"), fclose);
  if (!file) {
    error = "cannot open " + path + ": " + strerror(errno);
    return false;
  }
  png_byte signature[8];
  if (fread(signature, 1, 8, file.get()) != 8 || png_sig_cmp(signature, 0, 8)) {
    error = path + " is not a PNG file (no PNG signature)";
    return false;
  }
  rewind(file.get());
  RgbImage decoded;
  PngRead state;
  state.rgb = &decoded.rgb;
  if (!decode(file.get(), &state)) {
    error = path + " is not a readable PNG: " + state.message;
    return false;
  }
  decoded.width = state.width;
  decoded.height = state.height;
  image = std::move(decoded);
  return true;
}

bool lookup_image_table(const RgbImage& image, const std::string& name, Table& table, std::string& error) {
  if (image.width != 512 || image.height != 512) {
    error = name + " is " + dims(image) + ": a lookup image must be 512x512 (8x8 tiles of 64x64)";
    return false;
  }
  Table t;
  t.source = Source::kLookupImage;
  t.dimensions = Dimensions::k3D;
  t.size = 64;
  t.rgb.resize(size_t(64) * 64 * 64 * 3);
  for (uint32_t b = 0; b < 64; ++b) {
    const uint32_t tile_x = (b % 8) * 64, tile_y = (b / 8) * 64;
    for (uint32_t g = 0; g < 64; ++g) {
      for (uint32_t r = 0; r < 64; ++r) {
        const size_t pixel = size_t(tile_y + g) * 512 + tile_x + r;
        const size_t entry = r + g * 64 + size_t(b) * 64 * 64;
        for (int c = 0; c < 3; ++c) t.rgb[entry * 3 + c] = sample(image, pixel, c);
      }
    }
  }
  table = std::move(t);
  return true;
}

bool hald_table(const RgbImage& image, const std::string& name, Table& table, std::string& error) {
  uint32_t level = 2;
  while (level < 16 && level * level * level < image.width) ++level;
  const uint32_t side = level * level * level;
  if (image.width != image.height || image.width != side) {
    error = name + " is " + dims(image) +
            ": a HALD CLUT of level L must be L³xL³ pixels (8x8, 27x27, 64x64, ... 4096x4096 for L = 2..16)";
    return false;
  }
  Table t;
  t.source = Source::kHald;
  t.dimensions = Dimensions::k3D;
  t.size = level * level;
  t.rgb.resize(t.entries() * 3);
  // Pixels in reading order are the entries in order, red fastest.
  for (size_t i = 0; i < t.entries(); ++i)
    for (int c = 0; c < 3; ++c) t.rgb[i * 3 + c] = sample(image, i, c);
  table = std::move(t);
  return true;
}

}  // namespace lut
