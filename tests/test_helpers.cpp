// Tests of the test helpers themselves: the CPU reference, the YUV layout helpers and the
// validation-error counter. A wrong reference would make every element test meaningless, so
// it is pinned to hand-computed values here.
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include <cstring>
#include <vector>

#include "common/vktest.h"
#include "common/yuv_planes.h"
#include "reference/rgb2yuv_ref.h"

namespace {

using rgb2yuv_ref::ChromaSiting;
using rgb2yuv_ref::MakeParams;
using rgb2yuv_ref::Params;

const Params kBt601 =
    MakeParams(GST_VIDEO_COLOR_MATRIX_BT601, GST_VIDEO_COLOR_RANGE_16_235, ChromaSiting::kCentered);
const Params kBt709 =
    MakeParams(GST_VIDEO_COLOR_MATRIX_BT709, GST_VIDEO_COLOR_RANGE_16_235, ChromaSiting::kCentered);
const Params kBt2020 =
    MakeParams(GST_VIDEO_COLOR_MATRIX_BT2020, GST_VIDEO_COLOR_RANGE_16_235, ChromaSiting::kCentered);
const Params kBt709Full =
    MakeParams(GST_VIDEO_COLOR_MATRIX_BT709, GST_VIDEO_COLOR_RANGE_0_255, ChromaSiting::kCentered);

void ExpectYuv(const Params& params, int r, int g, int b, int y, int u, int v) {
  const rgb2yuv_ref::YuvValue value = rgb2yuv_ref::RgbToYuv(params, r, g, b);
  const int got_y = rgb2yuv_ref::Quantize(value.y);
  const int got_u = rgb2yuv_ref::Quantize(value.u);
  const int got_v = rgb2yuv_ref::Quantize(value.v);
  fail_unless(got_y == y && got_u == u && got_v == v, "RGB(%d,%d,%d) gave YUV(%d,%d,%d), expected (%d,%d,%d)",
              r, g, b, got_y, got_u, got_v, y, u, v);
}

// A one-row RGB image whose red channel is `reds` (other channels 0).
std::vector<uint8_t> RedRow(const std::vector<int>& reds) {
  std::vector<uint8_t> pixels;
  for (int red : reds) pixels.insert(pixels.end(), {static_cast<uint8_t>(red), 0, 0});
  return pixels;
}

}  // namespace

GST_START_TEST(test_known_colours) {
  for (const Params& params : {kBt601, kBt709, kBt2020}) {
    ExpectYuv(params, 255, 255, 255, 235, 128, 128);
    ExpectYuv(params, 0, 0, 0, 16, 128, 128);
  }
  ExpectYuv(kBt709Full, 255, 255, 255, 255, 128, 128);
  ExpectYuv(kBt709Full, 0, 0, 0, 0, 128, 128);
  ExpectYuv(kBt601, 255, 0, 0, 81, 90, 240);
  ExpectYuv(kBt601, 0, 255, 0, 145, 54, 34);
  ExpectYuv(kBt601, 0, 0, 255, 41, 240, 110);
  ExpectYuv(kBt709, 255, 0, 0, 63, 102, 240);
  ExpectYuv(kBt709, 0, 255, 0, 173, 42, 26);
  ExpectYuv(kBt2020, 255, 0, 0, 74, 97, 240);
  // Full-range blue: U = 128 + 127.5 rounds to 256 and clamps to 255.
  ExpectYuv(kBt709Full, 0, 0, 255, 18, 255, 116);
}
GST_END_TEST;

GST_START_TEST(test_rounding_is_half_up) {
  fail_unless_equals_int(rgb2yuv_ref::Quantize(80.5), 81);
  fail_unless_equals_int(rgb2yuv_ref::Quantize(80.4999), 80);
  fail_unless_equals_int(rgb2yuv_ref::Quantize(-3.0), 0);
  fail_unless_equals_int(rgb2yuv_ref::Quantize(300.0), 255);
}
GST_END_TEST;

GST_START_TEST(test_input_layouts) {
  // One pixel R=10 G=20 B=30 A=40 in each format; the x byte holds 99 and must be ignored.
  struct Case {
    GstVideoFormat format;
    std::vector<uint8_t> bytes;
    double alpha;
  };
  const Case cases[] = {
      {GST_VIDEO_FORMAT_RGB, {10, 20, 30}, 255},      {GST_VIDEO_FORMAT_BGR, {30, 20, 10}, 255},
      {GST_VIDEO_FORMAT_RGBA, {10, 20, 30, 40}, 40},  {GST_VIDEO_FORMAT_BGRA, {30, 20, 10, 40}, 40},
      {GST_VIDEO_FORMAT_ARGB, {40, 10, 20, 30}, 40},  {GST_VIDEO_FORMAT_ABGR, {40, 30, 20, 10}, 40},
      {GST_VIDEO_FORMAT_RGBx, {10, 20, 30, 99}, 255}, {GST_VIDEO_FORMAT_BGRx, {30, 20, 10, 99}, 255},
      {GST_VIDEO_FORMAT_xRGB, {99, 10, 20, 30}, 255}, {GST_VIDEO_FORMAT_xBGR, {99, 30, 20, 10}, 255},
  };
  for (const Case& c : cases) {
    const rgb2yuv_ref::RgbView view{c.format, 1, 1, static_cast<int>(c.bytes.size()), c.bytes.data()};
    const rgb2yuv_ref::Rgba pixel = rgb2yuv_ref::ReadPixel(view, 0, 0);
    fail_unless(pixel.r == 10 && pixel.g == 20 && pixel.b == 30 && pixel.a == c.alpha,
                "%s read as %g,%g,%g,%g", gst_video_format_to_string(c.format), pixel.r, pixel.g, pixel.b,
                pixel.a);
    // The layout table agrees with GStreamer's own description of the format.
    const GstVideoFormatInfo* finfo = gst_video_format_get_info(c.format);
    const reference::RgbLayout& layout = rgb2yuv_ref::LayoutOf(c.format);
    fail_unless_equals_int(layout.bytes_per_pixel, GST_VIDEO_FORMAT_INFO_PSTRIDE(finfo, 0));
    fail_unless_equals_int(layout.r, GST_VIDEO_FORMAT_INFO_POFFSET(finfo, GST_VIDEO_COMP_R));
    fail_unless_equals_int(layout.g, GST_VIDEO_FORMAT_INFO_POFFSET(finfo, GST_VIDEO_COMP_G));
    fail_unless_equals_int(layout.b, GST_VIDEO_FORMAT_INFO_POFFSET(finfo, GST_VIDEO_COMP_B));
    fail_unless_equals_int(layout.a >= 0, GST_VIDEO_FORMAT_INFO_HAS_ALPHA(finfo));
  }
}
GST_END_TEST;

GST_START_TEST(test_chroma_filters) {
  // Reds 100, 200, 40 in one row: 4:2:2 chroma has 2 columns; the last one is alone.
  const std::vector<uint8_t> row = RedRow({100, 200, 40});
  const rgb2yuv_ref::RgbView view{GST_VIDEO_FORMAT_RGB, 3, 1, 9, row.data()};
  struct Case {
    ChromaSiting siting;
    int column;
    double red;
  };
  const Case cases[] = {
      {ChromaSiting::kCentered, 0, 150.0},             // (100 + 200) / 2
      {ChromaSiting::kCentered, 1, 40.0},              // lone column replicated
      {ChromaSiting::kHorizontallyCosited, 0, 125.0},  // (100 + 2*100 + 200) / 4, left edge
      {ChromaSiting::kHorizontallyCosited, 1, 80.0},   // (200 + 2*40 + 40) / 4, right edge
  };
  for (const Case& c : cases) {
    const rgb2yuv_ref::Rgba source = rgb2yuv_ref::FilteredChromaSource(view, c.column, 0, 1, 0, c.siting);
    fail_unless(source.r == c.red && source.g == 0 && source.b == 0,
                "siting %d column %d: red %g, expected %g", static_cast<int>(c.siting), c.column, source.r,
                c.red);
  }

  // 4:2:0 averages rows 0 and 1 in both sitings; a lone last row is replicated.
  const std::vector<uint8_t> column = RedRow({10, 30, 77});
  const rgb2yuv_ref::RgbView tall{GST_VIDEO_FORMAT_RGB, 1, 3, 3, column.data()};
  for (ChromaSiting siting : {ChromaSiting::kCentered, ChromaSiting::kHorizontallyCosited}) {
    fail_unless_equals_float(rgb2yuv_ref::FilteredChromaSource(tall, 0, 0, 1, 1, siting).r, 20.0);
    fail_unless_equals_float(rgb2yuv_ref::FilteredChromaSource(tall, 0, 1, 1, 1, siting).r, 77.0);
  }
}
GST_END_TEST;

GST_START_TEST(test_chroma_is_filtered_in_rgb) {
  // A 2x2 I420 frame: the chroma sample is the conversion of the mean colour.
  const std::vector<uint8_t> pixels = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255};
  const rgb2yuv_ref::RgbView view{GST_VIDEO_FORMAT_RGB, 2, 2, 6, pixels.data()};
  const vktest::YuvPlanes planes = rgb2yuv_ref::Convert(view, GST_VIDEO_FORMAT_I420, kBt601);
  const rgb2yuv_ref::YuvValue mean = rgb2yuv_ref::RgbToYuv(kBt601, 127.5, 127.5, 127.5);
  fail_unless_equals_int(planes.At(GST_VIDEO_COMP_U, 0, 0), rgb2yuv_ref::Quantize(mean.u));
  fail_unless_equals_int(planes.At(GST_VIDEO_COMP_V, 0, 0), rgb2yuv_ref::Quantize(mean.v));
  fail_unless_equals_int(planes.At(GST_VIDEO_COMP_Y, 0, 0), 81);
  fail_unless_equals_int(planes.At(GST_VIDEO_COMP_Y, 1, 1), 235);
}
GST_END_TEST;

GST_START_TEST(test_ayuv_alpha) {
  const std::vector<uint8_t> rgba = {1, 2, 3, 77};
  const std::vector<uint8_t> rgbx = {1, 2, 3, 77};
  const rgb2yuv_ref::RgbView with_alpha{GST_VIDEO_FORMAT_RGBA, 1, 1, 4, rgba.data()};
  const rgb2yuv_ref::RgbView without_alpha{GST_VIDEO_FORMAT_RGBx, 1, 1, 4, rgbx.data()};
  fail_unless_equals_int(
      rgb2yuv_ref::Convert(with_alpha, GST_VIDEO_FORMAT_AYUV, kBt601).At(GST_VIDEO_COMP_A, 0, 0), 77);
  fail_unless_equals_int(
      rgb2yuv_ref::Convert(without_alpha, GST_VIDEO_FORMAT_AYUV, kBt601).At(GST_VIDEO_COMP_A, 0, 0), 255);
}
GST_END_TEST;

GST_START_TEST(test_layout_round_trip) {
  // Writing planes into a GstVideoInfo layout and reading them back through GstVideoFrame gives
  // the same samples, for every output format at an odd size; and a few byte positions are
  // pinned so that the helpers cannot agree on a wrong interpretation.
  const GstVideoFormat formats[] = {GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12, GST_VIDEO_FORMAT_NV12,
                                    GST_VIDEO_FORMAT_NV21, GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444,
                                    GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_AYUV};
  for (GstVideoFormat format : formats) {
    vktest::YuvPlanes planes = vktest::MakeYuvPlanes(format, 5, 3);
    for (int c = 0; c < planes.n_components; ++c) {
      for (size_t i = 0; i < planes.samples[c].size(); ++i) {
        planes.samples[c][i] = static_cast<uint8_t>(c * 64 + i);
      }
    }
    GstVideoInfo info;
    gst_video_info_set_format(&info, format, 5, 3);
    std::vector<uint8_t> bytes(GST_VIDEO_INFO_SIZE(&info), 0);
    vktest::WriteToLayout(planes, info, bytes.data());

    const uint8_t* y0 = bytes.data() + info.offset[0];
    switch (format) {
      case GST_VIDEO_FORMAT_YUY2:  // Y0 U0 Y1 V0
        fail_unless(y0[0] == 0 && y0[1] == 64 && y0[2] == 1 && y0[3] == 128);
        break;
      case GST_VIDEO_FORMAT_UYVY:  // U0 Y0 V0 Y1
        fail_unless(y0[0] == 64 && y0[1] == 0 && y0[2] == 128 && y0[3] == 1);
        break;
      case GST_VIDEO_FORMAT_AYUV:  // A Y U V
        fail_unless(y0[0] == 192 && y0[1] == 0 && y0[2] == 64 && y0[3] == 128);
        break;
      case GST_VIDEO_FORMAT_NV21:  // second plane V U
        fail_unless(bytes[info.offset[1]] == 128 && bytes[info.offset[1] + 1] == 64);
        break;
      case GST_VIDEO_FORMAT_YV12:  // V plane before U plane
        fail_unless(bytes[info.offset[1]] == 128 && bytes[info.offset[2]] == 64);
        break;
      default: break;
    }

    GstBuffer* buffer = gst_buffer_new_memdup(bytes.data(), bytes.size());
    GstVideoFrame frame;
    fail_unless(gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ));
    const vktest::YuvPlanes read = vktest::ReadFromFrame(frame);
    gst_video_frame_unmap(&frame);
    gst_buffer_unref(buffer);
    fail_if(vktest::FindMismatch(read, planes, 0).has_value(), "%s round trip differs",
            gst_video_format_to_string(format));
  }
}
GST_END_TEST;

GST_DEBUG_CATEGORY_STATIC(fake_vkcompute);
GST_DEBUG_CATEGORY_STATIC(other_category);

GST_START_TEST(test_validation_counter) {
  // Stands in for the plugin's category: only ERROR and WARNING messages with a messenger prefix count.
  GST_DEBUG_CATEGORY_INIT(fake_vkcompute, "vkcompute", 0, "stand-in for the plugin category");
  GST_DEBUG_CATEGORY_INIT(other_category, "vkcompute-other", 0, "unrelated category");
  vktest::TakeValidationErrors();
  GST_CAT_ERROR(fake_vkcompute, "Vulkan validation: pretend error %d", 1);
  GST_CAT_WARNING(fake_vkcompute, "Vulkan validation: pretend warning %d", 2);
  GST_CAT_WARNING(fake_vkcompute, "Vulkan: pretend layer warning %d", 3);
  GST_CAT_WARNING(fake_vkcompute, "Vulkan loader: the loader's own messages are not counted");
  GST_CAT_DEBUG(fake_vkcompute, "Vulkan validation: a debug message is not counted");
  GST_CAT_ERROR(fake_vkcompute, "an unrelated error is not counted");
  GST_CAT_ERROR(other_category, "Vulkan validation: another category is not counted");
  // The messages the suite tolerates, by ID and text (vktest.cpp): those only.
  GST_CAT_WARNING(fake_vkcompute,
                  "Vulkan validation: [WARNING-GPU-Assisted-Validation] vkCreateDevice(): Internal Warning: "
                  "Forcing shaderInt64 to VK_TRUE");
  GST_CAT_WARNING(
      fake_vkcompute,
      "Vulkan validation: [VALIDATION-SETTINGS] vkCreateInstance(): Both GPU Assisted Validation and "
      "Normal Core Check Validation are enabled, this is not recommend");
  GST_CAT_WARNING(
      fake_vkcompute,
      "Vulkan validation: [WARNING-GPU-Assisted-Validation] vkQueueSubmit(): another warning of that ID");
  GST_CAT_ERROR(fake_vkcompute, "Vulkan validation: [VUID-x] vkCreateDevice(): Internal Warning: Forcing x");
  const std::vector<std::string> errors = vktest::TakeValidationErrors();
  fail_unless_equals_int(errors.size(), 5);
  fail_unless(errors[0] == "Vulkan validation: pretend error 1", "got '%s'", errors[0].c_str());
  fail_unless(errors[1] == "Vulkan validation: pretend warning 2", "got '%s'", errors[1].c_str());
  fail_unless(errors[2] == "Vulkan: pretend layer warning 3", "got '%s'", errors[2].c_str());
  fail_unless(g_str_has_suffix(errors[3].c_str(), "another warning of that ID"), "got '%s'",
              errors[3].c_str());
  fail_unless(g_str_has_prefix(errors[4].c_str(), "Vulkan validation: [VUID-x]"), "got '%s'",
              errors[4].c_str());
  fail_unless(vktest::TakeValidationErrors().empty());
}
GST_END_TEST;

GST_DEBUG_CATEGORY_STATIC(fake_vulkandebug);

// GStreamer's Vulkan instance's reports (its "vulkandebug" category, vktest.cpp): errors and warnings
// count, tolerated ones not, by ID and text in the 1.3 layer's form and by the text that starts the
// 1.4 layer's (which has no ID); the g_warning GStreamer raises with the same text does not fail the
// test by itself, another of its domain's would.
GST_START_TEST(test_gstvulkan_report_counter) {
  GST_DEBUG_CATEGORY_INIT(fake_vulkandebug, "vulkandebug", 0, "stand-in for GStreamer's Vulkan instance");
  vktest::TakeValidationErrors();
  GST_CAT_ERROR(fake_vulkandebug,
                "[Validation] Code 1 : Validation Error: [ VUID-x ] Object 0: | pretend error");
  GST_CAT_WARNING(fake_vulkandebug, "[Validation] Code 0 : vkCreateBuffer(): pretend warning");
  GST_CAT_INFO(fake_vulkandebug, "[Validation] Code 0 : an information message is not counted");
  GST_CAT_WARNING(fake_vulkandebug,
                  "[Validation] Code 0 : vkCreateDevice(): Internal Warning: Ray Query validation option was "
                  "enabled, but the rayQuery feature was not supported [Disabling gpuav_validate_ray_query]");
  GST_CAT_WARNING(fake_vulkandebug,
                  "[Validation] Code 7 : Validation Warning: [ WARNING-GPU-Assisted-Validation ] Object 0: | "
                  "vkCreateDevice(): Internal Warning: Forcing shaderInt64 to VK_TRUE");
  GST_CAT_WARNING(
      fake_vulkandebug,
      "[Validation] Code 7 : Validation Warning: [ VUID-y ] Object 0: | vkCreateDevice(): Internal "
      "Warning: Forcing x");
  GST_CAT_WARNING(fake_vulkandebug,
                  "[Validation] Code 0 : pretend: vkCreateDevice(): Internal Warning: Forcing x");
  g_log("GStreamer-Vulkan", G_LOG_LEVEL_WARNING, "[Validation] Code 0 : vkCreateBuffer(): pretend warning");
  const std::vector<std::string> errors = vktest::TakeValidationErrors();
  fail_unless_equals_int(errors.size(), 4);
  fail_unless(g_str_has_suffix(errors[0].c_str(), "pretend error"), "got '%s'", errors[0].c_str());
  fail_unless_equals_string(
      errors[1].c_str(),
      "GStreamer's Vulkan instance: [Validation] Code 0 : vkCreateBuffer(): pretend warning");
  fail_unless(g_str_has_suffix(errors[2].c_str(),
                               "[ VUID-y ] Object 0: | vkCreateDevice(): Internal Warning: Forcing x"),
              "got '%s'", errors[2].c_str());
  fail_unless(g_str_has_suffix(errors[3].c_str(), "pretend: vkCreateDevice(): Internal Warning: Forcing x"),
              "got '%s'", errors[3].c_str());
}
GST_END_TEST;

// A failure message lists the first validation errors, cut short, and counts the rest: check
// refuses a message of more than 8 KB (the test then fails as an early exit with no text), which
// nine errors of the validation layer's usual length used to exceed.
GST_START_TEST(test_validation_summary_fits_a_failure_message) {
  const std::vector<std::string> errors(20, "Vulkan validation: " + std::string(2000, 'x'));
  const std::string summary = vktest::SummarizeValidationErrors(errors);
  fail_unless(summary.size() < 4000, "a summary of %zu bytes", summary.size());
  fail_unless(summary.find("Vulkan validation: xxx") != std::string::npos, "%s", summary.c_str());
  fail_unless(summary.find("17 more") != std::string::npos, "%s", summary.c_str());
  const std::vector<std::string> one = {"Vulkan validation: short"};
  fail_unless(vktest::SummarizeValidationErrors(one) == "\n  Vulkan validation: short");
}
GST_END_TEST;

// A validation error logged after the last teardown check (as when Vulkan objects are destroyed
// at exit) must still fail the test: the at-exit check makes the test process exit with
// EXIT_FAILURE, which this test expects.
GST_START_TEST(test_validation_error_at_exit_fails) {
  GST_DEBUG_CATEGORY_INIT(fake_vkcompute, "vkcompute", 0, "stand-in for the plugin category");
  GST_CAT_ERROR(fake_vkcompute,
                "Vulkan validation: deliberate error, test_validation_error_at_exit_fails expects "
                "the process to fail because of it");
}
GST_END_TEST;

static Suite* helpers_suite() {
  Suite* suite = suite_create("helpers");
  TCase* reference = tcase_create("reference");
  suite_add_tcase(suite, reference);
  tcase_add_test(reference, test_known_colours);
  tcase_add_test(reference, test_rounding_is_half_up);
  tcase_add_test(reference, test_input_layouts);
  tcase_add_test(reference, test_chroma_filters);
  tcase_add_test(reference, test_chroma_is_filtered_in_rgb);
  tcase_add_test(reference, test_ayuv_alpha);
  tcase_add_test(reference, test_layout_round_trip);

  TCase* validation = tcase_create("validation");
  suite_add_tcase(suite, validation);
  tcase_add_test(validation, test_validation_counter);
  tcase_add_test(validation, test_gstvulkan_report_counter);
  tcase_add_test(validation, test_validation_summary_fits_a_failure_message);
  // Only a forked test process may exit; without fork the whole runner would.
  if (g_strcmp0(g_getenv("CK_FORK"), "no") != 0) {
    tcase_add_exit_test(validation, test_validation_error_at_exit_fails, EXIT_FAILURE);
  }
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(helpers_suite(), "helpers", __FILE__);
}
