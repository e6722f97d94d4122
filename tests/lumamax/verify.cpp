#include "verify.h"

#include <gst/check/gstcheck.h>

#include <cmath>

namespace lumamax_test {
namespace {

std::vector<Spot> SpotsOf(const std::vector<lumamax_ref::Pixel>& pixels) {
  std::vector<Spot> spots;
  for (const lumamax_ref::Pixel& pixel : pixels) spots.push_back(Spot{pixel.x, pixel.y, pixel.luma});
  return spots;
}

bool SameSpot(const Spot& got, const lumamax_ref::Pixel& expected) {
  return got.x == expected.x && got.y == expected.y && std::fabs(got.luma - expected.luma) <= kLumaTolerance;
}

void ExpectSpot(const Spot& got, const lumamax_ref::Pixel& expected, const char* what,
                const std::string& where, const std::string& text) {
  fail_unless(SameSpot(got, expected),
              "%s: %s at (%d,%d) luma %.9f, expected (%d,%d) luma %.9f (L=%" G_GINT64_FORMAT
              ")\n  message: %s",
              where.c_str(), what, got.x, got.y, got.luma, expected.x, expected.y, expected.luma,
              static_cast<gint64>(expected.value), text.c_str());
}

}  // namespace

void ExpectMessageMatches(const LumamaxMessage& got, const PushedFrame& frame, const std::string& where) {
  analysis_test::ExpectHeaderMatches(got, frame, frame.expected.has_value(), where);

  const lumamax_ref::Result& expected = *frame.expected;
  ExpectSpot(got.max, expected.max, "max", where, got.text);
  ExpectSpot(got.min, expected.min, "min", where, got.text);
  fail_unless(std::fabs(got.mean_luma - expected.mean_luma) <= kMeanTolerance,
              "%s: mean-luma %.7f, expected %.7f", where.c_str(), got.mean_luma, expected.mean_luma);

  // The first difference and a few entries around it: lists of 64 peaks do not fit a message.
  size_t differ = 0;
  while (differ < got.peaks.size() && differ < expected.peaks.size() &&
         SameSpot(got.peaks[differ], expected.peaks[differ])) {
    ++differ;
  }
  const bool peaks_match = differ == got.peaks.size() && differ == expected.peaks.size();
  const size_t from = differ > 2 ? differ - 2 : 0;
  fail_unless(peaks_match,
              "%s: peaks differ from index %zu\n  got      %zu peaks: %s\n  expected %zu peaks: %s",
              where.c_str(), differ, got.peaks.size(), DescribeSpots(got.peaks, from).c_str(),
              expected.peaks.size(), DescribeSpots(SpotsOf(expected.peaks), from).c_str());
}

}  // namespace lumamax_test
