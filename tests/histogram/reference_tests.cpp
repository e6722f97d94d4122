// The CPU reference against values worked out by hand from the specification: a wrong reference
// would make every element comparison meaningless. No element is involved.
#include <numeric>
#include <vector>

#include "common/analysis/check_test.h"
#include "common/analysis/formats.h"
#include "common/analysis/luma_weights_test.h"
#include "common/format_names.h"
#include "common/vktest.h"
#include "reference/histogram_ref.h"
#include "tcases.h"

namespace histogram_test {
namespace {

using analysis_test::kFormats;
using histogram_ref::Channel;
using reference::Matrix;
using vktest::FormatName;

// Tightly packed single-plane view of `bytes` (rows of `width * bytes_per_pixel` bytes).
histogram_ref::FrameView PackedView(GstVideoFormat format, int width, int height, int bytes_per_pixel,
                                    const std::vector<uint8_t>& bytes) {
  return histogram_ref::FrameView{format, width, height, {bytes.data()}, {width * bytes_per_pixel}};
}

const std::vector<guint64>& Counts(const histogram_ref::Result& result, Channel channel) {
  const histogram_ref::ChannelHistogram* histogram = result.Find(channel);
  fail_unless(histogram != nullptr, "no \"%s\" histogram", histogram_ref::FieldName(channel));
  return histogram->counts;
}

// `counts` holds exactly the given (bin, count) pairs and zeros elsewhere.
void ExpectCounts(const std::vector<guint64>& counts,
                  std::initializer_list<std::pair<guint, guint64>> nonzero, const char* what) {
  std::vector<guint64> expected(counts.size(), 0);
  for (const auto& [bin, count] : nonzero) expected.at(bin) += count;
  for (size_t i = 0; i < counts.size(); ++i) {
    fail_unless(counts[i] == expected[i],
                "%s: bin %zu holds %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT, what, i, counts[i],
                expected[i]);
  }
}

}  // namespace

GST_START_TEST(test_luma_rounds_half_up) {
  for (Matrix matrix : {Matrix::kBt601, Matrix::kBt709, Matrix::kBt2020}) {
    const reference::Weights w = reference::WeightsOf(matrix);
    // Grey is exact under every matrix: the weights sum to 65536.
    for (int v = 0; v < 256; ++v) {
      fail_unless_equals_int(histogram_ref::RgbLuma(w, v, v, v), v);
    }
  }
  // Sums whose fraction is exactly one half, with an even integer part, so that rounding half
  // to even (or truncating) would give one less: e.g. bt601 19595*1 + 38470*53 + 7471*185 =
  // 3440640 = 52.5 * 65536.
  fail_unless_equals_int(histogram_ref::RgbLuma(reference::WeightsOf(Matrix::kBt601), 1, 53, 185), 53);
  fail_unless_equals_int(histogram_ref::RgbLuma(reference::WeightsOf(Matrix::kBt709), 1, 253, 74), 187);
  fail_unless_equals_int(histogram_ref::RgbLuma(reference::WeightsOf(Matrix::kBt2020), 0, 153, 249), 119);
  // (10, 20, 30): 18.150, 18.596 and 17.966 in units of 65536.
  fail_unless_equals_int(histogram_ref::RgbLuma(reference::WeightsOf(Matrix::kBt601), 10, 20, 30), 18);
  fail_unless_equals_int(histogram_ref::RgbLuma(reference::WeightsOf(Matrix::kBt709), 10, 20, 30), 19);
  fail_unless_equals_int(histogram_ref::RgbLuma(reference::WeightsOf(Matrix::kBt2020), 10, 20, 30), 18);
}
GST_END_TEST;

GST_START_TEST(test_bin_of) {
  for (int v = 0; v < 256; ++v) {
    fail_unless_equals_int(histogram_ref::BinOf(v, 256), v);
    fail_unless_equals_int(histogram_ref::BinOf(v, 64), v / 4);
    fail_unless_equals_int(histogram_ref::BinOf(v, 1), 0);
  }
  // bins=10: 25 * 10 / 256 = 0, 26 * 10 / 256 = 1, 128 * 10 / 256 = 5.
  fail_unless_equals_int(histogram_ref::BinOf(25, 10), 0);
  fail_unless_equals_int(histogram_ref::BinOf(26, 10), 1);
  fail_unless_equals_int(histogram_ref::BinOf(128, 10), 5);
  // 255 always lands in the last bin: 255 * b / 256 = b - b / 256.
  for (guint bins = 1; bins <= 256; ++bins) fail_unless_equals_int(histogram_ref::BinOf(255, bins), bins - 1);
}
GST_END_TEST;

GST_START_TEST(test_channels_of_formats) {
  const std::vector<Channel> rgb = {Channel::kRed, Channel::kGreen, Channel::kBlue, Channel::kLuma};
  const std::vector<Channel> rgba = {Channel::kRed, Channel::kGreen, Channel::kBlue, Channel::kLuma,
                                     Channel::kAlpha};
  const std::vector<Channel> yuv = {Channel::kLuma, Channel::kU, Channel::kV};
  for (GstVideoFormat format : kFormats) {
    std::vector<Channel> expected;
    switch (format) {
      case GST_VIDEO_FORMAT_RGBA:
      case GST_VIDEO_FORMAT_BGRA:
      case GST_VIDEO_FORMAT_ARGB:
      case GST_VIDEO_FORMAT_ABGR: expected = rgba; break;
      case GST_VIDEO_FORMAT_GRAY8: expected = {Channel::kLuma}; break;
      case GST_VIDEO_FORMAT_I420:
      case GST_VIDEO_FORMAT_NV12:
      case GST_VIDEO_FORMAT_Y444: expected = yuv; break;
      default: expected = rgb; break;
    }
    fail_unless(histogram_ref::ChannelsOf(format) == expected, "channels of %s", FormatName(format));
  }
}
GST_END_TEST;

GST_START_TEST(test_roi_and_chroma_rects) {
  auto same = [](const reference::Rect& r, int x0, int y0, int x1, int y1) {
    return r.x0 == x0 && r.y0 == y0 && r.x1 == x1 && r.y1 == y1;
  };
  fail_unless(same(reference::ClampRoi({20, 11, 31, 17}, 97, 61), 20, 11, 51, 28));
  fail_unless(same(reference::ClampRoi({40, 30, 0, 0}, 97, 61), 40, 30, 97, 61));
  fail_unless(same(reference::ClampRoi({90, 55, 50, 50}, 97, 61), 90, 55, 97, 61));
  fail_unless(reference::ClampRoi({97, 0, 0, 0}, 97, 61).Empty());
  fail_unless(reference::ClampRoi({0, 5, 0, 0}, 4, 5).Empty());
  fail_unless(same(reference::ClampRoi({G_MAXUINT, 0, G_MAXUINT, 0}, 4, 5), 4, 0, 4, 5));
  // Odd luma edges widen the chroma region to every sample touching the ROI.
  fail_unless(same(histogram_ref::ChromaRect({3, 5, 10, 14}, 2, 2), 1, 2, 5, 7));
  fail_unless(same(histogram_ref::ChromaRect({1, 1, 2, 2}, 2, 2), 0, 0, 1, 1));
  fail_unless(same(histogram_ref::ChromaRect({1, 1, 3, 3}, 2, 2), 0, 0, 2, 2));
  fail_unless(same(histogram_ref::ChromaRect({96, 60, 97, 61}, 2, 2), 48, 30, 49, 31));
  fail_unless(same(histogram_ref::ChromaRect({3, 5, 10, 14}, 1, 1), 3, 5, 10, 14));
}
GST_END_TEST;

// Byte orders of the packed RGB formats, one pixel each (R=1, G=2, B=3, A or x=9).
GST_START_TEST(test_rgb_byte_orders) {
  const struct {
    GstVideoFormat format;
    std::vector<uint8_t> bytes;
    bool alpha;
  } cases[] = {
      {GST_VIDEO_FORMAT_RGB, {1, 2, 3}, false},     {GST_VIDEO_FORMAT_BGR, {3, 2, 1}, false},
      {GST_VIDEO_FORMAT_RGBA, {1, 2, 3, 9}, true},  {GST_VIDEO_FORMAT_BGRA, {3, 2, 1, 9}, true},
      {GST_VIDEO_FORMAT_ARGB, {9, 1, 2, 3}, true},  {GST_VIDEO_FORMAT_ABGR, {9, 3, 2, 1}, true},
      {GST_VIDEO_FORMAT_RGBx, {1, 2, 3, 9}, false}, {GST_VIDEO_FORMAT_BGRx, {3, 2, 1, 9}, false},
      {GST_VIDEO_FORMAT_xRGB, {9, 1, 2, 3}, false}, {GST_VIDEO_FORMAT_xBGR, {9, 3, 2, 1}, false},
  };
  for (const auto& c : cases) {
    const auto result = histogram_ref::Analyze(
        PackedView(c.format, 1, 1, static_cast<int>(c.bytes.size()), c.bytes), histogram_ref::Params{});
    fail_unless(result.has_value());
    ExpectCounts(Counts(*result, Channel::kRed), {{1, 1}}, FormatName(c.format));
    ExpectCounts(Counts(*result, Channel::kGreen), {{2, 1}}, FormatName(c.format));
    ExpectCounts(Counts(*result, Channel::kBlue), {{3, 1}}, FormatName(c.format));
    ExpectCounts(Counts(*result, Channel::kLuma), {{2, 1}}, FormatName(c.format));  // 1.860 (bt709)
    fail_unless((result->Find(Channel::kAlpha) != nullptr) == c.alpha, "%s alpha", FormatName(c.format));
    if (c.alpha) ExpectCounts(Counts(*result, Channel::kAlpha), {{9, 1}}, FormatName(c.format));
  }
}
GST_END_TEST;

// RGBA 2x2 with a row stride of 11, ROI, matrix and bins all mattering.
GST_START_TEST(test_rgba_frame) {
  std::vector<uint8_t> bytes = {
      10,  20,  30, 40, 255, 255, 255, 0,  0xee, 0xee, 0xee,  // row 0, 3 padding bytes
      200, 100, 50, 7,  10,  20,  30,  40, 0xee, 0xee, 0xee,  // row 1
  };
  histogram_ref::FrameView view{GST_VIDEO_FORMAT_RGBA, 2, 2, {bytes.data()}, {11}};
  histogram_ref::Params params;
  params.matrix = Matrix::kBt601;
  auto result = histogram_ref::Analyze(view, params);
  fail_unless(result.has_value() && result->pixels == 4 && result->bins == 256);
  ExpectCounts(Counts(*result, Channel::kRed), {{10, 2}, {255, 1}, {200, 1}}, "red");
  ExpectCounts(Counts(*result, Channel::kAlpha), {{40, 2}, {0, 1}, {7, 1}}, "alpha");
  ExpectCounts(Counts(*result, Channel::kLuma), {{18, 2}, {255, 1}, {124, 1}}, "luma bt601");

  // bins=10 under bt709: luma 19, 255, 118 go to bins 0, 9, 4.
  params.matrix = Matrix::kBt709;
  params.bins = 10;
  result = histogram_ref::Analyze(view, params);
  ExpectCounts(Counts(*result, Channel::kLuma), {{0, 2}, {9, 1}, {4, 1}}, "luma bt709 bins=10");
  ExpectCounts(Counts(*result, Channel::kGreen), {{0, 2}, {9, 1}, {3, 1}}, "green bins=10");

  // The right column only.
  params.roi = reference::Roi{1, 0, 5, 0};
  result = histogram_ref::Analyze(view, params);
  fail_unless(result->pixels == 2);
  ExpectCounts(Counts(*result, Channel::kBlue), {{9, 1}, {1, 1}}, "blue of the right column");
}
GST_END_TEST;

// I420 3x3: Y 3x3, U and V 2x2 each; ROIs pick chroma samples by the rounding rule.
GST_START_TEST(test_i420_chroma_region) {
  const std::vector<uint8_t> y = {0, 1, 2, 10, 11, 12, 20, 21, 22};
  const std::vector<uint8_t> u = {100, 101, 110, 111};
  const std::vector<uint8_t> v = {200, 201, 210, 211};
  const histogram_ref::FrameView view{GST_VIDEO_FORMAT_I420, 3, 3, {y.data(), u.data(), v.data()}, {3, 2, 2}};
  histogram_ref::Params params;
  params.roi = reference::Roi{1, 1, 1, 1};  // pixel (1,1): chroma sample (0,0)
  auto result = histogram_ref::Analyze(view, params);
  fail_unless(result->pixels == 1);
  ExpectCounts(Counts(*result, Channel::kLuma), {{11, 1}}, "luma (1,1)");
  ExpectCounts(Counts(*result, Channel::kU), {{100, 1}}, "u (1,1)");
  ExpectCounts(Counts(*result, Channel::kV), {{200, 1}}, "v (1,1)");

  params.roi = reference::Roi{1, 1, 2, 2};  // [1,3) x [1,3): all four chroma samples
  result = histogram_ref::Analyze(view, params);
  ExpectCounts(Counts(*result, Channel::kLuma), {{11, 1}, {12, 1}, {21, 1}, {22, 1}}, "luma [1,3)");
  ExpectCounts(Counts(*result, Channel::kU), {{100, 1}, {101, 1}, {110, 1}, {111, 1}}, "u [1,3)");

  params.roi = reference::Roi{2, 0, 0, 1};  // pixel (2,0): chroma sample (1,0)
  result = histogram_ref::Analyze(view, params);
  ExpectCounts(Counts(*result, Channel::kV), {{201, 1}}, "v (2,0)");
}
GST_END_TEST;

// NV12 keeps U and V interleaved in plane 1; Y444 has full-resolution chroma; GRAY8 only luma.
GST_START_TEST(test_nv12_y444_gray8) {
  const std::vector<uint8_t> y = {5, 6, 7, 8};
  const std::vector<uint8_t> uv = {70, 90};
  const histogram_ref::FrameView nv12{GST_VIDEO_FORMAT_NV12, 2, 2, {y.data(), uv.data()}, {2, 2}};
  auto result = histogram_ref::Analyze(nv12, histogram_ref::Params{});
  ExpectCounts(Counts(*result, Channel::kU), {{70, 1}}, "nv12 u");
  ExpectCounts(Counts(*result, Channel::kV), {{90, 1}}, "nv12 v");
  ExpectCounts(Counts(*result, Channel::kLuma), {{5, 1}, {6, 1}, {7, 1}, {8, 1}}, "nv12 luma");

  const std::vector<uint8_t> u = {1, 2, 3, 4};
  const std::vector<uint8_t> v = {9, 9, 8, 8};
  const histogram_ref::FrameView y444{GST_VIDEO_FORMAT_Y444, 2, 2, {y.data(), u.data(), v.data()}, {2, 2, 2}};
  histogram_ref::Params params;
  params.roi = reference::Roi{0, 1, 0, 0};
  result = histogram_ref::Analyze(y444, params);
  ExpectCounts(Counts(*result, Channel::kU), {{3, 1}, {4, 1}}, "y444 u");
  ExpectCounts(Counts(*result, Channel::kV), {{8, 2}}, "y444 v");

  const histogram_ref::FrameView gray{GST_VIDEO_FORMAT_GRAY8, 2, 2, {y.data()}, {2}};
  params.roi = {};
  params.bins = 1;
  result = histogram_ref::Analyze(gray, params);
  fail_unless(result->channels.size() == 1);
  ExpectCounts(Counts(*result, Channel::kLuma), {{0, 4}}, "gray bins=1");
}
GST_END_TEST;

// The deep formats, a pixel or a few at a time, their words written by hand: where each
// component's bits lie, and bins at each depth.
GST_START_TEST(test_deep_formats_by_hand) {
  histogram_ref::Params params;
  params.bins = 4;
  // BGR10A2_LE, one pixel: B=1 (bits 0-9), G=512 (10-19), R=1023 (20-29), A=2 (30-31). Luma at
  // 10 bits (bt709): (13933 * 1023 + 46871 * 512 + 4732 * 1 + 32768) >> 16 = 584, bin 2.
  const uint32_t word = 1u | (512u << 10) | (1023u << 20) | (2u << 30);
  std::vector<uint8_t> packed = {uint8_t(word), uint8_t(word >> 8), uint8_t(word >> 16), uint8_t(word >> 24)};
  auto bgr = histogram_ref::Analyze(PackedView(GST_VIDEO_FORMAT_BGR10A2_LE, 1, 1, 4, packed), params);
  fail_unless(bgr.has_value());
  ExpectCounts(Counts(*bgr, Channel::kRed), {{3, 1}}, "BGR10A2_LE red");
  ExpectCounts(Counts(*bgr, Channel::kGreen), {{2, 1}}, "BGR10A2_LE green");
  ExpectCounts(Counts(*bgr, Channel::kBlue), {{0, 1}}, "BGR10A2_LE blue");
  ExpectCounts(Counts(*bgr, Channel::kLuma), {{2, 1}}, "BGR10A2_LE luma");
  ExpectCounts(Counts(*bgr, Channel::kAlpha), {{2, 1}}, "BGR10A2_LE alpha (2 bits)");
  // RGBA64_LE, two pixels: R=0xffff, G=0x4000, B=0x8000, A=0; then all 0x3fff.
  std::vector<uint8_t> rgba64 = {0xff, 0xff, 0x00, 0x40, 0x00, 0x80, 0x00, 0x00,
                                 0xff, 0x3f, 0xff, 0x3f, 0xff, 0x3f, 0xff, 0x3f};
  auto wide = histogram_ref::Analyze(PackedView(GST_VIDEO_FORMAT_RGBA64_LE, 2, 1, 8, rgba64), params);
  fail_unless(wide.has_value());
  ExpectCounts(Counts(*wide, Channel::kRed), {{3, 1}, {0, 1}}, "RGBA64_LE red");
  ExpectCounts(Counts(*wide, Channel::kGreen), {{1, 1}, {0, 1}}, "RGBA64_LE green");
  ExpectCounts(Counts(*wide, Channel::kBlue), {{2, 1}, {0, 1}}, "RGBA64_LE blue");
  ExpectCounts(Counts(*wide, Channel::kAlpha), {{0, 2}}, "RGBA64_LE alpha");
  // P010_10LE, 2x2: Y 1023, 256, 255, 0 in the high 10 bits (low 6 bits set, to be ignored); one
  // U, V pair: U 768, V 511.
  auto p010_word = [](uint32_t v, std::vector<uint8_t>& out) {
    const uint32_t w = (v << 6) | 0x3f;
    out.push_back(uint8_t(w));
    out.push_back(uint8_t(w >> 8));
  };
  std::vector<uint8_t> y, uv;
  for (uint32_t v : {1023u, 256u, 255u, 0u}) p010_word(v, y);
  for (uint32_t v : {768u, 511u}) p010_word(v, uv);
  histogram_ref::FrameView p010{GST_VIDEO_FORMAT_P010_10LE, 2, 2, {y.data(), uv.data()}, {4, 4}};
  auto yuv = histogram_ref::Analyze(p010, params);
  fail_unless(yuv.has_value());
  ExpectCounts(Counts(*yuv, Channel::kLuma), {{3, 1}, {1, 1}, {0, 2}}, "P010_10LE luma");
  ExpectCounts(Counts(*yuv, Channel::kU), {{3, 1}}, "P010_10LE u");
  ExpectCounts(Counts(*yuv, Channel::kV), {{1, 1}}, "P010_10LE v");
  // I420_10LE keeps its 10 bits low: a word of 0xfc00 | 512 is 512 (bin 2), not 1023.
  std::vector<uint8_t> planes = {0x00, 0xfe, 0xff, 0x03, 0x00, 0x00};  // Y 512 (high bits junk), U 1023, V 0
  histogram_ref::FrameView i420{
      GST_VIDEO_FORMAT_I420_10LE, 1, 1, {planes.data(), planes.data() + 2, planes.data() + 4}, {2, 2, 2}};
  auto low = histogram_ref::Analyze(i420, params);
  fail_unless(low.has_value());
  ExpectCounts(Counts(*low, Channel::kLuma), {{2, 1}}, "I420_10LE luma");
  ExpectCounts(Counts(*low, Channel::kU), {{3, 1}}, "I420_10LE u");
  ExpectCounts(Counts(*low, Channel::kV), {{0, 1}}, "I420_10LE v");
  // Bins at every depth: the top code value in the last bin, half way at the middle.
  for (int depth : {10, 12, 16}) {
    fail_unless_equals_int(histogram_ref::BinOf((1u << depth) - 1, depth, 256), 255);
    fail_unless_equals_int(histogram_ref::BinOf(1u << (depth - 1), depth, 256), 128);
    fail_unless_equals_int(histogram_ref::BinOf((1u << (depth - 1)) - 1, depth, 10), 4);
  }
}
GST_END_TEST;

TCase* ReferenceTCase() {
  TCase* tcase = tcase_create("reference");
  analysis_test::AddCheckTest<analysis_test::LumaWeightsTest>(tcase);
  tcase_add_test(tcase, test_luma_rounds_half_up);
  tcase_add_test(tcase, test_bin_of);
  tcase_add_test(tcase, test_channels_of_formats);
  tcase_add_test(tcase, test_roi_and_chroma_rects);
  tcase_add_test(tcase, test_rgb_byte_orders);
  tcase_add_test(tcase, test_rgba_frame);
  tcase_add_test(tcase, test_i420_chroma_region);
  tcase_add_test(tcase, test_nv12_y444_gray8);
  tcase_add_test(tcase, test_deep_formats_by_hand);
  return tcase;
}

}  // namespace histogram_test
