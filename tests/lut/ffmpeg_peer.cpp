#include "ffmpeg_peer.h"

#include "common/ffmpeg_run.h"

namespace lut_test {

std::vector<uint8_t> RunFfmpeg(const std::string& dir, const std::string& filter, int width, int height,
                               const std::vector<uint8_t>& pixels, const char* pix_fmt) {
  return vktest::RunFfmpeg(dir, filter, width, height, pixels, pix_fmt, pix_fmt, pixels.size());
}

std::string Lut3dFilter(const std::string& cube_path, const std::string& interp) {
  return "lut3d=file=" + cube_path + ":interp=" + interp;
}

std::string Lut1dFilter(const std::string& cube_path, const std::string& interp) {
  return "lut1d=file=" + cube_path + ":interp=" + interp;
}

std::string HaldFilter(const std::string& png_path, const std::string& interp) {
  return "movie=" + png_path + "[clut];[in][clut]haldclut=interp=" + interp;
}

}  // namespace lut_test
