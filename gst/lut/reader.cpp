#include "reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "cube.hpp"
#include "png.hpp"

namespace lut {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string base_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool read_text(const std::string& path, std::string& text, std::string& error) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(fopen(path.c_str(), "rb"), fclose);
  if (!file) {
    error = "cannot open " + path + ": " + strerror(errno);
    return false;
  }
  std::string content;
  char chunk[65536];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, file.get())) > 0) content.append(chunk, got);
  if (ferror(file.get())) {
    error = "cannot read " + path + ": " + strerror(errno);
    return false;
  }
  text = std::move(content);
  return true;
}

}  // namespace

bool read_table(const std::string& path, Table& table, std::string& error) {
  const std::string name = lower(base_name(path));
  if (ends_with(name, ".cube")) {
    std::string text;
    return read_text(path, text, error) && parse_cube(text, path, table, error);
  }
  if (ends_with(name, ".png")) {
    RgbImage image;
    if (!read_png(path, image, error)) return false;
    const bool hald = name.find("hald") != std::string::npos || image.width != 512 || image.height != 512;
    return hald ? hald_table(image, path, table, error) : lookup_image_table(image, path, table, error);
  }
  const size_t dot = name.find_last_of('.');
  error =
      path + ": unknown lookup table format " +
      (dot == std::string::npos ? std::string("(no extension)") : "'" + base_name(path).substr(dot) + "'") +
      ": need .cube or .png";
  return false;
}

}  // namespace lut
