// count and min-distance against the greedy reference, on frames with bright blobs (a peak and
// its slightly darker neighbours, which min-distance must skip), a plateau of equal pixels, and
// low-contrast noise full of ties that only raster order decides.
#include <string>

#include "analysis_stream.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "tcases.h"
#include "verify.h"

namespace lumamax_test {
namespace {

struct PeaksCase {
  guint count;
  guint min_distance;
};

const PeaksCase kPeaksCases[] = {
    {5, 0},      // the brightest distinct pixels, blob neighbours included
    {5, 1},      // the same selection: distinct pixels are always at least 1 apart
    {8, 5},      //
    {64, 0},     // the maximum count
    {64, 3},     //
    {10, 1000},  // nothing is that far away: only the maximum
    {64, 20},    // fewer peaks than count fit into 97x61
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
void ExpectPeakCount(const PushedFrame& frame, const PeaksCase& c, int pixels) {
  const size_t got = frame.expected->peaks.size();
  bool ok = true;
  if (c.min_distance <= 1) ok = got == std::min<size_t>(c.count, pixels);
  if (c.min_distance >= 1000) ok = got == 1;
  if (c.min_distance == 20) ok = got > 1 && got < c.count;
  fail_unless(ok, "test data: %s: the reference selects %zu peaks", frame.description.c_str(), got);
}

}  // namespace

GST_START_TEST(test_peaks) {
  const PeaksCase& c = kPeaksCases[__i__];
  const std::string name =
      "peaks count=" + std::to_string(c.count) + " min-distance=" + std::to_string(c.min_distance);
  std::mt19937 rng = vktest::RngFor(name);
  lumamax_ref::Params params;
  params.count = c.count;
  params.min_distance = c.min_distance;
  AnalysisStream stream(params);

  stream.Push(BlobFrame(GST_VIDEO_FORMAT_RGBA, 97, 61, rng));
  ExpectPeakCount(stream.pushed().back(), c, 97 * 61);
  stream.Push(BlobFrame(GST_VIDEO_FORMAT_NV12, 97, 61, rng), Placement{Memory::kSystem, 5, 3});
  ExpectPeakCount(stream.pushed().back(), c, 97 * 61);
  stream.Push(TiedFrame(GST_VIDEO_FORMAT_GRAY8, 33, 17, rng));
  if (c.count == 64) {
    // Fewer pixels than count: every pixel is a candidate, and the list ends early.
    stream.Push(TiedFrame(GST_VIDEO_FORMAT_Y444, 7, 5, rng));
    stream.Push(TiedFrame(GST_VIDEO_FORMAT_BGR, 1, 1, rng));
  }
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectStreamMatches(stream, name);
}
GST_END_TEST;

TCase* PeaksTCase() {
  TCase* tcase = vktest::NewTCase("peaks", 120);
  tcase_add_loop_test(tcase, test_peaks, 0, G_N_ELEMENTS(kPeaksCases));
  return tcase;
}

}  // namespace lumamax_test
