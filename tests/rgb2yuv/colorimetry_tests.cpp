// Output caps that leave colorimetry (and siting) unset: the element must convert with
// GStreamer's defaults (BT.601 for SD heights, BT.709 above 576 lines, limited range), and what
// it negotiates must say so: the output is checked against the reference computed from
// GstVideoInfo of the negotiated caps.
#include <string>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "conversion_stream.h"
#include "formats.h"
#include "tcases.h"
#include "verify.h"

namespace rgb2yuv_test {
namespace {

struct DefaultCase {
  int width;
  int height;
  const char* chroma_site;  // "" leaves it unset too
  GstVideoColorMatrix default_matrix;
};

// Above 576 lines GstVideoInfo also defaults an unset siting to mpeg2, which the element's
// specification resolves differently (unset = jpeg); the HD case names the siting to keep the
// test about the matrix default only.
const DefaultCase kCases[] = {
    {33, 17, "", GST_VIDEO_COLOR_MATRIX_BT601},
    {16, 720, "jpeg", GST_VIDEO_COLOR_MATRIX_BT709},
};

}  // namespace

GST_START_TEST(test_unset_colorimetry_uses_defaults) {
  const GstVideoFormat output = kOutputFormats[__i__];
  for (const DefaultCase& c : kCases) {
    const std::string name = "default colorimetry " + vktest::FormatAndSize(output, c.width, c.height);
    std::mt19937 rng = vktest::RngFor(name);
    ConversionStream stream("rgb2yuv", OutputSpec{output, "", c.chroma_site});
    // A different input format per output format, so all of them meet this path.
    const GstVideoFormat input = kInputFormats[__i__ % kNumInputFormats];
    fail_unless(stream.Push(RandomRgbFrame(input, c.width, c.height, rng)) == GST_FLOW_OK, "%s: push failed",
                WithSeed(name).c_str());
    fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
    ExpectMatchesReference(stream, name);

    // The element may write the colorimetry it used into the caps, but it must be GStreamer's
    // default for these caps, which is also what the test expects it to be.
    GstCaps* bare =
        gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, vktest::FormatName(output), "width",
                            G_TYPE_INT, c.width, "height", G_TYPE_INT, c.height, nullptr);
    GstVideoInfo defaults;
    fail_unless(gst_video_info_from_caps(&defaults, bare));
    gst_caps_unref(bare);
    fail_unless_equals_int(defaults.colorimetry.matrix, c.default_matrix);
    fail_unless_equals_int(defaults.colorimetry.range, GST_VIDEO_COLOR_RANGE_16_235);
    const vktest::RecordedItem output_frame = stream.recorder().Buffers().at(0);
    fail_unless(output_frame.info.colorimetry.matrix == defaults.colorimetry.matrix &&
                    output_frame.info.colorimetry.range == defaults.colorimetry.range,
                "%s: negotiated %s, GStreamer's default colorimetry for these caps is matrix %d "
                "range %d",
                WithSeed(name).c_str(), output_frame.caps.c_str(), defaults.colorimetry.matrix,
                defaults.colorimetry.range);
    // An unset siting means centred chroma (jpeg) for rgb2yuv.
    fail_if(c.chroma_site[0] == '\0' && output_frame.info.chroma_site == GST_VIDEO_CHROMA_SITE_MPEG2,
            "%s: unset chroma-site was negotiated as mpeg2: %s", WithSeed(name).c_str(),
            output_frame.caps.c_str());
  }
}
GST_END_TEST;

TCase* ColorimetryTCase() {
  TCase* tcase = vktest::NewTCase("colorimetry", 120);
  tcase_add_loop_test(tcase, test_unset_colorimetry_uses_defaults, 0, kNumOutputFormats);
  return tcase;
}

}  // namespace rgb2yuv_test
