// count and min-distance against the greedy reference, on frames with bright blobs (a peak and
// its slightly darker neighbours, which min-distance must skip), a plateau of equal pixels, and
// low-contrast noise full of ties that only raster order decides; peak-threshold at the luma of
// chosen peaks (kept) and just above (dropped), on random frames and videotestsrc's ball.
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "common/bus_wait.h"
#include "common/input_placement.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "lumamax_case.h"
#include "tcases.h"
#include "verify.h"

namespace lumamax_test {
namespace {

// The count and min-distance of one test.
struct PeakCase {
  guint count;
  guint min_distance;

  // "<test> count=5 min-distance=0": the test's name, which seeds its random frames.
  std::string Name(const char* test) const {
    return std::string(test) + " count=" + std::to_string(count) +
           " min-distance=" + std::to_string(min_distance);
  }
};

const PeakCase kPeaksCases[] = {
    {5, 0},      // the brightest distinct pixels, blob neighbours included
    {5, 1},      // the same selection: distinct pixels are always at least 1 apart
    {8, 5},      //
    {64, 0},     // the maximum count
    {64, 3},     //
    {10, 1000},  // nothing is that far away: only the maximum
    // The same with a distance beyond any frame: the rescans cover the region's tiles only (their
    // grid, sized by the distance alone, took seconds of GPU time per peak, past the frame timeout).
    {3, 2000000000},
    {64, 20},  // fewer peaks than count fit into 97x61
};

// Random content with eight blobs: a centre of level 230..255 (equal centres happen) and its
// eight neighbours 5 levels darker; and a 3x3 plateau of level 240.
TestFrame BlobFrame(GstVideoFormat format, int width, int height, std::mt19937& rng) {
  TestFrame frame = NewTestFrame(format, width, height);
  FillRandom(frame, rng, 16, 200);
  std::uniform_int_distribution<int> x(0, width - 1), y(0, height - 1), level(230, 255);
  for (int blob = 0; blob < 8; ++blob) {
    const int cx = x(rng), cy = y(rng), peak = level(rng);
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if (cx + dx < 0 || cx + dx >= width || cy + dy < 0 || cy + dy >= height) continue;
        SetGrey(frame, cx + dx, cy + dy, static_cast<uint8_t>(dx == 0 && dy == 0 ? peak : peak - 5));
      }
    }
  }
  const int px = x(rng) % (width - 2), py = y(rng) % (height - 2);
  for (int dy = 0; dy < 3; ++dy) {
    for (int dx = 0; dx < 3; ++dx) SetGrey(frame, px + dx, py + dy, 240);
  }
  return frame;
}

// Noise in 16..40 only: dozens of pixels share each value.
TestFrame TiedFrame(GstVideoFormat format, int width, int height, std::mt19937& rng) {
  TestFrame frame = NewTestFrame(format, width, height);
  FillRandom(frame, rng, 16, 40);
  return frame;
}

// The cases must exercise what they are named for.
void ExpectPeakCount(const PushedFrame& frame, const PeakCase& c, int pixels) {
  const size_t got = frame.expected->peaks.size();
  bool ok = true;
  if (c.min_distance <= 1) ok = got == std::min<size_t>(c.count, pixels);
  if (c.min_distance >= 1000) ok = got == 1;
  if (c.min_distance == 20) ok = got > 1 && got < c.count;
  fail_unless(ok, "test data: %s: the reference selects %zu peaks", frame.description.c_str(), got);
}

// Random content in 16..200 with six bright spots of 201..250 (so that no pixel is white and a
// threshold above the maximum exists in 0..1).
TestFrame SpotsFrame(GstVideoFormat format, int width, int height, std::mt19937& rng) {
  TestFrame frame = NewTestFrame(format, width, height);
  FillRandom(frame, rng, 16, 200);
  std::uniform_int_distribution<int> x(0, width - 1), y(0, height - 1), level(201, 250);
  for (int spot = 0; spot < 6; ++spot) SetGrey(frame, x(rng), y(rng), static_cast<uint8_t>(level(rng)));
  return frame;
}

// What fakesink's handoff collects: copies of the frames, in the default layout.
struct BallCollector {
  GstVideoFormat format;
  int width, height;
  std::vector<TestFrame> frames;

  static void OnHandoff(GstElement*, GstBuffer* buffer, GstPad*, gpointer data) {
    auto* self = static_cast<BallCollector*>(data);
    TestFrame frame = NewTestFrame(self->format, self->width, self->height);
    GstBuffer* target = gst_buffer_new_wrapped_full(GstMemoryFlags(0), frame.bytes.data(), frame.bytes.size(),
                                                    0, frame.bytes.size(), nullptr, nullptr);
    GstVideoFrame in, out;
    fail_unless(gst_video_frame_map(&in, &frame.info, buffer, GST_MAP_READ),
                "cannot map a videotestsrc frame");
    fail_unless(gst_video_frame_map(&out, &frame.info, target, GST_MAP_WRITE));
    fail_unless(gst_video_frame_copy(&out, &in));
    gst_video_frame_unmap(&out);
    gst_video_frame_unmap(&in);
    gst_buffer_unref(target);
    self->frames.push_back(std::move(frame));
  }
};

// `frames` frames of videotestsrc's moving ball (white on black) as `format` at width x height.
std::vector<TestFrame> BallFrames(GstVideoFormat format, int width, int height, int frames) {
  const std::string description = "videotestsrc pattern=ball num-buffers=" + std::to_string(frames) +
                                  " ! video/x-raw,format=" + gst_video_format_to_string(format) +
                                  ",width=" + std::to_string(width) + ",height=" + std::to_string(height) +
                                  " ! fakesink name=sink signal-handoffs=true";
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  BallCollector collector{format, width, height, {}};
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  g_signal_connect(sink, "handoff", G_CALLBACK(BallCollector::OnHandoff), &collector);
  gst_object_unref(sink);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  vktest::ExpectEos(pipeline, 30 * GST_SECOND, description);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  fail_unless(collector.frames.size() == size_t(frames), "%s: %zu frames", description.c_str(),
              collector.frames.size());
  return std::move(collector.frames);
}

const PeakCase kThresholdCases[] = {
    {1, 0},  // one dispatch: the scan's last workgroup chooses peak 0
    {8, 3},  // the peak chain: scan, reductions and rescans
    {64, 0},
};

}  // namespace

// peak-threshold on random frames at odd sizes, per frame: 0 (every peak), the luma of the last
// peak (equal luma is kept: none dropped), between the first and the last (some dropped), just
// above the first (all dropped) and 1.0 (all: no pixel is white).
GST_START_TEST(test_peak_threshold) {
  const PeakCase& c = kThresholdCases[__i__];
  const std::string name = c.Name("peak-threshold");
  std::mt19937 rng = vktest::RngFor(name);
  lumamax_ref::Params params = PeakParams(c.count, c.min_distance);
  AnalysisStream stream(params);
  const struct {
    GstVideoFormat format;
    int width, height;
  } sizes[] = {{GST_VIDEO_FORMAT_RGBA, 97, 61},
               {GST_VIDEO_FORMAT_NV12, 33, 17},
               {GST_VIDEO_FORMAT_BGR, 2, 3},
               {GST_VIDEO_FORMAT_GRAY8, 1, 1},
               {GST_VIDEO_FORMAT_Y444, 7, 5}};
  bool some_dropped = false;
  for (const auto& size : sizes) {
    const TestFrame frame = SpotsFrame(size.format, size.width, size.height, rng);
    params.peak_threshold = 0;
    const std::vector<lumamax_ref::Pixel> all = lumamax_ref::Analyze(ViewOf(frame), params)->peaks;
    const double first = all.front().luma, last = all.back().luma;
    const double thresholds[] = {0, last, (first + last) / 2, std::nextafter(first, 2.0), 1.0};
    for (double threshold : thresholds) {
      params.peak_threshold = threshold;
      stream.SetParams(params);
      stream.Push(frame);
      const size_t kept = stream.pushed().back().expected->peaks.size();
      fail_unless(threshold > first ? kept == 0 : threshold > last || kept == all.size(),
                  "test data: %s: the reference keeps %zu of %zu peaks",
                  stream.pushed().back().description.c_str(), kept, all.size());
      some_dropped = some_dropped || (kept > 0 && kept < all.size());
    }
  }
  fail_unless(c.count == 1 || some_dropped, "test data: no threshold dropped only some peaks");
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

// The case of the issue: count=3 min-distance=40 on videotestsrc's ball reported black pixels
// (luma 0) as peaks 2 and 3. A threshold above black reports the ball only.
GST_START_TEST(test_peak_threshold_ball) {
  const std::string name = "peak-threshold ball";
  for (const auto& [format, width, height] :
       {std::tuple{GST_VIDEO_FORMAT_RGBx, 97, 61}, std::tuple{GST_VIDEO_FORMAT_I420, 65, 47}}) {
    const std::vector<TestFrame> frames = BallFrames(format, width, height, 4);
    lumamax_ref::Params params = PeakParams(3, 40);
    AnalysisStream stream(params);
    bool black_peaks = false;
    for (const TestFrame& frame : frames) {
      // The issue first, with the default threshold: the later peaks are background pixels.
      params.peak_threshold = 0;
      stream.SetParams(params);
      stream.Push(frame);
      const lumamax_ref::Result expected = *stream.pushed().back().expected;
      const double background = expected.min.luma;
      black_peaks = black_peaks || (expected.peaks.size() == 3 && expected.peaks[2].luma == background);
      // Just above the background (black: 0 in RGB, 16/255 in I420) and half way: the ball only.
      for (double threshold : {std::nextafter(background, 2.0), 0.5}) {
        params.peak_threshold = threshold;
        stream.SetParams(params);
        stream.Push(frame);
        const size_t kept = stream.pushed().back().expected->peaks.size();
        fail_unless(kept >= 1 && kept < 3, "test data: %s: %zu peaks at threshold %g",
                    frame.Describe().c_str(), kept, threshold);
      }
      // White: the RGB ball's centre stays, I420's (Y 235) does not.
      params.peak_threshold = 1.0;
      stream.SetParams(params);
      stream.Push(frame);
    }
    fail_unless(black_peaks, "test data: %s: no frame with background peaks", frames[0].Describe().c_str());
    analysis_test::EndAndExpectStreamMatches(stream, name + " " + frames[0].Describe());
  }
}
GST_END_TEST;

GST_START_TEST(test_peaks) {
  const PeakCase& c = kPeaksCases[__i__];
  const std::string name = c.Name("peaks");
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(PeakParams(c.count, c.min_distance));

  stream.Push(BlobFrame(GST_VIDEO_FORMAT_RGBA, 97, 61, rng));
  ExpectPeakCount(stream.pushed().back(), c, 97 * 61);
  stream.Push(BlobFrame(GST_VIDEO_FORMAT_NV12, 97, 61, rng),
              vktest::InputPlacement{vktest::MemoryKind::kSystem, 5, 3});
  ExpectPeakCount(stream.pushed().back(), c, 97 * 61);
  stream.Push(TiedFrame(GST_VIDEO_FORMAT_GRAY8, 33, 17, rng));
  if (c.count == 64) {
    // Fewer pixels than count: every pixel is a candidate, and the list ends early.
    stream.Push(TiedFrame(GST_VIDEO_FORMAT_Y444, 7, 5, rng));
    stream.Push(TiedFrame(GST_VIDEO_FORMAT_BGR, 1, 1, rng));
  }
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

TCase* PeaksTCase() {
  TCase* tcase = vktest::NewTCase("peaks", 120);
  tcase_add_loop_test(tcase, test_peaks, 0, G_N_ELEMENTS(kPeaksCases));
  tcase_add_loop_test(tcase, test_peak_threshold, 0, G_N_ELEMENTS(kThresholdCases));
  tcase_add_test(tcase, test_peak_threshold_ball);
  return tcase;
}

}  // namespace lumamax_test
