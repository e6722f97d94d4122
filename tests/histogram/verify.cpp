#include "verify.h"

#include <gst/check/gstcheck.h>

#include <numeric>

namespace histogram_test {
namespace {

void ExpectTime(guint64 got, GstClockTime expected, const char* what, const std::string& where) {
  fail_unless(got == expected,
              "%s: %s %" GST_TIME_FORMAT " (%" G_GUINT64_FORMAT "), expected %" GST_TIME_FORMAT
              " (%" G_GUINT64_FORMAT ")",
              where.c_str(), what, GST_TIME_ARGS(got), got, GST_TIME_ARGS(expected), expected);
}

// "[k]=n [k+1]=m ...": a few entries from `from`, for failure messages (check truncates long
// ones, and histograms have up to 256 entries).
std::string Entries(const std::vector<guint64>& counts, size_t from) {
  std::string text;
  for (size_t i = from; i < counts.size() && i < from + 6; ++i) {
    text += "[" + std::to_string(i) + "]=" + std::to_string(counts[i]) + " ";
  }
  return text.empty() ? "(none)" : text;
}

void ExpectChannel(const std::vector<guint64>& got, const histogram_ref::ChannelHistogram& expected,
                   const std::string& where) {
  const char* name = histogram_ref::FieldName(expected.channel);
  fail_unless(got.size() == expected.counts.size(), "%s: \"%s\" has %zu entries, expected bins=%zu",
              where.c_str(), name, got.size(), expected.counts.size());
  // The sum first: a wrong total (pixels counted twice, chroma rounding) says more than the
  // first differing bin.
  const guint64 sum = std::accumulate(got.begin(), got.end(), guint64{0});
  fail_unless(sum == expected.samples,
              "%s: \"%s\" counts sum to %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT, where.c_str(),
              name, sum, expected.samples);
  size_t differ = 0;
  while (differ < got.size() && got[differ] == expected.counts[differ]) ++differ;
  const size_t from = differ > 2 ? differ - 2 : 0;
  fail_unless(differ == got.size(), "%s: \"%s\" differs from bin %zu\n  got      %s\n  expected %s",
              where.c_str(), name, differ, Entries(got, from).c_str(),
              Entries(expected.counts, from).c_str());
}

}  // namespace

void ExpectMessageMatches(const HistogramMessage& got, const PushedFrame& frame, const std::string& where) {
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

  const histogram_ref::Result& expected = *frame.expected;
  fail_unless(got.bins == expected.bins, "%s: bins=%u, expected %u", where.c_str(), got.bins, expected.bins);
  fail_unless(got.pixels == expected.pixels, "%s: pixels=%" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT,
              where.c_str(), got.pixels, expected.pixels);
  for (histogram_ref::Channel channel : histogram_ref::kAllChannels) {
    const char* name = histogram_ref::FieldName(channel);
    const histogram_ref::ChannelHistogram* want = expected.Find(channel);
    const auto field = got.channels.find(name);
    fail_unless((field != got.channels.end()) == (want != nullptr), "%s: field \"%s\" %s\n  message: %s",
                where.c_str(), name, want != nullptr ? "is missing" : "must not be there", got.text.c_str());
    if (want != nullptr) ExpectChannel(field->second, *want, where);
  }
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
  std::vector<const PushedFrame*> wanted;
  for (const PushedFrame& frame : stream.pushed()) {
    if (frame.WantsMessage()) wanted.push_back(&frame);
  }
  const std::vector<HistogramMessage> messages = stream.log().Histograms();
  fail_unless(messages.size() == wanted.size(),
              "%s: %zu frames pushed, %zu want a message, %zu histogram messages", WithSeed(context).c_str(),
              stream.pushed().size(), wanted.size(), messages.size());
  for (size_t i = 0; i < wanted.size(); ++i) {
    const std::string where = context + ": " + wanted[i]->description;
    fail_unless(messages[i].source == GST_OBJECT(stream.element()),
                "%s: message not posted by the histogram element", where.c_str());
    ExpectMessageMatches(messages[i], *wanted[i], where);
  }
}

}  // namespace histogram_test
