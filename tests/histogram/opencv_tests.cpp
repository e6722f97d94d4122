// OpenCV's calcHist as the independent peer of the deep formats' histograms: the luma histogram
// of GRAY16_LE, P010_10LE (values in the high 10 bits of each word) and I420_12LE (the low 12)
// frames, with 1 024 and 65 536 bins, equals calcHist over the Y plane's code values with the
// range [0, 2^depth). Power-of-two bins make calcHist's float bin scale exact.
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <string>
#include <vector>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "histogram_case.h"
#include "tcases.h"
#include "verify.h"

namespace histogram_test {
namespace {

constexpr int kTimeoutMs = 60000;

struct DeepY {
  GstVideoFormat format;
  int depth;
  int shift;  // of the value in its 16-bit word
};
const DeepY kDeepY[] = {{GST_VIDEO_FORMAT_GRAY16_LE, 16, 0},
                        {GST_VIDEO_FORMAT_P010_10LE, 10, 6},
                        {GST_VIDEO_FORMAT_I420_12LE, 12, 0}};

// calcHist of the frame's Y code values into `bins` bins over [0, 2^depth).
std::vector<guint64> CalcHist(const TestFrame& frame, const DeepY& y, guint bins) {
  const histogram_ref::FrameView view = ViewOf(frame);
  cv::Mat values(frame.height(), frame.width(), CV_32F);
  for (int row = 0; row < frame.height(); ++row)
    for (int x = 0; x < frame.width(); ++x) {
      const uint8_t* at = view.planes[0] + ptrdiff_t(row) * view.strides[0] + 2 * x;
      values.at<float>(row, x) = float(((at[0] | (at[1] << 8)) >> y.shift) & ((1 << y.depth) - 1));
    }
  const int channels[] = {0};
  const int sizes[] = {int(bins)};
  const float range[] = {0.f, float(1 << y.depth)};
  const float* ranges[] = {range};
  cv::Mat hist;
  cv::calcHist(&values, 1, channels, cv::Mat(), hist, 1, sizes, ranges, true, false);
  std::vector<guint64> counts(bins);
  for (guint b = 0; b < bins; ++b) counts[b] = guint64(hist.at<float>(int(b)));
  return counts;
}

}  // namespace

GST_START_TEST(test_deep_luma_against_calchist) {
  for (guint bins : {1024u, 65536u}) {
    for (const DeepY& y : kDeepY) {
      const std::string name =
          std::string("calcHist ") + gst_video_format_to_string(y.format) + " bins=" + std::to_string(bins);
      std::mt19937 rng = vktest::RngFor(name);
      AnalysisStream stream(Bins(bins));
      const TestFrame frame = RandomFrame(y.format, 161, 97, rng);
      const std::vector<guint64> expected = CalcHist(frame, y, bins);
      stream.Push(frame);
      fail_unless(stream.log().WaitFor(1, kTimeoutMs), "%s: no message", vktest::WithSeed(name).c_str());
      const HistogramMessage message = stream.log().Messages().front();
      const auto luma = message.channels.find("luma");
      fail_unless(luma != message.channels.end(), "%s: no luma histogram", vktest::WithSeed(name).c_str());
      fail_unless_equals_int(luma->second.size(), bins);
      for (guint b = 0; b < bins; ++b)
        fail_unless(luma->second[b] == expected[b],
                    "%s: bin %u holds %" G_GUINT64_FORMAT ", calcHist %" G_GUINT64_FORMAT,
                    vktest::WithSeed(name).c_str(), b, luma->second[b], expected[b]);
      analysis_test::EndAndExpectStreamMatches(stream, name);  // and the reference agrees
    }
  }
}
GST_END_TEST;

TCase* OpenCvTCase() {
  TCase* tcase = vktest::NewTCase("opencv", 120);
  tcase_add_test(tcase, test_deep_luma_against_calchist);
  return tcase;
}

}  // namespace histogram_test
