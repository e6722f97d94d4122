// Every element at odd frame sizes (widths 1, 2, 3, 5 and 97) in every format family its pads
// take, with the settings that run its other kernels, through whole pipelines. meson runs it with
// the validation layer's GPU-assisted checks on (test_gpu_assisted_<element>, one case each): a
// kernel that reads or writes outside a bound buffer, which the element's own suites cannot see
// when the bytes happen to come out right, fails the test as a validation error.
#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>

#include <unistd.h>

#include <string>
#include <vector>

#include "common/bus_wait.h"
#include "common/test_data.h"
#include "common/vktest.h"

namespace {

constexpr GstClockTime kTimeout = 120 * GST_SECOND;

struct Size {
  int width, height;
};
// Widths around the kernels' 4-pixel words, the 2x2 chroma blocks and a size with no round factor.
const std::vector<Size> kSizes = {{1, 1}, {2, 3}, {3, 5}, {5, 2}, {97, 61}};

// One element configuration: input format, the element with its properties, output format (empty:
// the same caps as the input).
struct Case {
  const char* in;
  std::string element;
  const char* out;
};

// Frames in our device memory (after morph), at the widths where a 16-byte load passes the end of
// a row or the buffer: fewer sizes, as each such pipeline takes seconds under GStreamer 1.26's
// layer (CI's time).
const std::vector<Size> kDeviceMemorySizes = {{1, 1}, {3, 5}, {97, 61}};

// Runs two frames of each size of `sizes` through `c`; any error, or any validation message, fails.
void RunCase(const Case& c, const std::vector<Size>& sizes = kSizes) {
  for (const Size& size : sizes) {
    const std::string caps = "video/x-raw,width=" + std::to_string(size.width) +
                             ",height=" + std::to_string(size.height) + ",framerate=30/1";
    std::string description =
        "videotestsrc num-buffers=2 pattern=ball ! " + caps + ",format=" + c.in + " ! " + c.element + " ! ";
    if (*c.out) description += std::string("video/x-raw,format=") + c.out + " ! ";
    description += "fakesink";
    vktest::RunToEos(description, kTimeout);
    vktest::AssertNoValidationErrors(description);
  }
}

// One format of each family the analysis elements and morph take: packed RGB of 3 and 4 bytes,
// grey, and planar, semi-planar and unsubsampled YUV. (Byte orders within a family differ only in
// a push constant.)
const char* const kFamilies[] = {"RGB", "xBGR", "GRAY8", "I420", "NV12", "Y444"};
// The analysis elements' formats deeper than 8 bits, one of each layout: 16-bit words with the
// value high (P010) or low (I420_10LE), 16-bit gray, 8-byte RGBA64 and 10-bit RGB in a word.
const char* const kDeepFamilies[] = {"P010_10LE", "I420_10LE", "GRAY16_LE", "RGBA64_LE", "BGR10A2_LE"};

// A 3x3x3 identity .cube in a temporary file, removed at exit of the test process.
std::string CubeFile() {
  gchar* path = nullptr;
  const int fd = g_file_open_tmp("vkcompute-XXXXXX.cube", &path, nullptr);
  fail_unless(fd >= 0, "cannot create a temporary .cube file");
  std::string text = "LUT_3D_SIZE 3\n";
  for (int b = 0; b < 3; ++b)
    for (int g = 0; g < 3; ++g)
      for (int r = 0; r < 3; ++r)
        text +=
            std::to_string(r / 2.0) + " " + std::to_string(g / 2.0) + " " + std::to_string(b / 2.0) + "\n";
  fail_unless(write(fd, text.data(), text.size()) == ssize_t(text.size()));
  close(fd);
  std::string result = path;
  g_free(path);
  return result;
}

}  // namespace

GST_START_TEST(test_rgb2yuv_odd_sizes) {
  // Every output format once, from 3- and 4-byte inputs of several byte orders.
  const Case cases[] = {
      {"RGB", "rgb2yuv", "I420"},
      {"BGRx", "rgb2yuv", "YV12"},
      {"RGBA", "rgb2yuv", "NV12"},
      {"xBGR", "rgb2yuv", "NV21"},
      {"BGR", "rgb2yuv", "Y42B"},
      {"ARGB", "rgb2yuv", "Y444"},
      {"RGB", "rgb2yuv", "YUY2"},
      {"BGRA", "rgb2yuv", "UYVY"},
      {"xRGB", "rgb2yuv", "AYUV"},
      // Deeper than 8 bits on either side: 8-byte and 10-bit packed input, 16-bit words out.
      {"RGBA64_LE", "rgb2yuv", "P010_10LE"},
      {"BGR10A2_LE", "rgb2yuv", "I422_10LE"},
      {"RGB", "rgb2yuv", "Y444_16LE"},
  };
  for (const Case& c : cases) RunCase(c);
  // Frames in our device memory, laid out by morph (its 1x1 dilation is the identity): 16-byte loads
  // up to the end of such a buffer, at pixels of 3, 4 and 8 bytes.
  const std::string after_peer =
      "morph operation=dilate width=1 height=1 ! video/x-raw(memory:VkComputeDevice) ! rgb2yuv";
  for (const Case& c : {Case{"RGB", after_peer, "I420"}, Case{"RGBA", after_peer, "NV12"},
                        Case{"RGBA64_LE", after_peer, "P010_10LE"}})
    RunCase(c, kDeviceMemorySizes);
}
GST_END_TEST;

// Every family with the default settings and with the other kernels' settings.
GST_START_TEST(test_lumamax_odd_sizes) {
  for (const char* format : kFamilies) {
    RunCase({format, "lumamax", ""});
    RunCase({format, "lumamax count=3 min-distance=2", ""});  // the peak chain's kernels
  }
  for (const char* format : kDeepFamilies) RunCase({format, "lumamax count=3 min-distance=2", ""});
  // The light statistics' kernel: YUV with chroma, 10-bit RGB in a word (and the frame kernel's
  // 2-byte and packed 4-byte pixels).
  for (const char* format : {"P010_10LE,colorimetry=bt2100-pq", "BGR10A2_LE,colorimetry=bt2100-hlg"})
    RunCase({format, "lumamax", ""});
  // Frames in our device memory, laid out by morph: the frame kernel's 16-byte loads up to the end
  // of such a buffer, at pixels of 1, 2 and 4 bytes.
  for (const char* format : {"GRAY8", "P010_10LE", "RGBA"})
    RunCase({format,
             "morph operation=dilate width=3 height=3 ! video/x-raw(memory:VkComputeDevice) ! lumamax", ""},
            kDeviceMemorySizes);
}
GST_END_TEST;

GST_START_TEST(test_histogram_odd_sizes) {
  for (const char* format : kFamilies) {
    RunCase({format, "histogram bins=64", ""});
    RunCase({format, "histogram draw=true", ""});
  }
  // Drawing, and 1 024 bins: shared-memory histograms for YUV planes, the frame's counts for RGB.
  for (const char* format : kDeepFamilies) RunCase({format, "histogram draw=true bins=1024", ""});
  // Frames in our device memory, laid out by morph: the 8-bit kernel's 16-byte loads (256 bins) up
  // to the end of such a buffer, at pixels of 1, 2 (NV12's chroma) and 4 bytes.
  for (const char* format : {"GRAY8", "NV12", "RGBA", "BGRx"})
    RunCase({format,
             "morph operation=dilate width=3 height=3 ! video/x-raw(memory:VkComputeDevice) ! histogram", ""},
            kDeviceMemorySizes);
}
GST_END_TEST;

// The formats differ in how frames are unpacked and packed, the shapes in the filtering kernels:
// every format with a rectangle, every shape with one and with four bytes per pixel.
GST_START_TEST(test_morph_odd_sizes) {
  for (const char* format : {"GRAY8", "GRAY16_LE", "RGB", "xBGR", "I420", "NV12", "Y444", "P010_10LE",
                             "I420_10LE", "RGBA64_LE", "BGR10A2_LE"})
    RunCase({format, "morph operation=gradient shape=rect width=3 height=5", ""});
  for (const char* format : {"GRAY8", "RGBA"}) {
    RunCase({format, "morph operation=open shape=ellipse width=5 height=3", ""});
    RunCase({format, "morph operation=tophat shape=cross width=3 height=3", ""});
  }
  // A rectangle's erosion and dilation read a frame in our device memory in place and write the
  // output frame there directly, with their column pass.
  const std::string in_place =
      "morph operation=erode width=9 height=9 ! video/x-raw(memory:VkComputeDevice) ! "
      "morph operation=dilate width=31 height=3 ! video/x-raw(memory:VkComputeDevice) ! lumamax";
  for (const char* format : {"RGBA", "BGR10A2_LE"}) RunCase({format, in_place, ""}, kDeviceMemorySizes);
}
GST_END_TEST;

GST_START_TEST(test_lut_odd_sizes) {
  const std::string cube = CubeFile();
  const std::string png = vktest::TestDataDir() + "/lookup_amatorka.png";
  for (const char* format : {"RGB", "BGRA"}) {
    RunCase({format, "lut interpolation=tetrahedral location=" + cube, ""});
    RunCase({format, "lut interpolation=nearest location=" + cube, ""});
    RunCase({format, "lut location=" + png, ""});  // GPUImage's formula
  }
  for (const char* format : {"RGBA64_LE", "BGR10A2_LE"})
    RunCase({format, "lut interpolation=tetrahedral location=" + cube, ""});
  g_unlink(cube.c_str());
}
GST_END_TEST;

static Suite* odd_sizes_suite() {
  Suite* suite = suite_create("odd_sizes");
  TCase* tcase = vktest::NewTCase("odd_sizes", 600);
  tcase_add_test(tcase, test_rgb2yuv_odd_sizes);
  tcase_add_test(tcase, test_lumamax_odd_sizes);
  tcase_add_test(tcase, test_histogram_odd_sizes);
  tcase_add_test(tcase, test_morph_odd_sizes);
  tcase_add_test(tcase, test_lut_odd_sizes);
  suite_add_tcase(suite, tcase);
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(odd_sizes_suite(), "odd_sizes", __FILE__);
}
