#include "stream_checks.h"

namespace analysis_test {
namespace {

void ExpectTime(guint64 got, GstClockTime expected, const char* what, const std::string& where) {
  fail_unless(got == expected,
              "%s: %s %" GST_TIME_FORMAT " (%" G_GUINT64_FORMAT "), expected %" GST_TIME_FORMAT
              " (%" G_GUINT64_FORMAT ")",
              where.c_str(), what, GST_TIME_ARGS(got), got, GST_TIME_ARGS(expected), expected);
}

}  // namespace

void ExpectPassedThrough(const FrameRecord& frame, const std::string& context) {
  fail_unless(frame.flow == GST_FLOW_OK, "%s: %s: push returned %s", context.c_str(),
              frame.description.c_str(), gst_flow_get_name(frame.flow));
  fail_unless(frame.output_problem.empty(), "%s: %s: %s", context.c_str(), frame.description.c_str(),
              frame.output_problem.c_str());
}

void ExpectHeaderMatches(const MessageHeader& got, const FrameRecord& frame, bool has_expected,
                         const std::string& where) {
  fail_unless(got.problem.empty(), "%s: malformed message: %s\n  message: %s", where.c_str(),
              got.problem.c_str(), got.text.c_str());
  fail_unless(has_expected, "%s: a message for a frame whose ROI is empty: %s", where.c_str(),
              got.text.c_str());

  ExpectTime(got.timestamp, frame.pts, "timestamp", where);
  ExpectTime(got.duration, frame.duration, "duration", where);
  ExpectTime(got.running_time, gst_segment_to_running_time(&frame.segment, GST_FORMAT_TIME, frame.pts),
             "running-time", where);
  ExpectTime(got.stream_time, gst_segment_to_stream_time(&frame.segment, GST_FORMAT_TIME, frame.pts),
             "stream-time", where);
}

}  // namespace analysis_test
