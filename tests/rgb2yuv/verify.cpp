#include "verify.h"

#include <gst/check/gstcheck.h>

#include "common/format_names.h"
#include "common/test_seed.h"

namespace rgb2yuv_test {
namespace {

// The negotiated caps must be ones downstream asked for: otherwise the element ignored the
// colorimetry or siting request and the reference would be computed from the wrong parameters.
void ExpectCapsWithinRequest(const vktest::RecordedItem& output, const PushedFrame& input,
                             const std::string& where) {
  GstCaps* negotiated = gst_caps_from_string(output.caps.c_str());
  GstCaps* requested = input.output.ToCaps();
  const bool subset = gst_caps_is_subset(negotiated, requested);
  gchar* requested_text = gst_caps_to_string(requested);
  gst_caps_unref(negotiated);
  gst_caps_unref(requested);
  fail_unless(subset, "%s: output caps %s are not within the requested %s", where.c_str(),
              output.caps.c_str(), requested_text);
  g_free(requested_text);
}

}  // namespace

std::string DescribeFrame(const PushedFrame& input, size_t index) {
  return "in=" + vktest::FormatAndSize(input.frame.format, input.frame.width, input.frame.height) + " " +
         input.placement.Describe() + " frame#" + std::to_string(index) +
         " -> out=" + input.output.Describe() + ", " + vktest::SeedDescription();
}

void ExpectOutputMatchesReference(const vktest::RecordedItem& output, const PushedFrame& input,
                                  const std::string& where,
                                  const std::optional<rgb2yuv_ref::Params>& params) {
  fail_unless(output.layout_problem.empty(), "%s: %s", where.c_str(), output.layout_problem.c_str());
  ExpectCapsWithinRequest(output, input, where);
  fail_unless(GST_VIDEO_INFO_WIDTH(&output.info) == input.frame.width &&
                  GST_VIDEO_INFO_HEIGHT(&output.info) == input.frame.height,
              "%s: output is %dx%d", where.c_str(), GST_VIDEO_INFO_WIDTH(&output.info),
              GST_VIDEO_INFO_HEIGHT(&output.info));
  fail_unless(output.pts == input.pts && output.duration == input.duration,
              "%s: output pts %" GST_TIME_FORMAT " duration %" GST_TIME_FORMAT ", input pts %" GST_TIME_FORMAT
              " duration %" GST_TIME_FORMAT,
              where.c_str(), GST_TIME_ARGS(output.pts), GST_TIME_ARGS(output.duration),
              GST_TIME_ARGS(input.pts), GST_TIME_ARGS(input.duration));

  if (!params) {
    const GstVideoColorMatrix matrix = output.info.colorimetry.matrix;
    fail_unless(matrix == GST_VIDEO_COLOR_MATRIX_BT601 || matrix == GST_VIDEO_COLOR_MATRIX_BT709 ||
                    matrix == GST_VIDEO_COLOR_MATRIX_BT2020,
                "%s: negotiated caps %s name a matrix rgb2yuv does not implement", where.c_str(),
                output.caps.c_str());
  }
  const rgb2yuv_ref::Params used = params ? *params : rgb2yuv_ref::ParamsFromVideoInfo(output.info);
  const vktest::YuvPlanes expected =
      rgb2yuv_ref::Convert(input.frame.View(), GST_VIDEO_INFO_FORMAT(&output.info), used);
  const std::optional<vktest::SampleMismatch> mismatch = vktest::FindMismatch(output.planes, expected, 1);
  fail_unless(!mismatch, "%s (caps %s): %s; largest difference %d", where.c_str(), output.caps.c_str(),
              mismatch ? vktest::Describe(*mismatch).c_str() : "",
              vktest::MaxDifference(output.planes, expected));
}

void ExpectMatchesReference(const ConversionStream& stream, const std::string& context,
                            const std::optional<rgb2yuv_ref::Params>& params) {
  const std::vector<vktest::RecordedItem> outputs = stream.recorder().Buffers();
  const std::vector<PushedFrame>& inputs = stream.pushed();
  fail_unless(outputs.size() == inputs.size(), "%s: %zu frames pushed, %zu came out",
              WithSeed(context).c_str(), inputs.size(), outputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    fail_unless(inputs[i].flow == GST_FLOW_OK, "%s: %s: pushing returned %s", context.c_str(),
                DescribeFrame(inputs[i], i).c_str(), gst_flow_get_name(inputs[i].flow));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    ExpectOutputMatchesReference(outputs[i], inputs[i], context + ": " + DescribeFrame(inputs[i], i), params);
  }
}

void ExpectStreamsAgree(const ConversionStream& tested, const ConversionStream& other, int tolerance,
                        const std::string& context) {
  const std::vector<vktest::RecordedItem> a = tested.recorder().Buffers();
  const std::vector<vktest::RecordedItem> b = other.recorder().Buffers();
  fail_unless(a.size() == b.size() && a.size() == tested.pushed().size(),
              "%s: %zu frames pushed, %zu and %zu came out", WithSeed(context).c_str(),
              tested.pushed().size(), a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const std::string where = context + ": " + DescribeFrame(tested.pushed()[i], i);
    fail_unless(a[i].layout_problem.empty(), "%s: %s", where.c_str(), a[i].layout_problem.c_str());
    fail_unless(b[i].layout_problem.empty(), "%s: other converter: %s", where.c_str(),
                b[i].layout_problem.c_str());
    fail_unless(GST_VIDEO_INFO_FORMAT(&a[i].info) == GST_VIDEO_INFO_FORMAT(&b[i].info),
                "%s: caps differ: %s vs %s", where.c_str(), a[i].caps.c_str(), b[i].caps.c_str());
    const std::optional<vktest::SampleMismatch> mismatch =
        vktest::FindMismatch(a[i].planes, b[i].planes, tolerance);
    fail_unless(!mismatch,
                "%s: differs from the other converter by more than %d: %s (got = "
                "tested element, expected = other converter; caps %s vs %s)",
                where.c_str(), tolerance, mismatch ? vktest::Describe(*mismatch).c_str() : "",
                a[i].caps.c_str(), b[i].caps.c_str());
  }
}

void RunAgainstReference(const std::string& prefix, GstVideoFormat input, GstVideoFormat output,
                         const ColorSetup& color, const SitingSetup& siting, const std::vector<Step>& steps,
                         const char* converter) {
  const std::string name = prefix + " " + vktest::FormatName(input) + "->" + vktest::FormatName(output) +
                           " " + color.label + " " + siting.chroma_site;
  std::mt19937 rng = vktest::RngFor(name);
  ConversionStream stream(converter, OutputSpec{output, color.CapsString(), siting.chroma_site});
  for (const Step& step : steps) {
    const GstFlowReturn flow =
        stream.Push(RandomRgbFrame(input, step.width, step.height, rng), step.placement);
    fail_unless(flow == GST_FLOW_OK, "%s: %s: push returned %s", name.c_str(),
                DescribeFrame(stream.pushed().back(), stream.pushed().size() - 1).c_str(),
                gst_flow_get_name(flow));
  }
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", WithSeed(name).c_str());
  ExpectMatchesReference(stream, name, rgb2yuv_ref::MakeParams(color.matrix, color.range, siting.siting));
}

}  // namespace rgb2yuv_test
