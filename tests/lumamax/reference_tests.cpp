// The CPU reference pinned to hand-computed values: a wrong reference would make every element
// test meaningless, and these need no Vulkan device.
#include <cmath>
#include <vector>

#include "common/analysis/check_test.h"
#include "common/analysis/luma_weights_test.h"
#include "common/vktest.h"
#include "reference/lumamax_ref.h"
#include "tcases.h"

namespace lumamax_test {
namespace {

using lumamax_ref::Params;
using lumamax_ref::Pixel;
using reference::Matrix;

// A GRAY8 view of `width` x rows, tightly packed.
lumamax_ref::View GrayView(const std::vector<uint8_t>& bytes, int width) {
  return lumamax_ref::View{GST_VIDEO_FORMAT_GRAY8, width, static_cast<int>(bytes.size()) / width, width,
                           bytes.data()};
}

void ExpectPeaks(const std::vector<Pixel>& got, const std::vector<std::pair<int, int>>& expected,
                 const char* what) {
  bool same = got.size() == expected.size();
  for (size_t i = 0; same && i < got.size(); ++i) {
    same = got[i].x == expected[i].first && got[i].y == expected[i].second;
  }
  std::string text;
  for (const Pixel& p : got) text += "(" + std::to_string(p.x) + "," + std::to_string(p.y) + ")";
  fail_unless(same, "%s: got peaks %s", what, text.c_str());
}

}  // namespace

// One pixel R=10 G=20 B=30 in every RGB layout, the alpha/x byte 99 (ignored):
// bt709 L = 13933*10 + 46871*20 + 4732*30 = 1218710.
GST_START_TEST(test_rgb_layouts) {
  const struct {
    GstVideoFormat format;
    std::vector<uint8_t> bytes;
  } cases[] = {
      {GST_VIDEO_FORMAT_RGB, {10, 20, 30}},      {GST_VIDEO_FORMAT_BGR, {30, 20, 10}},
      {GST_VIDEO_FORMAT_RGBA, {10, 20, 30, 99}}, {GST_VIDEO_FORMAT_BGRA, {30, 20, 10, 99}},
      {GST_VIDEO_FORMAT_ARGB, {99, 10, 20, 30}}, {GST_VIDEO_FORMAT_ABGR, {99, 30, 20, 10}},
      {GST_VIDEO_FORMAT_RGBx, {10, 20, 30, 99}}, {GST_VIDEO_FORMAT_BGRx, {30, 20, 10, 99}},
      {GST_VIDEO_FORMAT_xRGB, {99, 10, 20, 30}}, {GST_VIDEO_FORMAT_xBGR, {99, 30, 20, 10}},
  };
  for (const auto& c : cases) {
    const lumamax_ref::View view{c.format, 1, 1, static_cast<int>(c.bytes.size()), c.bytes.data()};
    const int64_t value = lumamax_ref::LumaValue(view, Matrix::kBt709, 0, 0);
    fail_unless(value == 1218710, "%s: L=%" G_GINT64_FORMAT, gst_video_format_to_string(c.format),
                static_cast<gint64>(value));
  }
  // White is 255 * 65536 under every matrix.
  const std::vector<uint8_t> white = {255, 255, 255};
  const lumamax_ref::View view{GST_VIDEO_FORMAT_RGB, 1, 1, 3, white.data()};
  for (Matrix matrix : {Matrix::kBt601, Matrix::kBt709, Matrix::kBt2020}) {
    fail_unless(lumamax_ref::LumaValue(view, matrix, 0, 0) == 255 * 65536);
    fail_unless(lumamax_ref::LumaOf(lumamax_ref::LumaValue(view, matrix, 0, 0)) == 1.0);
  }
}
GST_END_TEST;

// Y-plane formats: L = Y * 65536 read from plane 0 with its stride, whatever the matrix.
GST_START_TEST(test_y_formats) {
  // Two rows of 3 pixels, stride 5 (the 2 padding bytes must not be read).
  const std::vector<uint8_t> bytes = {1, 2, 3, 255, 255, 77, 5, 6, 255, 255};
  for (GstVideoFormat format :
       {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_Y444}) {
    const lumamax_ref::View view{format, 3, 2, 5, bytes.data()};
    fail_unless(lumamax_ref::LumaValue(view, Matrix::kBt601, 0, 1) == 77 * 65536);
    Params params;
    const auto result = lumamax_ref::Analyze(view, params);
    fail_unless(result.has_value());
    fail_unless(result->max.x == 0 && result->max.y == 1, "%s: max at (%d,%d)",
                gst_video_format_to_string(format), result->max.x, result->max.y);
    fail_unless(result->min.x == 0 && result->min.y == 0);
    fail_unless(std::fabs(result->max.luma - 77.0 / 255.0) < 1e-12);
  }
}
GST_END_TEST;

// Ties go to the first pixel in raster order (row first), for max and min alike.
GST_START_TEST(test_ties_and_mean) {
  const std::vector<uint8_t> bytes = {5, 9, 9,  //
                                      9, 1, 1};
  const auto result = lumamax_ref::Analyze(GrayView(bytes, 3), Params{});
  fail_unless(result.has_value());
  fail_unless(result->max.x == 1 && result->max.y == 0, "max at (%d,%d)", result->max.x, result->max.y);
  fail_unless(result->min.x == 1 && result->min.y == 1, "min at (%d,%d)", result->min.x, result->min.y);
  fail_unless(std::fabs(result->mean_luma - 34.0 / (6 * 255.0)) < 1e-12, "mean %f", result->mean_luma);
  ExpectPeaks(result->peaks, {{1, 0}}, "count=1");
}
GST_END_TEST;

GST_START_TEST(test_roi_clamping) {
  const struct {
    reference::Roi roi;
    int x0, y0, x1, y1;
    bool empty;
  } cases[] = {
      {{3, 2, 4, 5}, 3, 2, 7, 7, false},           // inside
      {{8, 6, 100, 100}, 8, 6, 10, 8, false},      // clamped at the right and bottom edges
      {{2, 2, 0, 0}, 2, 2, 10, 8, false},          // 0 = up to the edge
      {{9, 7, 1, 1}, 9, 7, 10, 8, false},          // the last pixel
      {{5, 0, G_MAXUINT, 0}, 5, 0, 10, 8, false},  // x + width overflows 32 bits
      {{10, 0, 0, 0}, 10, 0, 10, 8, true},         // starts at the right edge
      {{0, 8, 0, 5}, 0, 8, 10, 8, true},           // starts below the frame
  };
  for (const auto& c : cases) {
    const reference::Rect rect = reference::ClampRoi(c.roi, 10, 8);
    fail_unless(
        rect.x0 == c.x0 && rect.y0 == c.y0 && rect.x1 == c.x1 && rect.y1 == c.y1 && rect.Empty() == c.empty,
        "roi %u,%u %ux%u: got [%d,%d)x[%d,%d)", c.roi.x, c.roi.y, c.roi.width, c.roi.height, rect.x0, rect.x1,
        rect.y0, rect.y1);
  }
  const std::vector<uint8_t> bytes(80, 7);
  Params params;
  params.roi = {10, 0, 0, 0};
  fail_if(lumamax_ref::Analyze(GrayView(bytes, 10), params).has_value(), "empty ROI analysed");
  // Results are in frame coordinates.
  params.roi = {4, 3, 2, 2};
  const auto result = lumamax_ref::Analyze(GrayView(bytes, 10), params);
  fail_unless(result && result->max.x == 4 && result->max.y == 3 && result->min.x == 4);
}
GST_END_TEST;

// Greedy selection by L descending, ties in raster order, distance check against every accepted
// peak with d^2 >= max(min-distance, 1)^2.
GST_START_TEST(test_greedy_peaks) {
  // One row; sorted: x=1 (90), x=3 (90), x=6 (85), x=2 (80), x=5 (70), x=0, x=7, x=4.
  const std::vector<uint8_t> row = {50, 90, 80, 90, 10, 70, 85, 20};
  Params params;
  params.count = 3;
  ExpectPeaks(lumamax_ref::Analyze(GrayView(row, 8), params)->peaks, {{1, 0}, {3, 0}, {6, 0}},
              "count=3 min-distance=0");
  params.count = 8;
  params.min_distance = 1;  // any distinct pixels: all of them, in sorted order
  ExpectPeaks(lumamax_ref::Analyze(GrayView(row, 8), params)->peaks,
              {{1, 0}, {3, 0}, {6, 0}, {2, 0}, {5, 0}, {0, 0}, {7, 0}, {4, 0}}, "count=8 min-distance=1");
  params.min_distance = 2;  // |dx| >= 2: x=3 is exactly far enough from x=1
  ExpectPeaks(lumamax_ref::Analyze(GrayView(row, 8), params)->peaks, {{1, 0}, {3, 0}, {6, 0}},
              "count=8 min-distance=2");
  params.min_distance = 3;  // x=4 is 3 from x=1 but 2 from x=6
  ExpectPeaks(lumamax_ref::Analyze(GrayView(row, 8), params)->peaks, {{1, 0}, {6, 0}},
              "count=8 min-distance=3");

  // Euclidean distance: corners of a 3x3 image are 2 apart along edges, sqrt(8) diagonally.
  const std::vector<uint8_t> square = {200, 0,   170,  //
                                       0,   190, 0,    //
                                       0,   0,   180};
  params.count = 10;
  params.min_distance = 2;
  ExpectPeaks(lumamax_ref::Analyze(GrayView(square, 3), params)->peaks, {{0, 0}, {2, 2}, {2, 0}, {0, 2}},
              "3x3 min-distance=2");
  params.min_distance = 3;
  ExpectPeaks(lumamax_ref::Analyze(GrayView(square, 3), params)->peaks, {{0, 0}}, "3x3 min-distance=3");
}
GST_END_TEST;

// peak-threshold drops the chosen peaks whose luma is below it (equal luma stays), and only them:
// the selection is the same, the maximum and minimum are reported whatever it is.
GST_START_TEST(test_peak_threshold) {
  // One row; sorted: x=1 (90), x=3 (90), x=6 (85), x=2 (80), x=5 (70), x=0, x=7, x=4.
  const std::vector<uint8_t> row = {50, 90, 80, 90, 10, 70, 85, 20};
  Params params;
  params.count = 8;
  params.min_distance = 1;
  params.peak_threshold = 85.0 / 255.0;
  auto result = lumamax_ref::Analyze(GrayView(row, 8), params);
  ExpectPeaks(result->peaks, {{1, 0}, {3, 0}, {6, 0}}, "threshold 85/255");
  params.peak_threshold = std::nextafter(85.0 / 255.0, 1.0);
  ExpectPeaks(lumamax_ref::Analyze(GrayView(row, 8), params)->peaks, {{1, 0}, {3, 0}},
              "threshold above 85/255");
  params.peak_threshold = 10.0 / 255.0;
  ExpectPeaks(lumamax_ref::Analyze(GrayView(row, 8), params)->peaks,
              {{1, 0}, {3, 0}, {6, 0}, {2, 0}, {5, 0}, {0, 0}, {7, 0}, {4, 0}}, "threshold 10/255");
  // min-distance 3 chooses x=1 and x=6; a threshold between them leaves x=1 alone (x=3, brighter
  // than x=6, does not come back).
  params.min_distance = 3;
  params.peak_threshold = 0.34;
  ExpectPeaks(lumamax_ref::Analyze(GrayView(row, 8), params)->peaks, {{1, 0}},
              "min-distance 3 threshold 0.34");
  params.peak_threshold = 1.0;
  result = lumamax_ref::Analyze(GrayView(row, 8), params);
  ExpectPeaks(result->peaks, {}, "threshold 1");
  fail_unless(result->max.x == 1 && result->min.x == 4, "max and min must not depend on the threshold");
  // White passes 1.0.
  const std::vector<uint8_t> white = {255, 3};
  ExpectPeaks(lumamax_ref::Analyze(GrayView(white, 2), params)->peaks, {{0, 0}}, "white at threshold 1");
}
GST_END_TEST;

TCase* ReferenceTCase() {
  TCase* tcase = tcase_create("reference");
  analysis_test::AddCheckTest<analysis_test::LumaWeightsTest>(tcase);
  tcase_add_test(tcase, test_rgb_layouts);
  tcase_add_test(tcase, test_y_formats);
  tcase_add_test(tcase, test_ties_and_mean);
  tcase_add_test(tcase, test_roi_clamping);
  tcase_add_test(tcase, test_greedy_peaks);
  tcase_add_test(tcase, test_peak_threshold);
  return tcase;
}

}  // namespace lumamax_test
