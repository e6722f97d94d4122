// Regions of interest: counts over the ROI only, with the ROI clamped to the frame, and chroma
// counted over every chroma sample that covers a pixel of it (odd edges on 4:2:0 round outwards);
// an empty ROI is a settings error, at start or when set while playing.
#include <string>
#include <vector>

#include "analysis_stream.h"
#include "common/bus_wait.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "message_log.h"
#include "tcases.h"
#include "verify.h"

namespace histogram_test {
namespace {

// Larger than a few workgroup tiles (64x64 in the current kernel) both ways, and odd.
constexpr int kWidth = 147;
constexpr int kHeight = 133;
constexpr int kTimeoutMs = 30000;

struct RoiCase {
  const char* label;
  histogram_ref::Roi roi;
};

const RoiCase kRoiCases[] = {
    {"offset", {20, 11, 101, 97}},                 // [20,121) x [11,108): across tile edges
    {"to the edges", {65, 63, 0, 0}},              // width/height 0: up to the frame edge
    {"partially outside", {140, 125, 50, 50}},     // clamped to [140,147) x [125,133)
    {"one pixel", {64, 64, 1, 1}},                 // chroma (32,32), from its top-left corner
    {"one odd pixel", {63, 65, 1, 1}},             // chroma (31,32), from its bottom-right corner
    {"odd start", {3, 5, 7, 9}},                   // [3,10) x [5,14): chroma [1,5) x [2,7)
    {"odd end", {4, 6, 5, 3}},                     // [4,9) x [6,9): chroma [2,5) x [3,5)
    {"last column", {kWidth - 1, 0, 0, kHeight}},  // one pixel wide; the frame's half chroma column
    {"last row", {0, kHeight - 1, 0, 0}},          // one pixel high; the frame's half chroma row
};

// The subsampled formats, full-resolution chroma, 3- and 4-byte RGB and gray.
const GstVideoFormat kRoiFormats[] = {GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_Y444,
                                      GST_VIDEO_FORMAT_RGBA, GST_VIDEO_FORMAT_RGB,  GST_VIDEO_FORMAT_BGRx,
                                      GST_VIDEO_FORMAT_GRAY8};

// Runs `description` and returns the errors posted, after it stopped.
std::vector<PostedError> RunPipelineErrors(const std::string& description, size_t* histogram_count) {
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  MessageLog log(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  fail_unless(log.WaitForErrorOrEos(kTimeoutMs), "%s: neither EOS nor an error", description.c_str());
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  *histogram_count = log.Count();
  return log.Errors();
}

void ExpectSettingsError(const std::vector<PostedError>& errors, const std::string& source,
                         const std::string& where) {
  fail_unless(!errors.empty(), "%s: no ERROR message for an empty ROI", where.c_str());
  const PostedError& error = errors.front();
  fail_unless(error.domain == GST_LIBRARY_ERROR && error.code == GST_LIBRARY_ERROR_SETTINGS,
              "%s: expected a GST_LIBRARY_ERROR_SETTINGS error, got %s", where.c_str(),
              error.description.c_str());
  fail_unless(error.source == source, "%s: the error comes from %s, not from histogram (%s)", where.c_str(),
              error.source.c_str(), source.c_str());
}

}  // namespace

// One stream per format going through every ROI case (set while playing), each on a frame from
// the proposed pool and one in system memory with odd strides.
GST_START_TEST(test_roi) {
  const GstVideoFormat format = kRoiFormats[__i__];
  const std::string name = std::string("roi on ") + gst_video_format_to_string(format);
  std::mt19937 rng = vktest::RngFor(name);
  histogram_ref::Params params;
  AnalysisStream stream(params);
  const Placement odd_stride{Memory::kSystem, 3, 7};
  for (const RoiCase& roi_case : kRoiCases) {
    params.roi = roi_case.roi;
    stream.SetParams(params);
    stream.Push(RandomFrame(format, kWidth, kHeight, rng));
    stream.Push(RandomFrame(format, kWidth, kHeight, rng), odd_stride);
    fail_unless(stream.pushed().back().expected.has_value(), "test data: %s: empty ROI", roi_case.label);
  }
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectStreamMatches(stream, name);
}
GST_END_TEST;

// A pipeline starting with a ROI that clamps to nothing stops with a settings error and posts
// no histogram.
GST_START_TEST(test_empty_roi_at_start) {
  vktest::RequirePhysicalDevice();
  for (const char* roi : {"roi-x=32", "roi-y=16 roi-height=4", "roi-x=10 roi-y=1000 roi-width=1"}) {
    const std::string description =
        std::string(
            "videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=32,height=16 ! "
            "histogram name=analyse ") +
        roi + " ! fakesink";
    size_t messages = 0;
    ExpectSettingsError(RunPipelineErrors(description, &messages), "analyse", description);
    fail_unless(messages == 0, "%s: %zu histogram messages for an empty ROI", description.c_str(), messages);
  }
}
GST_END_TEST;

// Moving the ROI off the frame while playing fails the next frame with a settings error; the
// frames before it were analysed correctly (their messages come without further frames).
GST_START_TEST(test_empty_roi_while_playing) {
  const std::string name = "empty roi while playing";
  std::mt19937 rng = vktest::RngFor(name);
  histogram_ref::Params params;
  AnalysisStream stream(params);
  for (int i = 0; i < 3; ++i) {
    const GstFlowReturn flow = stream.Push(RandomFrame(GST_VIDEO_FORMAT_RGBx, 33, 17, rng));
    fail_unless(flow == GST_FLOW_OK, "%s: a frame with a valid ROI returned %s", WithSeed(name).c_str(),
                gst_flow_get_name(flow));
  }
  fail_unless(stream.log().WaitFor(3, kTimeoutMs), "%s: the good frames' messages never came",
              WithSeed(name).c_str());

  params.roi.y = 17;
  stream.SetParams(params);
  const GstFlowReturn flow = stream.Push(RandomFrame(GST_VIDEO_FORMAT_RGBx, 33, 17, rng));
  fail_unless(flow < GST_FLOW_OK && flow != GST_FLOW_FLUSHING,
              "%s: pushing a frame with an empty ROI returned %s", WithSeed(name).c_str(),
              gst_flow_get_name(flow));
  ExpectSettingsError(stream.log().Errors(), GST_OBJECT_NAME(stream.element()), name);

  const std::vector<HistogramMessage> messages = stream.log().Messages();
  fail_unless(messages.size() == 3, "%s: %zu histogram messages for 3 good frames", WithSeed(name).c_str(),
              messages.size());
  for (size_t i = 0; i < messages.size(); ++i) {
    ExpectMessageMatches(messages[i], stream.pushed()[i], name + ": " + stream.pushed()[i].description);
  }
}
GST_END_TEST;

TCase* RoiTCase() {
  TCase* tcase = vktest::NewTCase("roi", 120);
  tcase_add_loop_test(tcase, test_roi, 0, G_N_ELEMENTS(kRoiFormats));
  tcase_add_test(tcase, test_empty_roi_at_start);
  tcase_add_test(tcase, test_empty_roi_while_playing);
  return tcase;
}

}  // namespace histogram_test
