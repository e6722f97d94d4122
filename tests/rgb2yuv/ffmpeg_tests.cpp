// Deeper than 8 bits against ffmpeg's zscale (zimg: float arithmetic, rounded, no dither): RGBA64_LE,
// 8-bit RGB and BGRA to 10- and 16-bit 4:4:4 (every plane: no chroma filter is involved) and to
// P010_10LE and I420_10LE (the Y plane: zimg filters chroma with its own resampler), BT.2020 limited
// and BT.709 full range, within ±1 code value. (swscale's scale filter, even with accurate_rnd, is
// 2 to 4 codes off the exact 10-bit values: its fixed-point paths keep less precision.)
#include <string>

#include "common/ffmpeg_run.h"
#include "common/temp_dir.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "conversion_stream.h"
#include "tcases.h"
#include "verify.h"

namespace rgb2yuv_test {
namespace {

struct Input {
  GstVideoFormat format;
  const char* pix_fmt;
};
struct Output {
  GstVideoFormat format;
  const char* pix_fmt;        // what zscale writes: for P010_10LE, the planar 10-bit 4:2:0 of the same values
  GstVideoFormat raw_format;  // its GStreamer name
  bool chroma;                // compare the chroma planes too
};
struct Color {
  const char* colorimetry;  // the caps'
  const char* matrix;       // zscale's matrix and range
  const char* range;
};

const Input kInputs[] = {{GST_VIDEO_FORMAT_RGBA64_LE, "rgba64le"},
                         {GST_VIDEO_FORMAT_RGB, "rgb24"},
                         {GST_VIDEO_FORMAT_BGRA, "bgra"}};
// zscale writes no P010: a repack by swscale would also turn full range into limited.
const Output kOutputs[] = {{GST_VIDEO_FORMAT_Y444_10LE, "yuv444p10le", GST_VIDEO_FORMAT_Y444_10LE, true},
                           {GST_VIDEO_FORMAT_Y444_16LE, "yuv444p16le", GST_VIDEO_FORMAT_Y444_16LE, true},
                           {GST_VIDEO_FORMAT_P010_10LE, "yuv420p10le", GST_VIDEO_FORMAT_I420_10LE, false},
                           {GST_VIDEO_FORMAT_I420_10LE, "yuv420p10le", GST_VIDEO_FORMAT_I420_10LE, false}};
const Color kColors[] = {{"bt2020", "2020_ncl", "limited"}, {"1:3:5:1", "709", "full"}};

// ffmpeg's rawvideo layout: planes one after the other, rows tightly packed (GStreamer's pads
// semi-planar luma to an even number of rows).
GstVideoInfo RawvideoInfo(GstVideoFormat format, int width, int height) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, width, height);
  gsize offset = 0;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
    guint c = 0;
    while (GST_VIDEO_FORMAT_INFO_PLANE(info.finfo, c) != p) ++c;
    info.offset[p] = offset;
    info.stride[p] = GST_VIDEO_INFO_COMP_WIDTH(&info, c) * GST_VIDEO_FORMAT_INFO_PSTRIDE(info.finfo, c);
    offset += gsize(info.stride[p]) * GST_VIDEO_INFO_COMP_HEIGHT(&info, c);
  }
  info.size = offset;
  return info;
}

// ffmpeg's output as samples.
vktest::YuvPlanes FromRawvideo(GstVideoInfo info, std::vector<uint8_t>& bytes) {
  fail_unless_equals_int(bytes.size(), info.size);
  GstBuffer* buffer = gst_buffer_new_wrapped_full(GstMemoryFlags(0), bytes.data(), bytes.size(), 0,
                                                  bytes.size(), nullptr, nullptr);
  GstVideoFrame frame;
  fail_unless(gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ));
  vktest::YuvPlanes planes = vktest::ReadFromFrame(frame);
  gst_video_frame_unmap(&frame);
  gst_buffer_unref(buffer);
  return planes;
}

GST_START_TEST(test_deep_against_ffmpeg) {
  const Input& input = kInputs[__i__];
  constexpr int kWidth = 96, kHeight = 62;  // zimg subsamples even sizes only
  const vktest::TempDir dir;
  for (const Output& output : kOutputs) {
    for (const Color& color : kColors) {
      const std::string name = std::string("ffmpeg ") + vktest::FormatName(input.format) + "->" +
                               vktest::FormatName(output.format) + " " + color.colorimetry;
      std::mt19937 rng = vktest::RngFor(name);
      const RgbFrame frame = RandomRgbFrame(input.format, kWidth, kHeight, rng);
      ConversionStream stream("rgb2yuv", OutputSpec{output.format, color.colorimetry, "jpeg"});
      fail_unless_equals_int(stream.Push(frame), GST_FLOW_OK);
      fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
      const std::vector<vktest::RecordedItem> outputs = stream.recorder().Buffers();
      fail_unless_equals_int(outputs.size(), 1);

      const std::string filter = std::string("zscale=dither=none:matrix=") + color.matrix +
                                 ":range=" + color.range + ",format=" + output.pix_fmt;
      const GstVideoInfo raw_info = RawvideoInfo(output.raw_format, kWidth, kHeight);
      std::vector<uint8_t> raw = vktest::RunFfmpeg(dir.Path(""), filter, kWidth, kHeight, frame.pixels,
                                                   input.pix_fmt, output.pix_fmt, raw_info.size);
      const vktest::YuvPlanes& ours = outputs[0].planes;
      vktest::YuvPlanes theirs = FromRawvideo(raw_info, raw);
      if (!output.chroma) {  // the Y plane only, in our format
        vktest::YuvPlanes luma = ours;
        luma.samples[0] = theirs.samples[0];
        theirs = luma;
      }
      const std::optional<vktest::SampleMismatch> mismatch = vktest::FindMismatch(ours, theirs, 1);
      fail_unless(!mismatch,
                  "%s vs ffmpeg -vf %s: %s (got = rgb2yuv, expected = ffmpeg); largest difference %d",
                  WithSeed(name).c_str(), filter.c_str(), mismatch ? vktest::Describe(*mismatch).c_str() : "",
                  vktest::MaxDifference(ours, theirs));
    }
  }
}
GST_END_TEST;

}  // namespace

TCase* FfmpegTCase() {
  TCase* tcase = vktest::NewTCase("ffmpeg", 300);
  tcase_add_loop_test(tcase, test_deep_against_ffmpeg, 0, G_N_ELEMENTS(kInputs));
  return tcase;
}

}  // namespace rgb2yuv_test
