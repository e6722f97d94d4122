// The element against ffmpeg's lut3d and lut1d filters on random frames and random smooth tables:
// every sample within ±1 (ffmpeg truncates to 8 bits where the element rounds).
#include <string>

#include "common/temp_dir.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "ffmpeg_peer.h"
#include "frames.h"
#include "lut_stream.h"
#include "reference/rgb_layout.h"
#include "tables.h"
#include "tcases.h"

namespace lut_test {

using vktest::TempDir;
namespace {

const char* const kInterpolations[] = {"nearest", "trilinear", "tetrahedral"};

// Grades `input` with the element and checks it against ffmpeg's `filter` on the same colours.
void CheckAgainstFfmpeg(const TempDir& dir, const Settings& settings, const std::string& filter,
                        const Frame& input, const std::string& context, int stride_padding = 0,
                        gsize offset = 0) {
  const std::vector<uint8_t> peer = RunFfmpeg(dir.Path(""), filter, input.width, input.height, input.Rgb24());
  const Frame output = Grade(settings, {input}, stride_padding, offset)[0];
  CheckFrame(
      input, output,
      [&](size_t i) {
        return std::array<uint8_t, 3>{peer[3 * i], peer[3 * i + 1], peer[3 * i + 2]};
      },
      1, context + " vs ffmpeg " + filter);
}

// Sizes 2, 17, 33 and 65, every interpolation, on an RGB frame.
GST_START_TEST(test_3d_against_ffmpeg) {
  TempDir dir;
  for (int size : {2, 17, 33, 65}) {
    std::mt19937 rng = vktest::RngFor("3d-" + std::to_string(size));
    const std::string cube = dir.Write("t.cube", CubeText(RandomSmoothCube(size, rng)));
    const Frame input = RandomFrame(GST_VIDEO_FORMAT_RGB, 97, 61, rng);
    for (const char* interp : kInterpolations) {
      CheckAgainstFfmpeg(dir, {cube, interp}, Lut3dFilter(cube, interp), input,
                         "LUT_3D_SIZE " + std::to_string(size) + " " + interp);
    }
  }
}
GST_END_TEST;

GST_START_TEST(test_1d_against_ffmpeg) {
  TempDir dir;
  for (int size : {2, 17, 1024, 65536}) {
    std::mt19937 rng = vktest::RngFor("1d-" + std::to_string(size));
    const std::string cube = dir.Write("t.cube", CubeText(RandomSmoothCube(size, rng, true)));
    const Frame input = RandomFrame(GST_VIDEO_FORMAT_RGB, 64, 33, rng);
    CheckAgainstFfmpeg(dir, {cube, "trilinear"}, Lut1dFilter(cube, "linear"), input,
                       "LUT_1D_SIZE " + std::to_string(size) + " linear");
    CheckAgainstFfmpeg(dir, {cube, "nearest"}, Lut1dFilter(cube, "nearest"), input,
                       "LUT_1D_SIZE " + std::to_string(size) + " nearest");
  }
}
GST_END_TEST;

// HALD CLUTs (8-bit PNGs of levels 4 and 6) against ffmpeg's haldclut filter. (With a 16-bit
// CLUT ffmpeg grades in 16 bits and converts to 8 with swscale, which is not what lut3d does.)
GST_START_TEST(test_hald_against_ffmpeg) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("hald-ffmpeg");
  const Frame input = RandomFrame(GST_VIDEO_FORMAT_RGB, 45, 31, rng);
  for (int level : {4, 6}) {
    const std::string path = dir.Path("clut.png");
    WriteRandomHald(path, level, rng, 8);
    for (const char* interp : kInterpolations)
      CheckAgainstFfmpeg(dir, {path, interp}, HaldFilter(path, interp), input,
                         "HALD level " + std::to_string(level) + " " + interp);
  }
}
GST_END_TEST;

// ffmpeg ignores DOMAIN_MIN and uses 1 / DOMAIN_MAX (clipped to 1) as the scale: for domains
// 0..D with D >= 1 that is the same mapping as the element's.
GST_START_TEST(test_domain_against_ffmpeg) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("domain");
  lut_ref::Cube cube = RandomSmoothCube(17, rng);
  cube.domain_max = {2.0, 1.5, 1.25};
  const std::string path = dir.Write("t.cube", CubeText(cube));
  const Frame input = RandomFrame(GST_VIDEO_FORMAT_RGB, 61, 17, rng);
  CheckAgainstFfmpeg(dir, {path, "tetrahedral"}, Lut3dFilter(path, "tetrahedral"), input,
                     "DOMAIN_MAX 2 1.5 1.25");
}
GST_END_TEST;

// Every format at odd sizes, from the proposed pool and from system memory with padded strides
// and an offset: colours as ffmpeg's, alpha and padding bytes as they came in.
GST_START_TEST(test_formats_and_layouts) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("formats");
  const std::string cube = dir.Write("t.cube", CubeText(RandomSmoothCube(17, rng)));
  // 300 columns span two workgroups of the kernel.
  const std::pair<int, int> sizes[] = {{1, 1}, {2, 3}, {97, 61}, {300, 5}};
  for (GstVideoFormat format : kFormats) {
    for (auto [w, h] : sizes) {
      const Frame input = RandomFrame(format, w, h, rng);
      const std::string filter = Lut3dFilter(cube, "tetrahedral");
      CheckAgainstFfmpeg(dir, {cube, ""}, filter, input, "pool memory");
      CheckAgainstFfmpeg(dir, {cube, ""}, filter, input, "system memory, stride +7, offset 5", 7, 5);
    }
  }
}
GST_END_TEST;

}  // namespace

TCase* FfmpegTCase() {
  TCase* tc = vktest::NewTCase("ffmpeg", 300);
  tcase_add_test(tc, test_3d_against_ffmpeg);
  tcase_add_test(tc, test_1d_against_ffmpeg);
  tcase_add_test(tc, test_hald_against_ffmpeg);
  tcase_add_test(tc, test_domain_against_ffmpeg);
  tcase_add_test(tc, test_formats_and_layouts);
  return tc;
}

}  // namespace lut_test
