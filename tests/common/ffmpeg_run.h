// ffmpeg as a peer of the elements: one of its filters run as a subprocess on raw frames.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vktest {

// Runs `ffmpeg -f rawvideo -pix_fmt <in_pix_fmt> -s WxH -i in.raw -vf <filter> -f rawvideo
// -pix_fmt <out_pix_fmt> out.raw` in `dir` and returns out.raw. Fails the test (with ffmpeg's
// messages) when ffmpeg fails or writes other than `out_bytes`. `in`: tightly packed rows.
std::vector<uint8_t> RunFfmpeg(const std::string& dir, const std::string& filter, int width, int height,
                               const std::vector<uint8_t>& in, const char* in_pix_fmt,
                               const char* out_pix_fmt, size_t out_bytes);

}  // namespace vktest
