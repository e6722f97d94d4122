// Files the element must refuse at once, without blocking or reading without end: what is not a
// regular file (directories, devices, FIFOs, symlinks to them), files larger than their format can
// hold, and PNG headers that lie. Each is an element error naming the file, within 10 s (it is
// immediate; the bound only keeps a regression from hanging the suite) and with the process's
// peak memory under 100 MB above what it was.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "bad_files.h"
#include "common/temp_dir.h"
#include "common/vktest.h"
#include "frames.h"
#include "lut_stream.h"
#include "tables.h"
#include "tcases.h"

namespace lut_test {

using vktest::TempDir;
namespace {

constexpr size_t kMemoryBound = 100u << 20;

const char kHaldSizes[] =
    ": a HALD CLUT of level L must be L³xL³ pixels (8x8, 27x27, 64x64, ... 4096x4096 for L = 2..16)";

void ExpectRefused(const std::string& location, const std::string& message) {
  PeakMemory memory;
  const std::string error = StartErrorMessage(location);
  fail_unless(message == error, "%s: error '%s', expected '%s'", location.c_str(), error.c_str(),
              message.c_str());
  fail_unless(memory.GrowthBytes() < kMemoryBound, "%s: peak memory rose by %zu MB", location.c_str(),
              memory.GrowthBytes() >> 20);
}

std::string Symlink(const TempDir& dir, const std::string& name, const std::string& target) {
  const std::string path = dir.Path(name);
  fail_unless(symlink(target.c_str(), path.c_str()) == 0, "cannot link %s", path.c_str());
  return path;
}

std::string Fifo(const TempDir& dir, const std::string& name) {
  const std::string path = dir.Path(name);
  fail_unless(mkfifo(path.c_str(), 0600) == 0, "cannot make the FIFO %s", path.c_str());
  return path;
}

GST_START_TEST(test_not_regular_files) {
  TempDir dir;
  const std::string directory = dir.Path("dir.cube");
  fail_unless(mkdir(directory.c_str(), 0700) == 0);
  ExpectRefused(directory, directory + " is not a regular file (a directory)");
  for (const char* name : {"zero.cube", "zero.png", "zero_hald.png"}) {
    const std::string link = Symlink(dir, name, "/dev/zero");
    ExpectRefused(link, link + " is not a regular file (a character device)");
  }
  // A symlink to a regular file is read.
  const std::string table = dir.Write("t.cube", CubeText(IdentityCube(2)));
  const std::string link = Symlink(dir, "link.cube", table);
  ExpectRefused(dir.Path("missing.cube"),
                "cannot open " + dir.Path("missing.cube") + ": No such file or directory");
  LutStream stream({link});
  std::mt19937 rng(1);
  stream.Push(RandomFrame(GST_VIDEO_FORMAT_RGBA, 4, 2, rng));
  fail_unless(stream.Finish().size() == 1);
}
GST_END_TEST;

// Opening a FIFO for reading waits for a writer: the element must not.
GST_START_TEST(test_fifo_at_start) {
  TempDir dir;
  for (const char* name : {"fifo.cube", "fifo.png"}) {
    const std::string fifo = Fifo(dir, name);
    FifoWatchdog watchdog(fifo, 10);
    ExpectRefused(fifo, fifo + " is not a regular file (a FIFO)");
    fail_if(watchdog.Fired(), "the element blocked opening %s", fifo.c_str());
  }
}
GST_END_TEST;

// Set while PLAYING, on the application's thread: a warning at once, the old table stays.
GST_START_TEST(test_fifo_while_playing) {
  TempDir dir;
  std::mt19937 rng(2);
  LutStream stream({dir.Write("t.cube", CubeText(IdentityCube(2)))});
  stream.Push(RandomFrame(GST_VIDEO_FORMAT_RGBA, 4, 2, rng));
  const std::string fifo = Fifo(dir, "fifo.cube");
  {
    FifoWatchdog watchdog(fifo, 10);
    g_object_set(stream.element(), "location", fifo.c_str(), nullptr);
    fail_if(watchdog.Fired(), "setting location blocked on %s", fifo.c_str());
  }
  GstMessage* warning = stream.PopMessage(GST_MESSAGE_WARNING);
  fail_unless(warning != nullptr, "no warning for a FIFO while playing");
  GError* error = nullptr;
  gst_message_parse_warning(warning, &error, nullptr);
  const std::string want = fifo + " is not a regular file (a FIFO); the previous table stays in use";
  fail_unless(error->domain == GST_RESOURCE_ERROR && want == error->message, "warning '%s', expected '%s'",
              error->message, want.c_str());
  g_error_free(error);
  gst_message_unref(warning);
  stream.Push(RandomFrame(GST_VIDEO_FORMAT_RGBA, 4, 2, rng));
  fail_unless(stream.Finish().size() == 2);
}
GST_END_TEST;

// .cube files larger than their table can be are refused by their size, before reading.
GST_START_TEST(test_oversized_cube) {
  TempDir dir;
  // 2 GiB, sparse: no disk used, and reading it would take minutes.
  const std::string sparse = dir.Path("sparse.cube");
  const int fd = open(sparse.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  fail_unless(fd >= 0 && ftruncate(fd, off_t(2) << 30) == 0, "cannot make %s", sparse.c_str());
  close(fd);
  ExpectRefused(sparse, sparse +
                            " is 2147483648 bytes, more than a .cube file can hold (at most 1611661312: "
                            "16777216 rows of at most 96 bytes and 1048576 of keywords and comments)");
  // More rows than declared: a few are an error at the first one too many; many, by the size.
  auto rows = [](int n) {
    std::string text;
    for (int i = 0; i < n; ++i) text += "0 0 0\n";
    return text;
  };
  const std::string extra = dir.Write("extra.cube", "LUT_3D_SIZE 2\n" + rows(9));
  ExpectRefused(extra, "line 10 of " + extra + ": table row 9, but LUT_3D_SIZE 2 has 8 rows");
  const std::string many = dir.Write("many.cube", "LUT_3D_SIZE 2\n" + rows(200000));
  ExpectRefused(many,
                many +
                    " is 1200014 bytes, more than LUT_3D_SIZE 2 at line 1 can hold (at most 1049344: 8 rows "
                    "of at most 96 bytes and 1048576 of keywords and comments)");
  const std::string line = dir.Write("line.cube", "LUT_3D_SIZE 2\n# " + std::string(1 << 20, 'x') + "\n");
  ExpectRefused(line, "line 2 of " + line + ": longer than 4096 bytes");
}
GST_END_TEST;

// PNG dimensions are checked against the kinds accepted, and against the file's size, before
// anything is allocated.
GST_START_TEST(test_png_headers) {
  TempDir dir;
  const std::string huge = dir.Write("huge.png", PngWithHeader(8192, 8192, 55));
  ExpectRefused(huge, huge + " is 8192x8192" + kHaldSizes);
  const std::string lie = dir.Write("lie_hald.png", PngWithHeader(4096, 4096, 55));
  ExpectRefused(
      lie, lie + " is 100 bytes: too short for the 4096x4096 image its header declares (at least 48774)");
  const std::string big = dir.Path("big.png");
  WriteBlackPng(big, 6000, 6000);
  ExpectRefused(big, big + " is 6000x6000" + kHaldSizes);
}
GST_END_TEST;

}  // namespace

TCase* FileTCase() {
  TCase* tc = vktest::NewTCase("files", 120);
  tcase_add_test(tc, test_not_regular_files);
  tcase_add_test(tc, test_fifo_at_start);
  tcase_add_test(tc, test_fifo_while_playing);
  tcase_add_test(tc, test_oversized_cube);
  tcase_add_test(tc, test_png_headers);
  return tc;
}

}  // namespace lut_test
