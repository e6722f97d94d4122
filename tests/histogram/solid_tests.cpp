// One colour everywhere: each channel's histogram must be a single full bin, its count equal to
// the pixel (or chroma sample) count. Checked directly, not only against the reference, and on
// full-HD frames too, where counts in the millions catch lost atomic increments or partial
// coverage of the frame by the GPU's workgroups.
#include <string>
#include <vector>

#include "common/analysis/formats.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "histogram_case.h"
#include "tcases.h"
#include "verify.h"

namespace histogram_test {
namespace {

using analysis_test::kFormats;
using histogram_ref::Channel;

// The value every sample of `channel` holds in a `format` frame filled with `colour`.
uint8_t SolidValue(GstVideoFormat format, const Colour& colour, Channel channel, reference::Matrix matrix) {
  switch (channel) {
    case Channel::kRed: return colour[0];
    case Channel::kGreen: return colour[1];
    case Channel::kBlue: return colour[2];
    case Channel::kAlpha: return colour[3];
    case Channel::kU: return colour[1];
    case Channel::kV: return colour[2];
    case Channel::kLuma: break;
  }
  if (!histogram_ref::IsRgb(format)) return colour[0];
  return histogram_ref::RgbLuma(reference::WeightsOf(matrix), colour[0], colour[1], colour[2]);
}

// Every channel of `message` holds all of its samples in the bin of its solid value, the
// samples being the pixels, or for chroma of 4:2:0 the ceil(w/2) x ceil(h/2) samples.
void ExpectSingleBins(const HistogramMessage& message, const PushedFrame& frame, const Colour& colour,
                      int width, int height) {
  const std::string& where = frame.description;
  fail_unless(message.problem.empty(), "%s: malformed message: %s", where.c_str(), message.problem.c_str());
  const guint64 pixels = guint64(width) * height;
  fail_unless(message.pixels == pixels, "%s: pixels=%" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT,
              where.c_str(), message.pixels, pixels);
  const bool half_chroma = frame.format == GST_VIDEO_FORMAT_I420 || frame.format == GST_VIDEO_FORMAT_NV12;
  for (Channel channel : histogram_ref::ChannelsOf(frame.format)) {
    const char* name = histogram_ref::FieldName(channel);
    const auto field = message.channels.find(name);
    fail_unless(field != message.channels.end(), "%s: no \"%s\" field", where.c_str(), name);
    const std::vector<guint64>& counts = field->second;
    fail_unless(counts.size() == frame.params.bins, "%s: \"%s\" has %zu entries, expected %u", where.c_str(),
                name, counts.size(), frame.params.bins);
    const bool chroma = channel == Channel::kU || channel == Channel::kV;
    const guint64 samples = chroma && half_chroma ? guint64((width + 1) / 2) * ((height + 1) / 2) : pixels;
    const uint8_t value = SolidValue(frame.format, colour, channel, frame.params.matrix);
    const guint bin = histogram_ref::BinOf(value, frame.params.bins);
    for (guint i = 0; i < counts.size(); ++i) {
      const guint64 expected = i == bin ? samples : 0;
      fail_unless(counts[i] == expected,
                  "%s: \"%s\" of value %d: bin %u holds %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT,
                  where.c_str(), name, value, i, counts[i], expected);
    }
  }
}

struct SolidCase {
  GstVideoFormat format;
  int width;
  int height;
  Colour colour;
};

// Pushes every case (with `bins`), ends the stream, checks each message directly and then the
// whole stream against the reference.
void RunSolidCases(const std::vector<SolidCase>& cases, guint bins, const std::string& name) {
  std::mt19937 rng = vktest::RngFor(name);
  AnalysisStream stream(Bins(bins));
  for (const SolidCase& c : cases) stream.Push(SolidFrame(c.format, c.width, c.height, c.colour, rng));
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  const std::vector<HistogramMessage> messages = stream.log().Messages();
  fail_unless(messages.size() == cases.size(), "%s: %zu frames, %zu histogram messages",
              WithSeed(name).c_str(), cases.size(), messages.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    ExpectSingleBins(messages[i], stream.pushed()[i], cases[i].colour, cases[i].width, cases[i].height);
  }
  analysis_test::ExpectStreamMatches(stream, name);
}

}  // namespace

// Full HD: 2073600 pixels in one bin per channel. GRAY8 is the cheapest format to read, RGBA the
// one with the most channels; I420 and NV12 add 518400 chroma samples per chroma channel.
GST_START_TEST(test_solid_full_hd) {
  RunSolidCases({{GST_VIDEO_FORMAT_GRAY8, 1920, 1080, {77, 0, 0, 0}},
                 {GST_VIDEO_FORMAT_RGBA, 1920, 1080, {200, 100, 50, 255}},
                 {GST_VIDEO_FORMAT_I420, 1920, 1080, {16, 128, 240, 0}},
                 {GST_VIDEO_FORMAT_NV12, 1920, 1080, {235, 16, 255, 0}}},
                256, "solid full hd");
}
GST_END_TEST;

// Count-heavy frames for the 8-bit kernel (256 bins): every invocation adds to one bin of each
// histogram, on frames of more tiles than its grid has workgroups (the stride loop runs): RGBA and
// BGRx wider than 1080p, GRAY8 of 560 tiles, a 1x600000 GRAY8 column (a load per row) and NV12 with
// rows not 16-byte aligned.
GST_START_TEST(test_solid_many_tiles) {
  RunSolidCases({{GST_VIDEO_FORMAT_RGBA, 2048, 1080, {255, 255, 255, 255}},
                 {GST_VIDEO_FORMAT_BGRx, 2050, 1082, {3, 250, 128, 0}},
                 {GST_VIDEO_FORMAT_GRAY8, 2048, 1120, {255, 0, 0, 0}},
                 {GST_VIDEO_FORMAT_GRAY8, 1, 600000, {0, 0, 0, 0}},
                 {GST_VIDEO_FORMAT_NV12, 1930, 1082, {128, 1, 254, 0}}},
                256, "solid many tiles");
}
GST_END_TEST;

// Every format, odd and even sizes, extreme values (0 and 255: the first and the last bin) and
// mid values, with 256 bins and with 10 (unequal bin widths).
GST_START_TEST(test_solid_every_format) {
  const guint bins = __i__ == 0 ? 256 : 10;
  std::vector<SolidCase> cases;
  for (GstVideoFormat format : kFormats) {
    cases.push_back({format, 64, 36, {0, 255, 128, 255}});
    cases.push_back({format, 33, 17, {255, 0, 26, 0}});
    cases.push_back({format, 1, 1, {25, 26, 230, 129}});
  }
  RunSolidCases(cases, bins, "solid bins=" + std::to_string(bins));
}
GST_END_TEST;

TCase* SolidTCase() {
  TCase* tcase = vktest::NewTCase("solid", 180);
  tcase_add_test(tcase, test_solid_full_hd);
  tcase_add_test(tcase, test_solid_many_tiles);
  tcase_add_loop_test(tcase, test_solid_every_format, 0, 2);
  return tcase;
}

}  // namespace histogram_test
