// The lookup-table readers of gst/lut on their own: every feature of the formats, and every kind
// of bad input with the exact message (file and, for .cube, line).
#include <fcntl.h>
#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <string>

#include "common/temp_dir.h"
#include "lut/cube.hpp"
#include "lut/reader.hpp"
#include "lut/tables.h"

namespace lut_test {

using vktest::TempDir;
namespace {

void ExpectFileError(const std::string& path, const std::string& message) {
  lut::Table table;
  std::string error;
  fail_if(lut::read_table(path, table, error), "accepted %s", path.c_str());
  fail_unless(error == message, "error '%s', expected '%s'", error.c_str(), message.c_str());
}

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
  fail_unless(t.rgbx.size() == 32);
  // Red fastest: entry 1 is (r=1, g=0, b=0), entry 2 (0, 1, 0), entry 4 (0, 0, 1).
  fail_unless(t.rgbx[4] == 1 && t.rgbx[5] == 0 && t.rgbx[9] == 1 && t.rgbx[18] == 1 && t.rgbx[28] == 1);
  for (size_t i = 0; i < 8; ++i) fail_unless(t.rgbx[i * 4 + 3] == 0);
  fail_unless(t.domain_min == (std::array<float, 3>{0, 0, 0}) &&
              t.domain_max == (std::array<float, 3>{1, 1, 1}));
}
GST_END_TEST;

GST_START_TEST(test_cube_1d_domain_and_line_endings) {
  const lut::Table t = Parse(
      "TITLE plain words\r\nLUT_1D_SIZE 3\r\nDOMAIN_MIN -0.5 0 0.25\r\nDOMAIN_MAX 1.5 2 0.75\r\n"
      "0 0 0\r\n-0.25 0.5 1.25\r\n1 1 1");
  fail_unless(t.dimensions == lut::Dimensions::k1D && t.size == 3 && t.rgbx.size() == 12);
  fail_unless(t.title == "plain words", "title '%s'", t.title.c_str());
  fail_unless(t.domain_min == (std::array<float, 3>{-0.5f, 0, 0.25f}));
  fail_unless(t.domain_max == (std::array<float, 3>{1.5f, 2, 0.75f}));
  fail_unless(t.rgbx[4] == -0.25f && t.rgbx[6] == 1.25f);
  const lut::Table r = Parse("LUT_3D_INPUT_RANGE 0 4\r" + Rows(0) +
                             "LUT_3D_SIZE 2\r0 0 0\r0 0 0\r0 0 0\r0 0 0\r"
                             "0 0 0\r0 0 0\r0 0 0\r0 0 0\r");
  fail_unless(r.domain_max == (std::array<float, 3>{4, 4, 4}) && r.size == 2);
}
GST_END_TEST;

GST_START_TEST(test_cube_sizes) {
  fail_unless(Parse("LUT_1D_SIZE 65536\n" + Rows(65536)).size == 65536);
  fail_unless(Parse("LUT_3D_SIZE 65\n" + Rows(65 * 65 * 65)).rgbx.size() == 65u * 65 * 65 * 4);
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

  // Only regular files are read: not a directory, a device, a FIFO (whose open would wait for a
  // writer), nor a symlink to one; a symlink to a regular file is.
  const std::string directory = dir.Path("dir.cube");
  g_mkdir(directory.c_str(), 0700);
  ExpectFileError(directory, directory + " is not a regular file (a directory)");
  g_rmdir(directory.c_str());
  const std::string zero = dir.Path("zero.cube");
  fail_unless(symlink("/dev/zero", zero.c_str()) == 0);
  ExpectFileError(zero, zero + " is not a regular file (a character device)");
  const std::string fifo = dir.Path("fifo.png");
  fail_unless(mkfifo(fifo.c_str(), 0600) == 0);
  ExpectFileError(fifo, fifo + " is not a regular file (a FIFO)");
  const std::string link = dir.Path("link.cube");
  fail_unless(symlink(cube.c_str(), link.c_str()) == 0);
  fail_unless(lut::read_table(link, table, error), "%s", error.c_str());
}
GST_END_TEST;

// Read from a file line by line, a .cube gives what its text gives, whatever its line ends.
GST_START_TEST(test_cube_file_lines) {
  TempDir dir;
  const std::string body = "TITLE \"t\"\n\nLUT_1D_SIZE 3\n# c\n0 0 0\n0.5 0.25 1\n1 1 1";
  for (const char* end : {"\n", "\r\n", "\r"}) {
    std::string text;
    for (char c : body) text += c == '\n' ? std::string(end) : std::string(1, c);
    for (const std::string& last : {std::string(), std::string(end)}) {
      const lut::Table want = Parse(text + last);
      lut::Table got;
      std::string error;
      fail_unless(lut::read_table(dir.Write("t.cube", text + last), got, error), "%s", error.c_str());
      fail_unless(got.rgbx == want.rgbx && got.size == 3 && got.title == "t", "line end %x", end[0]);
    }
  }
  const std::string mixed = "LUT_1D_SIZE 2\r0 0 0\r\r\n1 1\r";
  ExpectFileError(dir.Write("mixed.cube", mixed),
                  "line 4 of " + dir.Path("mixed.cube") + ": 2 values, a table row needs 3");
  ExpectCubeError(mixed, "line 4 of t.cube: 2 values, a table row needs 3");
}
GST_END_TEST;

// What a .cube may hold bounds what is read: the largest table's rows, then the declared table's,
// and the length of a line.
GST_START_TEST(test_cube_limits) {
  TempDir dir;
  const std::string sparse = dir.Path("sparse.cube");
  const int fd = open(sparse.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  fail_unless(fd >= 0 && ftruncate(fd, off_t(lut::max_cube_bytes(256 * 256 * 256)) + 1) == 0);
  close(fd);
  ExpectFileError(sparse, sparse +
                              " is 1611661313 bytes, more than a .cube file can hold (at most 1611661312: "
                              "16777216 rows of at most 96 bytes and 1048576 of keywords and comments)");
  const std::string big =
      dir.Write("big.cube", "LUT_1D_SIZE 4\n" + std::string(lut::max_cube_bytes(4), '\n'));
  ExpectFileError(
      big, big +
               " is 1048974 bytes, more than LUT_1D_SIZE 4 at line 1 can hold (at most 1048960: 4 rows "
               "of at most 96 bytes and 1048576 of keywords and comments)");
  // At the limit: read (and refused only for what it holds).
  const std::string full = dir.Write(
      "full.cube", "LUT_1D_SIZE 2\n0 0 0\n1 1 1\n" + std::string(lut::max_cube_bytes(2) - 26, '\n'));
  lut::Table table;
  std::string error;
  fail_unless(lut::read_table(full, table, error), "%s", error.c_str());
  const std::string line = "# " + std::string(lut::kMaxCubeLineBytes - 2, 'x');
  ExpectFileError(dir.Write("line.cube", "LUT_1D_SIZE 2\n" + line + "x\n"),
                  "line 2 of " + dir.Path("line.cube") + ": longer than 4096 bytes");
  ExpectCubeError("LUT_1D_SIZE 2\n" + line + "x\n", "line 2 of t.cube: longer than 4096 bytes");
  fail_unless(Parse("LUT_1D_SIZE 2\n" + line + "\n0 0 0\n1 1 1\n").size == 2);
  fail_unless(
      lut::read_table(dir.Write("ok.cube", "LUT_1D_SIZE 2\n" + line + "\r\n0 0 0\n1 1 1"), table, error),
      "%s", error.c_str());
}
GST_END_TEST;

// PNG headers are checked against the kinds accepted and the file's size before decoding.
GST_START_TEST(test_png_headers) {
  TempDir dir;
  const std::string huge = dir.Write("huge.png", PngWithHeader(8192, 8192, 55));
  ExpectFileError(huge,
                  huge +
                      " is 8192x8192: a HALD CLUT of level L must be L³xL³ pixels (8x8, 27x27, 64x64, ... "
                      "4096x4096 for L = 2..16)");
  const std::string lie = dir.Write("lie.png", PngWithHeader(4096, 4096, 55));
  ExpectFileError(
      lie, lie + " is 100 bytes: too short for the 4096x4096 image its header declares (at least 48774)");
  const std::string look = dir.Write("look.png", PngWithHeader(512, 512, 55));
  ExpectFileError(look,
                  look + " is 100 bytes: too short for the 512x512 image its header declares (at least 762)");
  // A header that fits, and data that is no zlib stream.
  const std::string zeros = dir.Write("zeros.png", PngWithHeader(8, 8, 100));
  lut::Table table;
  std::string error;
  fail_if(lut::read_table(zeros, table, error));
  fail_unless(error.rfind(zeros + " is not a readable PNG: ", 0) == 0, "%s", error.c_str());
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
  fail_unless(std::fabs(t.rgbx[e * 4] - (197 % 256) / 255.f) < 1e-6f, "r %f", t.rgbx[e * 4]);
  fail_unless(std::fabs(t.rgbx[e * 4 + 1] - 135 / 255.f) < 1e-6f, "g %f", t.rgbx[e * 4 + 1]);
  fail_unless(std::fabs(t.rgbx[e * 4 + 2] - 19 / 255.f) < 1e-6f, "b %f", t.rgbx[e * 4 + 2]);
  // Interlaced: the same table.
  const std::string interlaced = dir.Path("interlaced.png");
  WritePng(interlaced, 512, 512, 8, rgb, true);
  lut::Table i;
  fail_unless(lut::read_table(interlaced, i, error), "%s", error.c_str());
  fail_unless(i.source == lut::Source::kLookupImage && i.rgbx == t.rgbx);
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
  fail_unless(t.source == lut::Source::kHald && t.size == 9 && t.rgbx.size() == 729 * 4);
  for (size_t i = 0; i < 729; ++i)
    for (int c = 0; c < 3; ++c)
      fail_unless(std::fabs(t.rgbx[i * 4 + c] - cube.entries[i][c]) < 1e-6, "entry %zu channel %d", i, c);
  // Interlaced, 8-bit: the same table as the same pixels not interlaced.
  const std::string plain8 = dir.Path("plain8.png"), interlaced8 = dir.Path("interlaced8.png");
  WriteRandomHald(plain8, 3, rng, 8);
  const std::vector<uint8_t> pixels = ReadPngRgb8(plain8);
  WritePng(interlaced8, 27, 27, 8, std::vector<uint16_t>(pixels.begin(), pixels.end()), true);
  lut::Table plain, interlaced;
  fail_unless(lut::read_table(plain8, plain, error) && lut::read_table(interlaced8, interlaced, error), "%s",
              error.c_str());
  fail_unless(interlaced.source == lut::Source::kHald && interlaced.size == 9 &&
              interlaced.rgbx == plain.rgbx);
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

// png-kind: auto decides a 512x512 image by its name, an explicit kind decides it whatever the
// name, and an explicit kind the size does not fit is refused naming the file and its size.
GST_START_TEST(test_png_kind) {
  TempDir dir;
  std::mt19937 rng(11);
  std::string error;
  // A HALD of level 8 under a name without "hald".
  const std::string plain = dir.Path("grade8.png");
  const lut_ref::Cube cube = WriteRandomHald(plain, 8, rng);
  lut::Table t;
  fail_unless(lut::read_table(plain, t, error), "%s", error.c_str());
  fail_unless(t.source == lut::Source::kLookupImage && t.size == 64, "auto: not read as a lookup image");
  const std::vector<float> as_lookup = t.rgbx;
  fail_unless(lut::read_table(plain, t, error, lut::PngKind::kLookupImage), "%s", error.c_str());
  fail_unless(t.source == lut::Source::kLookupImage && t.rgbx == as_lookup, "lookup: not the auto reading");
  fail_unless(lut::read_table(plain, t, error, lut::PngKind::kHald), "%s", error.c_str());
  fail_unless(t.source == lut::Source::kHald && t.size == 64 && t.rgbx.size() == cube.entries.size() * 4,
              "hald: source %d size %u", int(t.source), t.size);
  for (size_t i = 0; i < cube.entries.size(); ++i)
    for (int c = 0; c < 3; ++c)
      fail_unless(std::fabs(t.rgbx[i * 4 + c] - cube.entries[i][c]) < 1e-6, "entry %zu channel %d", i, c);
  fail_if(t.rgbx == as_lookup, "the two readings of a random HALD are the same table");
  // The same pixels under a name with "hald": auto reads a HALD, lookup a lookup image.
  const std::string named = dir.Path("grade_Hald8.png");
  WriteRandomHald(named, 8, rng);
  fail_unless(lut::read_table(named, t, error), "%s", error.c_str());
  fail_unless(t.source == lut::Source::kHald && t.size == 64, "auto on a 'hald' name: not a HALD");
  fail_unless(lut::read_table(named, t, error, lut::PngKind::kLookupImage), "%s", error.c_str());
  fail_unless(t.source == lut::Source::kLookupImage && t.size == 64, "lookup on a 'hald' name: not a lookup");
  // Other HALD sizes: auto and hald read them, lookup refuses them.
  const std::string level4 = dir.Path("grade4.png");
  WriteRandomHald(level4, 4, rng);
  for (lut::PngKind kind : {lut::PngKind::kAuto, lut::PngKind::kHald}) {
    fail_unless(lut::read_table(level4, t, error, kind), "%s", error.c_str());
    fail_unless(t.source == lut::Source::kHald && t.size == 16);
  }
  fail_if(lut::read_table(level4, t, error, lut::PngKind::kLookupImage), "lookup accepted a 64x64 image");
  fail_unless(error == level4 + " is 64x64: a GPUImage lookup image must be 512x512 pixels", "%s",
              error.c_str());
  // Sizes no kind fits.
  const std::string wide = dir.Path("wide.png");
  WritePng(wide, 512, 256, 8, std::vector<uint16_t>(512 * 256 * 3));
  fail_if(lut::read_table(wide, t, error, lut::PngKind::kLookupImage));
  fail_unless(error == wide + " is 512x256: a GPUImage lookup image must be 512x512 pixels", "%s",
              error.c_str());
  fail_if(lut::read_table(wide, t, error, lut::PngKind::kHald));
  fail_unless(error.find(wide + " is 512x256: a HALD CLUT of level L must be L³xL³ pixels") == 0, "%s",
              error.c_str());
  // A .cube ignores the kind.
  const std::string cube_path = dir.Write("t.cube", CubeText(IdentityCube(2)));
  fail_unless(lut::read_table(cube_path, t, error, lut::PngKind::kLookupImage), "%s", error.c_str());
  fail_unless(t.source == lut::Source::kCube && t.size == 2);
  // Which paths the kind matters for.
  fail_unless(lut::is_png_path("/luts/look.png") && lut::is_png_path("LOOK.PNG") &&
              lut::is_png_path("a.b.Png"));
  fail_if(lut::is_png_path("/luts/look.cube") || lut::is_png_path("/luts.png/look") ||
          lut::is_png_path("png") || lut::is_png_path(""));
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
  tcase_add_test(tc, lut_test::test_cube_file_lines);
  tcase_add_test(tc, lut_test::test_cube_limits);
  tcase_add_test(tc, lut_test::test_png_headers);
  tcase_add_test(tc, lut_test::test_png_lookup_image);
  tcase_add_test(tc, lut_test::test_png_hald);
  tcase_add_test(tc, lut_test::test_png_kind);
  tcase_add_test(tc, lut_test::test_png_truncated);
  suite_add_tcase(suite, tc);
  return suite;
}

GST_CHECK_MAIN(lut_readers);
