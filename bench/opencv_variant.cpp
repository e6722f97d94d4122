#include "opencv_variant.hpp"

#ifdef HAVE_OPENCV
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <functional>
#include <vector>

#include "random_frames.hpp"
#endif

namespace bench {

#ifdef HAVE_OPENCV
namespace {

int channels_of(GstVideoFormat format) {
  switch (format) {
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_RGBA64_LE: return 4;
    case GST_VIDEO_FORMAT_RGB: return 3;
    default: return 1;
  }
}

// A frame as one Mat: packed RGB as W x H x channels, NV12 and P010 as one (H * 3 / 2) x W plane
// (of 16-bit samples for P010_10LE and RGBA64_LE).
cv::Mat make_frame(const Case& c, int index) {
  const bool semi_planar = c.format == GST_VIDEO_FORMAT_NV12 || c.format == GST_VIDEO_FORMAT_P010_10LE;
  const bool sixteen = c.format == GST_VIDEO_FORMAT_P010_10LE || c.format == GST_VIDEO_FORMAT_RGBA64_LE;
  const int channels = channels_of(c.format);
  cv::Mat frame(semi_planar ? c.height * 3 / 2 : c.height, c.width,
                sixteen ? CV_16UC(channels) : CV_8UC(channels));
  fill_random_frame(frame.data, frame.total() * frame.elemSize(), index);
  return frame;
}

// Every channel's histogram of `size` bins over 0..top.
void histograms(const std::vector<cv::Mat>& planes, std::vector<cv::Mat>& out, int size = 256,
                float top = 256) {
  const float range[] = {0, top};
  const float* ranges[] = {range};
  out.resize(planes.size() * 4);
  size_t k = 0;
  for (const cv::Mat& plane : planes)
    for (int ch = 0; ch < plane.channels(); ++ch)
      cv::calcHist(&plane, 1, &ch, cv::Mat(), out[k++], 1, &size, ranges);
}

// The operation on one frame.
std::function<void(const cv::Mat&)> operation(const Case& c, OpenCvOp op) {
  auto out = std::make_shared<cv::Mat>();
  auto gray = std::make_shared<cv::Mat>();
  auto hists = std::make_shared<std::vector<cv::Mat>>();
  switch (op) {
    case OpenCvOp::kRgbaToI420:
      return [=](const cv::Mat& in) { cv::cvtColor(in, *out, cv::COLOR_RGBA2YUV_I420); };
    case OpenCvOp::kRgbToI420:
      return [=](const cv::Mat& in) { cv::cvtColor(in, *out, cv::COLOR_RGB2YUV_I420); };
    case OpenCvOp::kMinMaxRgba:
      return [=](const cv::Mat& in) {
        cv::cvtColor(in, *gray, cv::COLOR_RGBA2GRAY);
        double lo, hi;
        cv::Point at_lo, at_hi;
        cv::minMaxLoc(*gray, &lo, &hi, &at_lo, &at_hi);
      };
    case OpenCvOp::kMinMaxY:
      return [=](const cv::Mat& in) {
        double lo, hi;
        cv::Point at_lo, at_hi;
        cv::minMaxLoc(in.rowRange(0, c.height), &lo, &hi, &at_lo, &at_hi);
      };
    case OpenCvOp::kHistRgba:
      return [=](const cv::Mat& in) {
        cv::cvtColor(in, *gray, cv::COLOR_RGBA2GRAY);
        cv::Mat rgb;
        cv::cvtColor(in, rgb, cv::COLOR_RGBA2RGB);
        histograms({rgb, *gray}, *hists);
      };
    case OpenCvOp::kHistNv12:
      return [=](const cv::Mat& in) {
        // The interleaved UV plane as a two-channel image (read only).
        const cv::Mat uv(c.height / 2, c.width / 2, CV_8UC2, const_cast<uchar*>(in.ptr(c.height)));
        histograms({in.rowRange(0, c.height), uv}, *hists);
      };
    case OpenCvOp::kDilate: {
      cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(c.kernel, c.kernel));
      return [=](const cv::Mat& in) { cv::dilate(in, *out, kernel); };
    }
    case OpenCvOp::kHistP010:
      return [=](const cv::Mat& in) {
        const cv::Mat uv(c.height / 2, c.width / 2, CV_16UC2, const_cast<uchar*>(in.ptr(c.height)));
        histograms({in.rowRange(0, c.height), uv}, *hists, 1024, 65536);
      };
    case OpenCvOp::kDilateY16: {
      cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(c.kernel, c.kernel));
      return [=](const cv::Mat& in) { cv::dilate(in.rowRange(0, c.height), *out, kernel); };
    }
    case OpenCvOp::kLut: {
      cv::Mat table(1, 256, CV_8UC4);
      fill_random_frame(table.data, 256 * 4, 99);
      return [=](const cv::Mat& in) { cv::LUT(in, table, *out); };
    }
    case OpenCvOp::kNone: break;
  }
  return nullptr;
}

}  // namespace

Measurement run_opencv_variant(const Case& c, const Variant& v, const Options& options) {
  Measurement m;
  std::vector<cv::Mat> ring;
  for (int i = 0; i < kRingFrames; ++i) ring.push_back(make_frame(c, i));
  auto run = operation(c, v.opencv);
  size_t n = 0;
  const gint64 warm_until = g_get_monotonic_time() + gint64(options.warmup_s * 1e6);
  while (g_get_monotonic_time() < warm_until) run(ring[n++ % ring.size()]);
  Window window;
  window.start();
  const gint64 until = g_get_monotonic_time() + gint64(options.measure_s * 1e6);
  double frames = 0;
  for (; g_get_monotonic_time() < until; ++frames) run(ring[n++ % ring.size()]);
  window.stop(m, frames);
  m.peak_rss_mib = peak_rss_mib();
  return m;
}

#else

Measurement run_opencv_variant(const Case&, const Variant&, const Options&) {
  Measurement m;
  m.status = "unavailable: built without OpenCV (meson -Dopencv=enabled with libopencv-dev)";
  return m;
}

#endif

}  // namespace bench
