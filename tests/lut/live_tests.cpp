// Changes while PLAYING: each frame is graded entirely with the settings in force when it was
// pushed, whatever is still in flight; a bad new file is a warning and the old table stays.
#include <string>

#include "common/temp_dir.h"
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

// What one pushed frame must have been graded with.
struct Expectation {
  Frame input;
  const lut_ref::Cube* cube;
  lut_ref::Interp interp;
  double intensity;
};

void CheckAll(const std::vector<Expectation>& expected, const std::vector<Frame>& outputs) {
  fail_unless(outputs.size() == expected.size(), "%zu frames in, %zu out", expected.size(), outputs.size());
  for (size_t n = 0; n < outputs.size(); ++n) {
    const Expectation& e = expected[n];
    CheckFrame(
        e.input, outputs[n],
        [&](size_t i) { return lut_ref::Grade(*e.cube, e.interp, e.intensity, e.input.Rgb(i)); }, 1,
        "frame " + std::to_string(n));
  }
}

// Tables swapped between consecutive frames, with earlier frames still in flight: every frame
// shows exactly one table.
GST_START_TEST(test_location_change) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("live-location");
  const lut_ref::Cube a = RandomSmoothCube(17, rng), b = RandomSmoothCube(33, rng);
  const std::string path_a = dir.Write("a.cube", CubeText(a)), path_b = dir.Write("b.cube", CubeText(b));
  LutStream stream({path_a});
  std::vector<Expectation> expected;
  auto push = [&](const lut_ref::Cube* cube, double intensity) {
    Frame frame = RandomFrame(GST_VIDEO_FORMAT_RGBx, 45, 21, rng);
    stream.Push(frame);
    expected.push_back({std::move(frame), cube, lut_ref::Interp::kTetrahedral, intensity});
  };
  push(&a, 1);
  push(&a, 1);
  push(&a, 1);
  g_object_set(stream.element(), "location", path_b.c_str(), nullptr);
  push(&b, 1);
  g_object_set(stream.element(), "location", path_a.c_str(), nullptr);
  push(&a, 1);
  g_object_set(stream.element(), "location", path_b.c_str(), nullptr);
  push(&b, 1);
  push(&b, 1);
  g_object_set(stream.element(), "intensity", 0.5, nullptr);
  push(&b, 0.5);
  g_object_set(stream.element(), "intensity", 1.0, "location", path_a.c_str(), nullptr);
  push(&a, 1);
  CheckAll(expected, stream.Finish());
}
GST_END_TEST;

GST_START_TEST(test_interpolation_change) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("live-interpolation");
  const lut_ref::Cube cube = RandomSmoothCube(9, rng);
  LutStream stream({dir.Write("t.cube", CubeText(cube))});
  std::vector<Expectation> expected;
  for (auto [name, interp] :
       {std::pair{"nearest", lut_ref::Interp::kNearest}, std::pair{"trilinear", lut_ref::Interp::kTrilinear},
        std::pair{"tetrahedral", lut_ref::Interp::kTetrahedral}}) {
    gst_util_set_object_arg(G_OBJECT(stream.element()), "interpolation", name);
    Frame frame = RandomFrame(GST_VIDEO_FORMAT_BGR, 33, 9, rng);
    stream.Push(frame);
    expected.push_back({std::move(frame), &cube, interp, 1.0});
  }
  CheckAll(expected, stream.Finish());
}
GST_END_TEST;

// A bad file while playing: a RESOURCE warning naming the file and line, and the previous table
// grades the next frames; a good file after it is taken.
GST_START_TEST(test_bad_file_while_playing) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("live-bad");
  const lut_ref::Cube a = RandomSmoothCube(17, rng), b = RandomSmoothCube(5, rng);
  const std::string path_a = dir.Write("a.cube", CubeText(a)), path_b = dir.Write("b.cube", CubeText(b));
  const std::string bad = dir.Write("bad.cube", "TITLE \"x\"\nLUT_3D_SIZE 300\n");
  LutStream stream({path_a});
  std::vector<Expectation> expected;
  auto push = [&](const lut_ref::Cube* cube) {
    Frame frame = RandomFrame(GST_VIDEO_FORMAT_RGBA, 30, 20, rng);
    stream.Push(frame);
    expected.push_back({std::move(frame), cube, lut_ref::Interp::kTetrahedral, 1.0});
  };
  push(&a);
  g_object_set(stream.element(), "location", bad.c_str(), nullptr);
  GstMessage* warning = stream.PopMessage(GST_MESSAGE_WARNING);
  fail_unless(warning != nullptr, "no warning for a bad file while playing");
  GError* error = nullptr;
  gst_message_parse_warning(warning, &error, nullptr);
  fail_unless(error->domain == GST_RESOURCE_ERROR, "warning domain %s", g_quark_to_string(error->domain));
  const std::string want =
      "LUT_3D_SIZE 300 at line 2 of " + bad + ": must be 2..256; the previous table stays in use";
  fail_unless(want == error->message, "warning '%s', expected '%s'", error->message, want.c_str());
  g_error_free(error);
  gst_message_unref(warning);
  fail_unless(stream.PopMessage(GST_MESSAGE_ERROR) == nullptr,
              "a bad file while playing must not be an error");
  push(&a);
  push(&a);
  g_object_set(stream.element(), "location", dir.Path("missing.cube").c_str(), nullptr);
  GstMessage* missing = stream.PopMessage(GST_MESSAGE_WARNING);
  fail_unless(missing != nullptr, "no warning for a missing file while playing");
  gst_message_unref(missing);
  push(&a);
  g_object_set(stream.element(), "location", path_b.c_str(), nullptr);
  push(&b);
  CheckAll(expected, stream.Finish());
}
GST_END_TEST;

}  // namespace

TCase* LiveTCase() {
  TCase* tc = vktest::NewTCase("live", 120);
  tcase_add_test(tc, test_location_change);
  tcase_add_test(tc, test_interpolation_change);
  tcase_add_test(tc, test_bad_file_while_playing);
  return tc;
}

}  // namespace lut_test
