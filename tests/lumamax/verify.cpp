#include "verify.h"

#include <gst/check/gstcheck.h>

#include <cmath>

#include "common/test_seed.h"

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

void ExpectTime(guint64 got, GstClockTime expected, const char* what, const std::string& where) {
  fail_unless(got == expected,
              "%s: %s %" GST_TIME_FORMAT " (%" G_GUINT64_FORMAT "), expected %" GST_TIME_FORMAT
              " (%" G_GUINT64_FORMAT ")",
              where.c_str(), what, GST_TIME_ARGS(got), got, GST_TIME_ARGS(expected), expected);
}

}  // namespace

void ExpectMessageMatches(const LumamaxMessage& got, const PushedFrame& frame, const std::string& where) {
  fail_unless(got.problem.empty(), "%s: malformed message: %s\n  message: %s", where.c_str(),
              got.problem.c_str(), got.text.c_str());
  fail_unless(frame.expected.has_value(), "%s: a message for a frame whose ROI is empty: %s", where.c_str(),
              got.text.c_str());

  ExpectTime(got.timestamp, frame.pts, "timestamp", where);
  ExpectTime(got.duration, frame.duration, "duration", where);
  ExpectTime(got.running_time, gst_segment_to_running_time(&frame.segment, GST_FORMAT_TIME, frame.pts),
             "running-time", where);
  ExpectTime(got.stream_time, gst_segment_to_stream_time(&frame.segment, GST_FORMAT_TIME, frame.pts),
             "stream-time", where);

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

void ExpectFramesPassedThrough(const AnalysisStream& stream, const std::string& context) {
  for (const PushedFrame& frame : stream.pushed()) {
    fail_unless(frame.flow == GST_FLOW_OK, "%s: %s: push returned %s", context.c_str(),
                frame.description.c_str(), gst_flow_get_name(frame.flow));
    fail_unless(frame.output_problem.empty(), "%s: %s: %s", context.c_str(), frame.description.c_str(),
                frame.output_problem.c_str());
  }
}

void ExpectStreamMatches(const AnalysisStream& stream, const std::string& context) {
  ExpectFramesPassedThrough(stream, context);
  const std::vector<LumamaxMessage> messages = stream.log().Lumamax();
  const std::vector<PushedFrame>& frames = stream.pushed();
  fail_unless(messages.size() == frames.size(), "%s: %zu frames pushed, %zu lumamax messages",
              WithSeed(context).c_str(), frames.size(), messages.size());
  for (size_t i = 0; i < frames.size(); ++i) {
    const std::string where = context + ": " + frames[i].description;
    fail_unless(messages[i].source == GST_OBJECT(stream.element()),
                "%s: message not posted by the lumamax element", where.c_str());
    ExpectMessageMatches(messages[i], frames[i], where);
  }
}

}  // namespace lumamax_test
