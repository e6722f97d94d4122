#include "reader.hpp"

#include <algorithm>

#include "cube.hpp"
#include "file.hpp"
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

}  // namespace

bool is_png_path(const std::string& path) {
  return ends_with(lower(base_name(path)), ".png");
}

bool read_table(const std::string& path, Table& table, std::string& error, PngKind png_kind) {
  const std::string name = lower(base_name(path));
  const bool cube = ends_with(name, ".cube"), png = ends_with(name, ".png");
  if (!cube && !png) {
    const size_t dot = name.find_last_of('.');
    error =
        path + ": unknown lookup table format " +
        (dot == std::string::npos ? std::string("(no extension)") : "'" + base_name(path).substr(dot) + "'") +
        ": need .cube or .png";
    return false;
  }
  TableFile file;
  if (!file.open(path, error)) return false;
  if (cube) return read_cube(file.stream(), file.size(), path, table, error);
  return read_png_table(file.stream(), file.size(), path, png_kind, name.find("hald") != std::string::npos,
                        table, error);
}

}  // namespace lut
