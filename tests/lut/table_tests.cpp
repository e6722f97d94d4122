// Identity tables, domains, intensity, GPUImage lookup PNGs and HALD CLUTs, against the CPU
// reference (tests/reference/lut_ref).
#include <string>

#include "common/temp_dir.h"
#include "common/test_data.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "lut_stream.h"
#include "reference/lut_ref.h"
#include "tables.h"
#include "tcases.h"

namespace lut_test {

using vktest::TempDir;
namespace {

const std::pair<const char*, lut_ref::Interp> kInterpolations[] = {
    {"nearest", lut_ref::Interp::kNearest},
    {"trilinear", lut_ref::Interp::kTrilinear},
    {"tetrahedral", lut_ref::Interp::kTetrahedral},
};

void CheckAgainstReference(const Settings& settings, const lut_ref::Cube& cube, lut_ref::Interp interp,
                           const Frame& input, int tolerance, const std::string& context) {
  const Frame output = Grade(settings, {input})[0];
  CheckFrame(
      input, output, [&](size_t i) { return lut_ref::Grade(cube, interp, settings.intensity, input.Rgb(i)); },
      tolerance, context);
}

// An identity table gives back the input exactly, whatever the size and interpolation.
GST_START_TEST(test_identity) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("identity");
  const Frame input = RandomFrame(GST_VIDEO_FORMAT_RGBA, 67, 23, rng);
  for (int size : {2, 17, 33}) {
    const std::string path = dir.Write("identity.cube", CubeText(IdentityCube(size)));
    for (auto [name, interp] : kInterpolations) {
      // Nearest snaps to the table's grid: only a 256-entry axis would return every level.
      if (interp == lut_ref::Interp::kNearest) continue;
      const Frame output = Grade({path, name}, {input})[0];
      CheckFrame(
          input, output, [&](size_t i) { return input.Rgb(i); }, 0,
          "identity LUT_3D_SIZE " + std::to_string(size) + " " + name);
    }
  }
  const std::string path = dir.Write("identity1d.cube", CubeText(IdentityCube(256, true)));
  for (auto [name, interp] : kInterpolations) {
    const Frame output = Grade({path, name}, {input})[0];
    CheckFrame(
        input, output, [&](size_t i) { return input.Rgb(i); }, 0,
        std::string("identity LUT_1D_SIZE 256 ") + name);
  }
}
GST_END_TEST;

// Nearest on a coarse identity returns the nearest grid level, as the reference says.
GST_START_TEST(test_identity_nearest) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("identity-nearest");
  const Frame input = RandomFrame(GST_VIDEO_FORMAT_RGB, 31, 7, rng);
  const lut_ref::Cube cube = IdentityCube(9);
  CheckAgainstReference({dir.Write("i.cube", CubeText(cube)), "nearest"}, cube, lut_ref::Interp::kNearest,
                        input, 0, "identity LUT_3D_SIZE 9 nearest");
}
GST_END_TEST;

// DOMAIN_MIN/DOMAIN_MAX map the input range onto the table (values outside clamp to its edges).
GST_START_TEST(test_domain) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("domain-ref");
  const Frame input = RandomFrame(GST_VIDEO_FORMAT_BGRx, 53, 19, rng);
  lut_ref::Cube cube = RandomSmoothCube(17, rng);
  cube.domain_min = {0.1, -0.25, 0.2};
  cube.domain_max = {0.9, 1.25, 0.6};
  const std::string path = dir.Write("d.cube", CubeText(cube));
  for (auto [name, interp] : kInterpolations)
    CheckAgainstReference({path, name}, cube, interp, input, 1, std::string("3D domain ") + name);
  lut_ref::Cube one_d = RandomSmoothCube(64, rng, true);
  one_d.domain_min = {0.25, 0.0, -0.5};
  one_d.domain_max = {0.75, 2.0, 1.0};
  CheckAgainstReference({dir.Write("d1.cube", CubeText(one_d)), "tetrahedral"}, one_d,
                        lut_ref::Interp::kTrilinear, input, 1, "1D domain linear");
}
GST_END_TEST;

GST_START_TEST(test_intensity) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("intensity");
  const Frame input = RandomFrame(GST_VIDEO_FORMAT_ARGB, 41, 13, rng);
  const lut_ref::Cube cube = RandomSmoothCube(33, rng);
  const std::string path = dir.Write("t.cube", CubeText(cube));
  // 0: the input exactly.
  const Frame untouched = Grade({path, "", 0.0}, {input})[0];
  CheckFrame(
      input, untouched, [&](size_t i) { return input.Rgb(i); }, 0, "intensity 0");
  for (double intensity : {0.25, 0.5, 0.8})
    CheckAgainstReference({path, "", intensity}, cube, lut_ref::Interp::kTetrahedral, input, 1,
                          "intensity " + std::to_string(intensity));
}
GST_END_TEST;

// The three lookup images of tests/data against GPUImage's shader formula.
GST_START_TEST(test_gpuimage_lookup) {
  std::mt19937 rng = vktest::RngFor("gpuimage");
  const Frame input = RandomFrame(GST_VIDEO_FORMAT_RGBA, 64, 48, rng);
  for (const char* name : {"lookup_amatorka.png", "lookup_miss_etikate.png", "lookup_soft_elegance_1.png"}) {
    const std::string path = vktest::TestDataDir() + "/" + name;
    const std::vector<uint8_t> rgb8 = ReadPngRgb8(path);
    for (double intensity : {1.0, 0.6}) {
      // The interpolation property does not apply: GPUImage's formula is the lookup.
      const Frame output = Grade({path, "nearest", intensity}, {input})[0];
      CheckFrame(
          input, output, [&](size_t i) { return lut_ref::GpuImageLookup(rgb8, intensity, input.Rgb(i)); }, 1,
          std::string(name) + " intensity " + std::to_string(intensity));
    }
  }
}
GST_END_TEST;

// HALD CLUTs of levels 4 (16³) and 6 (36³, a 216x216 image), 16-bit, every interpolation.
GST_START_TEST(test_hald) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("hald");
  const Frame input = RandomFrame(GST_VIDEO_FORMAT_xBGR, 37, 29, rng);
  for (int level : {4, 6}) {
    const std::string path = dir.Path("grade.png");
    const lut_ref::Cube cube = WriteRandomHald(path, level, rng);
    for (auto [name, interp] : kInterpolations)
      CheckAgainstReference({path, name}, cube, interp, input, 1,
                            "HALD level " + std::to_string(level) + " " + name);
  }
}
GST_END_TEST;

}  // namespace

TCase* TableTCase() {
  TCase* tc = vktest::NewTCase("tables", 300);
  tcase_add_test(tc, test_identity);
  tcase_add_test(tc, test_identity_nearest);
  tcase_add_test(tc, test_domain);
  tcase_add_test(tc, test_intensity);
  tcase_add_test(tc, test_gpuimage_lookup);
  tcase_add_test(tc, test_hald);
  return tc;
}

}  // namespace lut_test
