// Agreement with GStreamer's own software converter. videoconvert computes in fixed point and
// filters chroma in YUV, so ±2 is allowed; larger differences mean one of the two disagrees
// with the colour science, which the reference comparison then pins down.
#include <string>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "conversion_stream.h"
#include "formats.h"
#include "tcases.h"
#include "verify.h"

namespace rgb2yuv_test {
namespace {

constexpr int kWidth = 33;
constexpr int kHeight = 17;
constexpr int kTolerance = 2;

GstElement* NewVideoconvert() {
  GstElement* element = gst_element_factory_make("videoconvert", nullptr);
  fail_unless(element != nullptr, "videoconvert is missing (gstreamer1.0-plugins-base)");
  // Dithering would add noise of its own to the 8-bit output.
  gst_util_set_object_arg(G_OBJECT(element), "dither", "none");
  return element;
}

// GStreamer 1.22 unpacks the x byte of RGBx/BGRx/xRGB/xBGR as alpha (their format entries use
// the RGBA/BGRA/ARGB/ABGR unpackers), so videoconvert copies it into AYUV's alpha, whatever its
// alpha-mode. rgb2yuv writes opaque alpha as specified; for a like-for-like comparison the x
// bytes are made 0xff here. (The matrix tests keep random x bytes, which rgb2yuv must ignore.)
void MakeXBytesOpaque(RgbFrame& frame) {
  const reference::RgbLayout& layout = rgb2yuv_ref::LayoutOf(frame.format);
  if (layout.a >= 0 || layout.bytes_per_pixel != 4) return;
  const int x_byte = 6 - layout.r - layout.g - layout.b;  // the one offset of 0..3 left over
  for (size_t pixel = 0; pixel < frame.pixels.size(); pixel += 4) frame.pixels[pixel + x_byte] = 0xff;
}

// One pair of streams per format pair; downstream switches colorimetry and siting between the
// frames, so both elements renegotiate on RECONFIGURE.
void RunFormatPair(GstVideoFormat input, GstVideoFormat output) {
  const std::string name =
      std::string("videoconvert ") + vktest::FormatName(input) + "->" + vktest::FormatName(output);
  std::mt19937 rng = vktest::RngFor(name);
  const OutputSpec first{output, kColorSetups[0].CapsString(), kSitingSetups[0].chroma_site};
  ConversionStream tested("rgb2yuv", first);
  GstElement* videoconvert = NewVideoconvert();
  ConversionStream other(videoconvert, first);
  gst_object_unref(videoconvert);

  for (const ColorSetup& color : kColorSetups) {
    for (const SitingSetup& siting : kSitingSetups) {
      const OutputSpec spec{output, color.CapsString(), siting.chroma_site};
      tested.SetOutput(spec);
      other.SetOutput(spec);
      RgbFrame frame = RandomRgbFrame(input, kWidth, kHeight, rng);
      MakeXBytesOpaque(frame);
      fail_unless(tested.Push(frame) == GST_FLOW_OK, "%s: rgb2yuv push failed", WithSeed(name).c_str());
      fail_unless(other.Push(frame) == GST_FLOW_OK, "%s: videoconvert push failed", WithSeed(name).c_str());
    }
  }
  fail_unless(tested.EndOfStream() && other.EndOfStream(), "%s: EOS did not come out",
              WithSeed(name).c_str());
  ExpectMatchesReference(tested, name);
  ExpectStreamsAgree(tested, other, kTolerance, name);
}

}  // namespace

GST_START_TEST(test_agrees_with_videoconvert) {
  for (GstVideoFormat output : kOutputFormats) RunFormatPair(kInputFormats[__i__], output);
}
GST_END_TEST;

TCase* VideoconvertTCase() {
  TCase* tcase = vktest::NewTCase("videoconvert", 120);
  tcase_add_loop_test(tcase, test_agrees_with_videoconvert, 0, kNumInputFormats);
  return tcase;
}

}  // namespace rgb2yuv_test
