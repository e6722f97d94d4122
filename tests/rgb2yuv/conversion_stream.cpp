#include "conversion_stream.h"

#include <gst/check/gstcheck.h>

#include <string>

#include "common/packed_buffer.h"
#include "common/vktest.h"

namespace rgb2yuv_test {
namespace {

constexpr GstClockTime kFrameDuration = GST_SECOND / 30;

GstElement* MakeElement(const char* factory) {
  const std::string description = factory;
  // GstHarness aborts with a bare assertion when the element cannot start; without a device,
  // say so clearly first.
  if (description.find("rgb2yuv") != std::string::npos) vktest::RequirePhysicalDevice();
  if (description.find('!') != std::string::npos) {
    GError* error = nullptr;
    GstElement* bin = gst_parse_bin_from_description(factory, TRUE, &error);
    fail_unless(bin != nullptr && error == nullptr, "cannot make a bin of %s: %s", factory,
                error ? error->message : "?");
    return bin;
  }
  GstElement* element = gst_element_factory_make(factory, nullptr);
  fail_unless(element != nullptr, "cannot create a %s element (is the plugin built and found?)", factory);
  return element;
}

}  // namespace

GstCaps* OutputSpec::ToCaps() const {
  GstCaps* caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING,
                                      gst_video_format_to_string(format), nullptr);
  if (!colorimetry.empty()) {
    gst_caps_set_simple(caps, "colorimetry", G_TYPE_STRING, colorimetry.c_str(), nullptr);
  }
  if (!chroma_site.empty()) {
    gst_caps_set_simple(caps, "chroma-site", G_TYPE_STRING, chroma_site.c_str(), nullptr);
  }
  return caps;
}

std::string OutputSpec::Describe() const {
  return std::string(gst_video_format_to_string(format)) +
         " colorimetry=" + (colorimetry.empty() ? "(unset)" : colorimetry) +
         " chroma-site=" + (chroma_site.empty() ? "(unset)" : chroma_site);
}

ConversionStream::ConversionStream(GstElement* element, const OutputSpec& output, bool downstream_video_meta)
    : output_(output) {
  harness_ = gst_harness_new_with_element(element, "sink", "src");
  if (downstream_video_meta) {
    gst_harness_add_propose_allocation_meta(harness_, GST_VIDEO_META_API_TYPE, nullptr);
  }
  // The recorder decodes every output; the harness need not keep them (and must not: holding
  // buffers could exhaust a bounded output pool).
  gst_harness_set_drop_buffers(harness_, TRUE);
  recorder_ = std::make_unique<vktest::VideoOutputRecorder>(harness_->sinkpad, downstream_video_meta);
  gst_harness_set_sink_caps(harness_, output.ToCaps());
}

ConversionStream::ConversionStream(const char* factory, const OutputSpec& output, bool downstream_video_meta)
    : ConversionStream(MakeElement(factory), output, downstream_video_meta) {
  // The harness holds its own reference; drop the one from MakeElement().
  gst_object_unref(harness_->element);
}

ConversionStream::~ConversionStream() {
  // Buffers still in the element go back to the pool before it is deactivated.
  recorder_.reset();
  gst_harness_teardown(harness_);
  allocation_.reset();
}

void ConversionStream::SetOutput(const OutputSpec& output) {
  output_ = output;
  gst_harness_set_sink_caps(harness_, output.ToCaps());
}

void ConversionStream::SendInputCaps(const RgbFrame& frame) {
  gst_video_info_set_format(&input_info_, frame.format, frame.width, frame.height);
  GST_VIDEO_INFO_FPS_N(&input_info_) = 30;
  GST_VIDEO_INFO_FPS_D(&input_info_) = 1;
  GstCaps* caps = gst_video_info_to_caps(&input_info_);
  gchar* text = gst_caps_to_string(caps);
  const bool accepted = gst_harness_push_event(harness_, gst_event_new_caps(caps));
  fail_unless(accepted, "the element refused input caps %s (output %s)", text, output_.Describe().c_str());
  g_free(text);
  // Like a real source: a new allocation for every new format.
  allocation_.reset();
  allocation_ = std::make_unique<vktest::UpstreamAllocation>(harness_->srcpad, caps);
  gst_caps_unref(caps);
  if (!have_input_caps_) SendSegment();
  have_input_caps_ = true;
  // GstHarness only redoes its own ALLOCATION query (for gst_harness_create_buffer()) when
  // its pad is marked for reconfiguration.
  gst_pad_mark_reconfigure(harness_->srcpad);
}

void ConversionStream::SendSegment() {
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  fail_unless(gst_harness_push_event(harness_, gst_event_new_segment(&segment)),
              "the element refused a segment event");
}

GstFlowReturn ConversionStream::Push(const RgbFrame& frame, const InputPlacement& placement) {
  if (!have_input_caps_ || GST_VIDEO_INFO_FORMAT(&input_info_) != frame.format ||
      GST_VIDEO_INFO_WIDTH(&input_info_) != frame.width ||
      GST_VIDEO_INFO_HEIGHT(&input_info_) != frame.height) {
    SendInputCaps(frame);
  }

  const vktest::Placement where{frame.row_bytes + placement.stride_padding, placement.offset};
  GstBuffer* buffer = nullptr;
  switch (placement.memory) {
    case vktest::MemoryKind::kUpstreamPool:
      buffer = allocation_->NewBuffer(frame.pixels.data(), frame.row_bytes);
      break;
    case vktest::MemoryKind::kHarnessBuffer:
      buffer = gst_harness_create_buffer(harness_, GST_VIDEO_INFO_SIZE(&input_info_));
      vktest::FillPackedBuffer(buffer, input_info_, frame.pixels.data(), frame.row_bytes);
      break;
    case vktest::MemoryKind::kSystem:
      buffer = vktest::NewSystemMemoryBuffer(input_info_, frame.pixels.data(), frame.row_bytes, where);
      break;
    case vktest::MemoryKind::kSplit:
      buffer = vktest::NewSplitMemoryBuffer(input_info_, frame.pixels.data(), frame.row_bytes, where);
      break;
  }

  const GstClockTime pts = pushed_.size() * kFrameDuration;
  GST_BUFFER_PTS(buffer) = pts;
  GST_BUFFER_DURATION(buffer) = kFrameDuration;
  const GstFlowReturn flow = gst_harness_push(harness_, buffer);
  pushed_.push_back(PushedFrame{frame, placement, output_, pts, kFrameDuration, flow});
  return flow;
}

bool ConversionStream::EndOfStream(int timeout_ms) {
  gst_harness_push_event(harness_, gst_event_new_eos());
  return recorder_->WaitForEvent(GST_EVENT_EOS, timeout_ms);
}

void ConversionStream::FlushStart() {
  fail_unless(gst_harness_push_event(harness_, gst_event_new_flush_start()), "FLUSH_START was not handled");
}

void ConversionStream::FlushStop() {
  fail_unless(gst_harness_push_event(harness_, gst_event_new_flush_stop(TRUE)), "FLUSH_STOP was not handled");
  SendSegment();
}

}  // namespace rgb2yuv_test
