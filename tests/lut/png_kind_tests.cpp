// png-kind: which table a 512x512 PNG is. A HALD CLUT of level 8 is 512x512 like a GPUImage
// lookup image; auto (the default) reads it as a lookup image unless its name contains "hald",
// and says so in the log; lookup and hald read it as told; an explicit kind the image's size does
// not fit is an error naming the file and its size; a change while playing reads the file again.
#include <glib/gstdio.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "bad_files.h"
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

// The lines the element's debug category ("lut") logs at INFO while this lives.
class LutLog {
 public:
  LutLog() {
    gst_debug_set_threshold_for_name("lut", GST_LEVEL_INFO);
    gst_debug_add_log_function(&LutLog::Log, this, nullptr);
  }
  ~LutLog() {
    gst_debug_remove_log_function_by_data(this);
    gst_debug_unset_threshold_for_name("lut");
  }
  LutLog(const LutLog&) = delete;
  LutLog& operator=(const LutLog&) = delete;

  bool Contains(const std::string& text) {
    std::lock_guard<std::mutex> guard(lock_);
    for (const std::string& line : lines_)
      if (line.find(text) != std::string::npos) return true;
    return false;
  }

 private:
  static void Log(GstDebugCategory* category, GstDebugLevel level, const gchar*, const gchar*, gint, GObject*,
                  GstDebugMessage* message, gpointer data) {
    if (level != GST_LEVEL_INFO || std::string(gst_debug_category_get_name(category)) != "lut") return;
    auto* self = static_cast<LutLog*>(data);
    std::lock_guard<std::mutex> guard(self->lock_);
    self->lines_.emplace_back(gst_debug_message_get(message));
  }

  std::mutex lock_;
  std::vector<std::string> lines_;  // lock_
};

// The identity of 64 levels as a 16-bit HALD of level 8: trilinear and tetrahedral interpolation
// give every 8-bit input back exactly.
lut_ref::Cube WriteIdentityHald8(const std::string& path) {
  return WriteHald(path, 8, IdentityCube(64));
}

// The pixels of a HALD holding `cube` (entry i = pixel i), rounded to 8 bits: the image
// GpuImageLookup() reads. (ReadPngRgb8() would convert a 16-bit PNG as linear light to sRGB.)
std::vector<uint8_t> HaldPixels8(const lut_ref::Cube& cube) {
  std::vector<uint8_t> rgb8;
  for (const lut_ref::Rgb& entry : cube.entries)
    for (double v : entry) rgb8.push_back(uint8_t(std::lround(v * 255)));
  return rgb8;
}

// A level-8 HALD's pixels as the table a HALD reading gives (entry i = pixel i, red fastest).
lut_ref::Cube HaldCube(const std::vector<uint8_t>& rgb8) {
  lut_ref::Cube cube;
  cube.size = 64;
  for (size_t i = 0; i < rgb8.size(); i += 3)
    cube.entries.push_back({rgb8[i] / 255.0, rgb8[i + 1] / 255.0, rgb8[i + 2] / 255.0});
  return cube;
}

ExpectedRgb Identity(const Frame& input) {
  return [&input](size_t i) { return input.Rgb(i); };
}

ExpectedRgb AsLookup(const Frame& input, const std::vector<uint8_t>& rgb8) {
  return [&input, &rgb8](size_t i) { return lut_ref::GpuImageLookup(rgb8, 1.0, input.Rgb(i)); };
}

ExpectedRgb AsTable(const Frame& input, const lut_ref::Cube& cube, lut_ref::Interp interp) {
  return [&input, &cube, interp](size_t i) { return lut_ref::Grade(cube, interp, 1.0, input.Rgb(i)); };
}

// The largest difference of a colour byte between two frames of the same format and size.
int MaxDifference(const Frame& a, const Frame& b) {
  int most = 0;
  for (size_t i = 0; i < size_t(a.width) * a.height; ++i) {
    const auto x = a.Rgb(i), y = b.Rgb(i);
    for (int c = 0; c < 3; ++c) most = std::max(most, std::abs(int(x[c]) - int(y[c])));
  }
  return most;
}

// An identity HALD of level 8 named without "hald": png-kind=hald reads it as the identity (the
// output is the input), auto as a lookup image (as before png-kind existed: very different from
// the input), and the log says which reading auto chose and how to get the other.
GST_START_TEST(test_hald8_without_hald_in_name) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("png-kind hald8");
  const std::string path = dir.Path("grade8.png");
  const lut_ref::Cube identity = WriteIdentityHald8(path);
  const std::vector<uint8_t> rgb8 = HaldPixels8(identity);
  for (const Frame& input :
       {RandomFrame(GST_VIDEO_FORMAT_RGBA, 97, 61, rng), RandomFrame(GST_VIDEO_FORMAT_BGR, 33, 7, rng)}) {
    const std::string size = " " + input.Describe();
    for (const char* interpolation : {"trilinear", "tetrahedral"}) {
      const Frame output = Grade({path, interpolation, 1.0, "hald"}, {input})[0];
      CheckFrame(input, output, Identity(input), 0,
                 std::string("png-kind=hald identity HALD 8 ") + interpolation + size);
    }
    CheckFrame(input, Grade({path, "nearest", 1.0, "hald"}, {input})[0],
               AsTable(input, identity, lut_ref::Interp::kNearest), 1, "png-kind=hald nearest" + size);
    LutLog log;
    const Frame looked_up = Grade({path}, {input})[0];
    CheckFrame(input, looked_up, AsLookup(input, rgb8), 1, "png-kind=auto read as a lookup image" + size);
    const int moved = MaxDifference(input, looked_up);
    fail_unless(moved > 100,
                "png-kind=auto: the identity HALD read as a lookup image moved colours by only %d", moved);
    fail_unless(
        log.Contains(path + ": 512x512 PNG without 'hald' in its name: read as a GPUImage lookup image; set "
                            "png-kind=hald for a HALD CLUT"),
        "no INFO line saying why auto read %s as a lookup image", path.c_str());
    CheckFrame(input, Grade({path, "", 1.0, "lookup"}, {input})[0], AsLookup(input, rgb8), 1,
               "png-kind=lookup" + size);
  }
}
GST_END_TEST;

// A GPUImage lookup image named like a HALD: auto reads a HALD of level 8 (as before png-kind),
// png-kind=lookup the lookup image it is.
GST_START_TEST(test_lookup_with_hald_in_name) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("png-kind lookup");
  gchar* bytes = nullptr;
  gsize length = 0;
  const std::string source = vktest::TestDataDir() + "/lookup_amatorka.png";
  fail_unless(g_file_get_contents(source.c_str(), &bytes, &length, nullptr), "cannot read %s",
              source.c_str());
  const std::string path = dir.Write("amatorka_hald.png", std::string(bytes, length));
  g_free(bytes);
  const std::vector<uint8_t> rgb8 = ReadPngRgb8(path);
  const lut_ref::Cube as_hald = HaldCube(rgb8);
  const Frame input = RandomFrame(GST_VIDEO_FORMAT_xRGB, 45, 31, rng);
  CheckFrame(input, Grade({path, "", 1.0, "lookup"}, {input})[0], AsLookup(input, rgb8), 1,
             "png-kind=lookup on " + path);
  LutLog log;
  CheckFrame(input, Grade({path}, {input})[0], AsTable(input, as_hald, lut_ref::Interp::kTetrahedral), 1,
             "png-kind=auto on " + path);
  fail_unless(
      log.Contains(path + ": 512x512 PNG with 'hald' in its name: read as a HALD CLUT of level 8; set "
                          "png-kind=lookup for a GPUImage lookup image"),
      "no INFO line saying why auto read %s as a HALD", path.c_str());
}
GST_END_TEST;

// An explicit kind the image's size does not fit fails the start, naming the file and its size.
GST_START_TEST(test_kind_does_not_fit) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("png-kind mismatch");
  const std::string level4 = dir.Path("grade4.png");
  WriteRandomHald(level4, 4, rng);
  std::string error = StartErrorMessage(level4, "png-kind=lookup");
  std::string want = level4 + " is 64x64: a GPUImage lookup image must be 512x512 pixels";
  fail_unless(error == want, "error '%s', expected '%s'", error.c_str(), want.c_str());
  const std::string square = dir.Path("square.png");
  WritePng(square, 100, 100, 8, std::vector<uint16_t>(100 * 100 * 3, 9));
  error = StartErrorMessage(square, "png-kind=hald");
  want = square +
         " is 100x100: a HALD CLUT of level L must be L³xL³ pixels (8x8, 27x27, 64x64, ... 4096x4096 for L = "
         "2..16)";
  fail_unless(error == want, "error '%s', expected '%s'", error.c_str(), want.c_str());
}
GST_END_TEST;

// While playing, a png-kind change reads the PNG location again at once: the next frame is graded
// with the new reading, frames before it with the old one. A kind the file does not fit is a
// warning and the previous table stays; a location set after it is read with the kind in force.
GST_START_TEST(test_kind_change_while_playing) {
  TempDir dir;
  std::mt19937 rng = vktest::RngFor("png-kind live");
  const std::string hald8 = dir.Path("grade8.png"), hald4 = dir.Path("grade4.png");
  const std::vector<uint8_t> rgb8 = HaldPixels8(WriteIdentityHald8(hald8));
  const lut_ref::Cube grade4 = WriteRandomHald(hald4, 4, rng);
  LutStream stream({hald8});
  enum Reading { kLookup, kIdentity, kGrade4 };
  std::vector<std::pair<Frame, Reading>> pushed;
  auto push = [&](Reading reading) {
    pushed.emplace_back(RandomFrame(GST_VIDEO_FORMAT_RGBx, 29, 11, rng), reading);
    stream.Push(pushed.back().first);
  };
  push(kLookup);
  gst_util_set_object_arg(G_OBJECT(stream.element()), "png-kind", "hald");
  push(kIdentity);
  push(kIdentity);
  gst_util_set_object_arg(G_OBJECT(stream.element()), "png-kind", "lookup");
  push(kLookup);
  // grade4.png is 64x64: not a lookup image. The lookup reading of grade8.png stays.
  g_object_set(stream.element(), "location", hald4.c_str(), nullptr);
  GstMessage* warning = stream.PopMessage(GST_MESSAGE_WARNING);
  fail_unless(warning != nullptr, "no warning for a PNG that png-kind=lookup does not fit");
  GError* error = nullptr;
  gst_message_parse_warning(warning, &error, nullptr);
  const std::string want =
      hald4 + " is 64x64: a GPUImage lookup image must be 512x512 pixels; the previous table stays in use";
  fail_unless(error->domain == GST_RESOURCE_ERROR && want == error->message, "warning '%s', expected '%s'",
              error->message, want.c_str());
  g_error_free(error);
  gst_message_unref(warning);
  push(kLookup);
  // Back to auto: grade4.png, the location now set, is read again, as a HALD by its size.
  gst_util_set_object_arg(G_OBJECT(stream.element()), "png-kind", "auto");
  push(kGrade4);
  fail_unless(stream.PopMessage(GST_MESSAGE_WARNING) == nullptr, "a warning for a table that reads");
  const std::vector<Frame> outputs = stream.Finish();
  fail_unless(outputs.size() == pushed.size(), "%zu frames in, %zu out", pushed.size(), outputs.size());
  for (size_t n = 0; n < outputs.size(); ++n) {
    const Frame& input = pushed[n].first;
    const std::string what = "frame " + std::to_string(n);
    switch (pushed[n].second) {
      case kLookup: CheckFrame(input, outputs[n], AsLookup(input, rgb8), 1, what + " (lookup)"); break;
      case kIdentity: CheckFrame(input, outputs[n], Identity(input), 0, what + " (identity HALD)"); break;
      case kGrade4:
        CheckFrame(input, outputs[n], AsTable(input, grade4, lut_ref::Interp::kTetrahedral), 1,
                   what + " (grade4.png as a HALD)");
        break;
    }
  }
}
GST_END_TEST;

}  // namespace

TCase* PngKindTCase() {
  TCase* tc = vktest::NewTCase("png-kind", 300);
  tcase_add_test(tc, test_hald8_without_hald_in_name);
  tcase_add_test(tc, test_lookup_with_hald_in_name);
  tcase_add_test(tc, test_kind_does_not_fit);
  tcase_add_test(tc, test_kind_change_while_playing);
  return tc;
}

}  // namespace lut_test
