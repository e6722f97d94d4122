#include "verify.h"

#include <gst/check/gstcheck.h>

#include <numeric>

namespace histogram_test {
namespace {

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
  analysis_test::ExpectHeaderMatches(got, frame, frame.expected.has_value(), where);

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

}  // namespace histogram_test
