// The lookup-table readers of gst/lut on their own: every feature of the formats, and every kind
// of bad input with the exact message (file and, for .cube, line).
#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>

#include <cmath>
#include <string>

#include "lut/cube.hpp"
#include "lut/reader.hpp"
#include "lut/tables.h"
#include "lut/temp_dir.h"

namespace lut_test {
namespace {

lut::Table Parse(const std::string& text) {
  lut::Table table;
  std::string error;
  fail_unless(lut::parse_cube(text, "t.cube", table, error), "valid .cube refused: %s\n%s", error.c_str(),
              text.c_str());
  return table;
}

void ExpectCubeError(const std::string& text, const std::string& message) {
  lut::Table table;
  std::string error;
  fail_if(lut::parse_cube(text, "t.cube", table, error), "accepted bad .cube:\n%s", text.c_str());
  fail_unless(error == message, "error '%s', expected '%s' for:\n%s", error.c_str(), message.c_str(),
              text.c_str());
}

std::string Rows(int n, const char* row = "0.5 0.25 1") {
  std::string text;
  for (int i = 0; i < n; ++i) text += std::string(row) + "\n";
  return text;
}

GST_START_TEST(test_cube_3d) {
  const lut::Table t = Parse(
      "# a comment\n\nTITLE \"Warm # look\"\n  # indented comment\nLUT_3D_SIZE 2\n\n"
      "0 0 0\n1 0 0 # red\n0 1 0\n1 1 0\n\t0 0 1\n1 0 1\n0 1 1\n1e0 +1 1.0\n\n");
  fail_unless(t.dimensions == lut::Dimensions::k3D && t.size == 2 && t.source == lut::Source::kCube);
  fail_unless(t.title == "Warm # look", "title '%s'", t.title.c_str());
  fail_unless(t.rgb.size() == 24);
  // Red fastest: entry 1 is (r=1, g=0, b=0), entry 2 (0, 1, 0), entry 4 (0, 0, 1).
  fail_unless(t.rgb[3] == 1 && t.rgb[4] == 0 && t.rgb[7] == 1 && t.rgb[14] == 1 && t.rgb[21] == 1);
  fail_unless(t.domain_min == (std::array<float, 3>{0, 0, 0}) &&
              t.domain_max == (std::array<float, 3>{1, 1, 1}));
}
GST_END_TEST;

GST_START_TEST(test_cube_1d_domain_and_line_endings) {
  const lut::Table t = Parse(
      "TITLE plain words\r\nLUT_1D_SIZE 3\r\nDOMAIN_MIN -0.5 0 0.25\r\nDOMAIN_MAX 1.5 2 0.75\r\n"
      "0 0 0\r\n-0.25 0.5 1.25\r\n1 1 1");
  fail_unless(t.dimensions == lut::Dimensions::k1D && t.size == 3 && t.rgb.size() == 9);
  fail_unless(t.title == "plain words", "title '%s'", t.title.c_str());
  fail_unless(t.domain_min == (std::array<float, 3>{-0.5f, 0, 0.25f}));
  fail_unless(t.domain_max == (std::array<float, 3>{1.5f, 2, 0.75f}));
  fail_unless(t.rgb[3] == -0.25f && t.rgb[5] == 1.25f);
  const lut::Table r = Parse("LUT_3D_INPUT_RANGE 0 4\r" + Rows(0) +
                             "LUT_3D_SIZE 2\r0 0 0\r0 0 0\r0 0 0\r0 0 0\r"
                             "0 0 0\r0 0 0\r0 0 0\r0 0 0\r");
  fail_unless(r.domain_max == (std::array<float, 3>{4, 4, 4}) && r.size == 2);
}
GST_END_TEST;

GST_START_TEST(test_cube_sizes) {
  fail_unless(Parse("LUT_1D_SIZE 65536\n" + Rows(65536)).size == 65536);
  fail_unless(Parse("LUT_3D_SIZE 65\n" + Rows(65 * 65 * 65)).rgb.size() == 65u * 65 * 65 * 3);
  ExpectCubeError("LUT_3D_SIZE 1\n", "LUT_3D_SIZE 1 at line 1 of t.cube: must be 2..256");
  ExpectCubeError("TITLE \"x\"\n\nLUT_3D_SIZE 300\n", "LUT_3D_SIZE 300 at line 3 of t.cube: must be 2..256");
  ExpectCubeError("LUT_3D_SIZE 99999999999999999999999\n",
                  "LUT_3D_SIZE 99999999999999999999999 at line 1 of t.cube: must be 2..256");
  ExpectCubeError("LUT_1D_SIZE 65537\n", "LUT_1D_SIZE 65537 at line 1 of t.cube: must be 2..65536");
  ExpectCubeError("LUT_1D_SIZE 1\n", "LUT_1D_SIZE 1 at line 1 of t.cube: must be 2..65536");
  ExpectCubeError("LUT_3D_SIZE -4\n", "line 1 of t.cube: LUT_3D_SIZE '-4' is not a whole number");
  ExpectCubeError("LUT_3D_SIZE 2.5\n", "line 1 of t.cube: LUT_3D_SIZE '2.5' is not a whole number");
  ExpectCubeError("LUT_3D_SIZE\n", "line 1 of t.cube: LUT_3D_SIZE takes one value, found 0");
  ExpectCubeError(
      "LUT_3D_SIZE 2\nLUT_1D_SIZE 4\n",
      "line 2 of t.cube: LUT_1D_SIZE after LUT_3D_SIZE at line 1: one table per file (combined 1D and 3D "
      "tables are not supported)");
}
GST_END_TEST;

GST_START_TEST(test_cube_rows) {
  ExpectCubeError("LUT_3D_SIZE 2\n" + Rows(7),
                  "t.cube is truncated: 7 of the 8 table rows of LUT_3D_SIZE 2 at its end (line 8)");
  ExpectCubeError("", "t.cube has no LUT_3D_SIZE or LUT_1D_SIZE (end of file at line 0)");
  ExpectCubeError("# only a comment\n", "t.cube has no LUT_3D_SIZE or LUT_1D_SIZE (end of file at line 1)");
  ExpectCubeError("LUT_1D_SIZE 2\n" + Rows(3), "line 4 of t.cube: table row 3, but LUT_1D_SIZE 2 has 2 rows");
  ExpectCubeError("LUT_1D_SIZE 2\n0 0\n", "line 2 of t.cube: 2 values, a table row needs 3");
  ExpectCubeError("LUT_1D_SIZE 2\n0 0 0 0\n", "line 2 of t.cube: 4 values, a table row needs 3");
  ExpectCubeError("0 0 0\n", "line 1 of t.cube: table row before LUT_3D_SIZE or LUT_1D_SIZE");
  ExpectCubeError("LUT_1D_SIZE 2\n0 0 0\nTITLE \"late\"\n",
                  "line 3 of t.cube: TITLE after the table began at line 2");
  ExpectCubeError("LUT_1D_SIZE 2\n0 0 0\nDOMAIN_MIN 0 0 0\n",
                  "line 3 of t.cube: DOMAIN_MIN after the table began at line 2");
}
GST_END_TEST;

GST_START_TEST(test_cube_values) {
  ExpectCubeError("LUT_1D_SIZE 2\n0 0 0\n0.5 abc 1\n", "line 3 of t.cube: value 'abc' is not a number");
  ExpectCubeError("LUT_1D_SIZE 2\n0 0 0\n0.5 0,5 1\n", "line 3 of t.cube: value '0,5' is not a number");
  ExpectCubeError("LUT_1D_SIZE 2\n0 0 0\n0.5 1 nan\n",
                  "line 3 of t.cube: value 'nan' is not a finite number");
  ExpectCubeError("LUT_1D_SIZE 2\n0 0 0\n-inf 1 1\n",
                  "line 3 of t.cube: value '-inf' is not a finite number");
  ExpectCubeError("LUT_1D_SIZE 2\n0 0 0\n1e39 1 1\n",
                  "line 3 of t.cube: value '1e39' is not a finite number");
  ExpectCubeError("LUT_1D_SIZE 2\nDOMAIN_MAX 1 inf 1\n",
                  "line 2 of t.cube: DOMAIN_MAX 'inf' is not a finite number");
  ExpectCubeError("LUT_1D_SIZE 2\nhello 0 0\n", "line 2 of t.cube: 'hello' is not a number nor a keyword");
  ExpectCubeError("LUT_4D_SIZE 2\n", "line 1 of t.cube: unknown keyword LUT_4D_SIZE");
  ExpectCubeError("TITLE \"open\n", "line 1 of t.cube: TITLE without its closing quote");
}
GST_END_TEST;

GST_START_TEST(test_cube_domain) {
  ExpectCubeError("LUT_3D_SIZE 2\nDOMAIN_MIN 0 0.5 0\nDOMAIN_MAX 1 0.5 1\n" + Rows(8),
                  "line 3 of t.cube: DOMAIN_MIN 0.5 is not below DOMAIN_MAX 0.5 for green");
  ExpectCubeError("LUT_3D_SIZE 2\nDOMAIN_MIN 0 0 2\n" + Rows(8),
                  "line 2 of t.cube: DOMAIN_MIN 2 is not below DOMAIN_MAX 1 for blue");
  ExpectCubeError("LUT_3D_SIZE 2\nDOMAIN_MIN 0 0\n", "line 2 of t.cube: DOMAIN_MIN takes 3 values, found 2");
  ExpectCubeError("LUT_3D_SIZE 2\nDOMAIN_MAX 1 1 1\nDOMAIN_MAX 1 1 1\n",
                  "line 3 of t.cube: second DOMAIN_MAX (the first is at line 2)");
  // A domain wider than 0..1 is fine.
  fail_unless(Parse("LUT_3D_SIZE 2\nDOMAIN_MIN -1 -1 -1\nDOMAIN_MAX 2 2 2\n" + Rows(8)).domain_min[0] == -1);
}
GST_END_TEST;

// Files: the extension picks the reader; errors name the path.
GST_START_TEST(test_files) {
  TempDir dir;
  lut::Table table;
  std::string error;
  const std::string cube = dir.Write("Grade.CUBE", "LUT_1D_SIZE 2\n0 0 0\n1 1 1\n");
  fail_unless(lut::read_table(cube, table, error), "%s", error.c_str());
  fail_unless(table.dimensions == lut::Dimensions::k1D);

  const std::string missing = dir.Path("none.cube");
  fail_if(lut::read_table(missing, table, error));
  fail_unless(error == "cannot open " + missing + ": No such file or directory", "%s", error.c_str());

  const std::string bad_line = dir.Write("bad.cube", "LUT_3D_SIZE 2\n0 0 0\nx 0 0\n");
  fail_if(lut::read_table(bad_line, table, error));
  fail_unless(error == "line 3 of " + bad_line + ": 'x' is not a number nor a keyword", "%s", error.c_str());

  for (const char* name : {"table.3dl", "noextension"}) {
    const std::string path = dir.Write(name, "LUT_3D_SIZE 2\n");
    fail_if(lut::read_table(path, table, error));
    const std::string ext = std::string(name) == "noextension" ? "(no extension)" : "'.3dl'";
    fail_unless(error == path + ": unknown lookup table format " + ext + ": need .cube or .png", "%s",
                error.c_str());
  }

  const std::string not_png = dir.Write("text.png", "LUT_3D_SIZE 2\n");
  fail_if(lut::read_table(not_png, table, error));
  fail_unless(error == not_png + " is not a PNG file (no PNG signature)", "%s", error.c_str());

  // A directory cannot be read.
  const std::string directory = dir.Path("dir.cube");
  g_mkdir(directory.c_str(), 0700);
  fail_if(lut::read_table(directory, table, error));
  fail_unless(error.rfind("cannot read " + directory + ": ", 0) == 0, "%s", error.c_str());
  g_rmdir(directory.c_str());
}
GST_END_TEST;

GST_START_TEST(test_png_lookup_image) {
  TempDir dir;
  // A lookup image whose pixel at (x, y) is (x mod 256, y mod 256, tile index): where each
  // entry comes from is visible in its value.
  std::vector<uint16_t> rgb(512 * 512 * 3);
  for (int y = 0; y < 512; ++y)
    for (int x = 0; x < 512; ++x) {
      uint16_t* p = &rgb[(size_t(y) * 512 + x) * 3];
      p[0] = uint16_t(x % 256);
      p[1] = uint16_t(y % 256);
      p[2] = uint16_t((y / 64) * 8 + x / 64);
    }
  const std::string path = dir.Path("look.png");
  WritePng(path, 512, 512, 8, rgb);
  lut::Table t;
  std::string error;
  fail_unless(lut::read_table(path, t, error), "%s", error.c_str());
  fail_unless(t.source == lut::Source::kLookupImage && t.size == 64 && t.dimensions == lut::Dimensions::k3D);
  // Entry (r=5, g=7, b=19): tile 19 is grid column 3, row 2: pixel (3*64+5, 2*64+7).
  const size_t e = 5 + 7 * 64 + 19 * 64 * 64;
  fail_unless(std::fabs(t.rgb[e * 3] - (197 % 256) / 255.f) < 1e-6f, "r %f", t.rgb[e * 3]);
  fail_unless(std::fabs(t.rgb[e * 3 + 1] - 135 / 255.f) < 1e-6f, "g %f", t.rgb[e * 3 + 1]);
  fail_unless(std::fabs(t.rgb[e * 3 + 2] - 19 / 255.f) < 1e-6f, "b %f", t.rgb[e * 3 + 2]);
}
GST_END_TEST;

GST_START_TEST(test_png_hald) {
  TempDir dir;
  std::mt19937 rng(7);
  lut::Table t;
  std::string error;
  // Level 3: a 27x27 image, a 9³ cube; the file name does not matter for sizes other than 512.
  const std::string path = dir.Path("grade.png");
  const lut_ref::Cube cube = WriteRandomHald(path, 3, rng);
  fail_unless(lut::read_table(path, t, error), "%s", error.c_str());
  fail_unless(t.source == lut::Source::kHald && t.size == 9 && t.rgb.size() == 729 * 3);
  for (size_t i = 0; i < 729; ++i)
    for (int c = 0; c < 3; ++c)
      fail_unless(std::fabs(t.rgb[i * 3 + c] - cube.entries[i][c]) < 1e-6, "entry %zu channel %d", i, c);
  // Level 8 is 512x512, like a lookup image: "hald" in the name makes it a HALD.
  const std::string hald8 = dir.Path("My_HALD_8.png");
  WriteRandomHald(hald8, 8, rng);
  fail_unless(lut::read_table(hald8, t, error), "%s", error.c_str());
  fail_unless(t.source == lut::Source::kHald && t.size == 64);
  // Wrong dimensions.
  const std::string odd = dir.Path("odd_hald.png");
  WritePng(odd, 28, 28, 8, std::vector<uint16_t>(28 * 28 * 3));
  fail_if(lut::read_table(odd, t, error));
  fail_unless(error == odd +
                           " is 28x28: a HALD CLUT of level L must be L³xL³ pixels (8x8, 27x27, 64x64, ... "
                           "4096x4096 for L = 2..16)",
              "%s", error.c_str());
  const std::string wide = dir.Path("wide.png");
  WritePng(wide, 512, 256, 8, std::vector<uint16_t>(512 * 256 * 3));
  fail_if(lut::read_table(wide, t, error));
  fail_unless(error.find(wide + " is 512x256: a HALD CLUT") == 0, "%s", error.c_str());
}
GST_END_TEST;

GST_START_TEST(test_png_truncated) {
  TempDir dir;
  const std::string path = dir.Path("cut.png");
  std::vector<uint16_t> rgb(64 * 64 * 3);
  for (size_t i = 0; i < rgb.size(); ++i) rgb[i] = uint16_t(i * 7919 % 256);
  WritePng(path, 64, 64, 8, rgb);
  gchar* data = nullptr;
  gsize length = 0;
  fail_unless(g_file_get_contents(path.c_str(), &data, &length, nullptr));
  const std::string cut = dir.Write("cut_hald.png", std::string(data, length / 2));
  g_free(data);
  lut::Table t;
  std::string error;
  fail_if(lut::read_table(cut, t, error));
  fail_unless(error.rfind(cut + " is not a readable PNG: ", 0) == 0, "%s", error.c_str());
}
GST_END_TEST;

}  // namespace
}  // namespace lut_test

static Suite* lut_readers_suite() {
  Suite* suite = suite_create("lut_readers");
  TCase* tc = tcase_create("readers");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, lut_test::test_cube_3d);
  tcase_add_test(tc, lut_test::test_cube_1d_domain_and_line_endings);
  tcase_add_test(tc, lut_test::test_cube_sizes);
  tcase_add_test(tc, lut_test::test_cube_rows);
  tcase_add_test(tc, lut_test::test_cube_values);
  tcase_add_test(tc, lut_test::test_cube_domain);
  tcase_add_test(tc, lut_test::test_files);
  tcase_add_test(tc, lut_test::test_png_lookup_image);
  tcase_add_test(tc, lut_test::test_png_hald);
  tcase_add_test(tc, lut_test::test_png_truncated);
  suite_add_tcase(suite, tc);
  return suite;
}

GST_CHECK_MAIN(lut_readers);
