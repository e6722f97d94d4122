// 10- and 16-bit frames (RGBA64_LE, BGR10A2_LE, RGB10A2_LE, same format out as in) against the
// CPU reference, each interpolation of 3D and 1D tables, and against ffmpeg's lut3d on rgba64le:
// within ±1 code value at 10 bits and ±2 at 16 (the reference evaluates the table exactly; float
// arithmetic and ffmpeg's truncation stay inside that), alpha unchanged.
#include <algorithm>
#include <string>

#include "common/format_names.h"
#include "common/temp_dir.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "ffmpeg_peer.h"
#include "frames.h"
#include "lut_stream.h"
#include "reference/lut_ref.h"
#include "tables.h"
#include "tcases.h"

namespace lut_test {

using vktest::TempDir;
namespace {

int ToleranceOf(const Frame& frame) {
  return frame.depth() == 16 ? 2 : 1;
}

struct Table {
  const char* label;
  bool one_d;
  int size;
  const char* interpolation;  // the element's name for it
  lut_ref::Interp interp;
};

const Table kTables[] = {
    {"3D 17 nearest", false, 17, "nearest", lut_ref::Interp::kNearest},
    {"3D 17 trilinear", false, 17, "trilinear", lut_ref::Interp::kTrilinear},
    {"3D 33 tetrahedral", false, 33, "tetrahedral", lut_ref::Interp::kTetrahedral},
    {"1D 1024 linear", true, 1024, "trilinear", lut_ref::Interp::kTrilinear},
    {"1D 64 nearest", true, 64, "nearest", lut_ref::Interp::kNearest},
};

// Every table, at full and partial intensity, in a frame from the element's pool and in system
// memory at an odd stride and offset (64-bit pixels read a word at a time there).
GST_START_TEST(test_deep_against_reference) {
  const GstVideoFormat format = kDeepFormats[__i__];
  TempDir dir;
  for (const Table& table : kTables) {
    const std::string name = std::string(vktest::FormatName(format)) + " " + table.label;
    std::mt19937 rng = vktest::RngFor("deep " + name);
    const lut_ref::Cube cube = RandomSmoothCube(table.size, rng, table.one_d);
    const std::string path = dir.Write("t.cube", CubeText(cube));
    const Frame input = RandomFrame(format, 97, 61, rng);
    for (double intensity : {1.0, 0.6}) {
      const Settings settings{path, table.interpolation, intensity};
      auto expected = [&](size_t i) {
        const auto in = input.Codes(i);
        return lut_ref::Grade(cube, table.interp, intensity, {in[0], in[1], in[2]}, input.depth());
      };
      const std::string context = name + " intensity " + std::to_string(intensity);
      CheckDeepFrame(input, Grade(settings, {input})[0], expected, ToleranceOf(input), context);
      CheckDeepFrame(input, Grade(settings, {input}, 7, 5)[0], expected, ToleranceOf(input),
                     context + " system stride=row+7 offset=5");
    }
  }
}
GST_END_TEST;

// A table whose values all lie in 0..1 is also kept packed in 10 bits a channel for 8-bit frames
// (lut_table.hpp): deep frames must still read its floats (the packed entries are off by up to
// 32 code values at 16 bits).
GST_START_TEST(test_deep_with_unit_range_table) {
  const GstVideoFormat format = kDeepFormats[__i__];
  TempDir dir;
  std::mt19937 rng = vktest::RngFor(std::string("deep unit range ") + vktest::FormatName(format));
  lut_ref::Cube cube = RandomSmoothCube(33, rng, false);
  for (lut_ref::Rgb& entry : cube.entries)
    for (double& v : entry) v = std::clamp(v, 0.0, 1.0);
  const std::string path = dir.Write("t.cube", CubeText(cube));
  const Frame input = RandomFrame(format, 97, 61, rng);
  auto expected = [&](size_t i) {
    const auto in = input.Codes(i);
    return lut_ref::Grade(cube, lut_ref::Interp::kTetrahedral, 1.0, {in[0], in[1], in[2]}, input.depth());
  };
  CheckDeepFrame(input, Grade({path, "tetrahedral", 1.0}, {input})[0], expected, ToleranceOf(input),
                 std::string(vktest::FormatName(format)) + " 33^3 tetrahedral, values in 0..1");
}
GST_END_TEST;

// ffmpeg's lut3d grades rgba64le in 16 bits: the same table, every interpolation.
GST_START_TEST(test_rgba64_against_ffmpeg) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("rgba64-ffmpeg");
  const std::string cube = dir.Write("t.cube", CubeText(RandomSmoothCube(33, rng)));
  const Frame input = RandomFrame(GST_VIDEO_FORMAT_RGBA64_LE, 61, 37, rng);
  for (const char* interp : {"nearest", "trilinear", "tetrahedral"}) {
    const std::string filter = Lut3dFilter(cube, interp);
    const std::vector<uint8_t> peer =
        RunFfmpeg(dir.Path(""), filter, input.width, input.height, input.pixels, "rgba64le");
    const Frame theirs{input.format, input.width, input.height, peer};
    CheckDeepFrame(
        input, Grade({cube, interp}, {input})[0],
        [&](size_t i) {
          const auto c = theirs.Codes(i);
          return std::array<uint32_t, 3>{c[0], c[1], c[2]};
        },
        2, std::string("RGBA64_LE LUT_3D_SIZE 33 ") + interp + " vs ffmpeg " + filter);
  }
}
GST_END_TEST;

}  // namespace

TCase* DeepTCase() {
  TCase* tcase = vktest::NewTCase("deep", 300);
  tcase_add_loop_test(tcase, test_deep_against_reference, 0, G_N_ELEMENTS(kDeepFormats));
  tcase_add_loop_test(tcase, test_deep_with_unit_range_table, 0, G_N_ELEMENTS(kDeepFormats));
  tcase_add_test(tcase, test_rgba64_against_ffmpeg);
  return tcase;
}

}  // namespace lut_test
