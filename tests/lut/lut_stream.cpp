#include "lut_stream.h"

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "common/bus_wait.h"
#include "common/packed_buffer.h"
#include "common/vktest.h"

namespace lut_test {

LutStream::LutStream(const Settings& settings) {
  // GstHarness aborts with a bare assertion when the element cannot start: say why first.
  vktest::RequirePhysicalDevice();
  GstElement* element = gst_element_factory_make("lut", nullptr);
  fail_unless(element != nullptr, "cannot create a lut element (is the plugin built and found?)");
  g_object_set(element, "location", settings.location.c_str(), "intensity", settings.intensity, nullptr);
  if (!settings.interpolation.empty())
    gst_util_set_object_arg(G_OBJECT(element), "interpolation", settings.interpolation.c_str());
  if (!settings.png_kind.empty())
    gst_util_set_object_arg(G_OBJECT(element), "png-kind", settings.png_kind.c_str());
  bus_ = gst_bus_new();
  gst_element_set_bus(element, bus_);
  harness_ = gst_harness_new_with_element(element, "sink", "src");
  gst_object_unref(element);
}

LutStream::~LutStream() {
  allocation_.reset();
  gst_harness_teardown(harness_);
  gst_object_unref(bus_);
}

void LutStream::Collect() {
  while (GstBuffer* buffer = gst_harness_try_pull(harness_)) {
    GstVideoFrame mapped;
    fail_unless(gst_video_frame_map(&mapped, &info_, buffer, GST_MAP_READ), "cannot map an output buffer");
    Frame frame{
        GST_VIDEO_INFO_FORMAT(&info_), GST_VIDEO_INFO_WIDTH(&info_), GST_VIDEO_INFO_HEIGHT(&info_), {}};
    const int row = frame.row_bytes();
    for (int y = 0; y < frame.height; ++y) {
      const auto* p = static_cast<const uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&mapped, 0)) +
                      size_t(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&mapped, 0);
      frame.pixels.insert(frame.pixels.end(), p, p + row);
    }
    gst_video_frame_unmap(&mapped);
    gst_buffer_unref(buffer);
    outputs_.push_back(std::move(frame));
  }
}

void LutStream::Push(const Frame& frame, int stride_padding, gsize offset) {
  if (!have_caps_ || GST_VIDEO_INFO_FORMAT(&info_) != frame.format ||
      GST_VIDEO_INFO_WIDTH(&info_) != frame.width || GST_VIDEO_INFO_HEIGHT(&info_) != frame.height) {
    gst_video_info_set_format(&info_, frame.format, frame.width, frame.height);
    GST_VIDEO_INFO_FPS_N(&info_) = 30;
    GST_VIDEO_INFO_FPS_D(&info_) = 1;
    GstCaps* caps = gst_video_info_to_caps(&info_);
    gst_harness_set_src_caps(harness_, gst_caps_ref(caps));
    allocation_.reset();
    allocation_ = std::make_unique<vktest::UpstreamAllocation>(harness_->srcpad, caps);
    gst_caps_unref(caps);
    have_caps_ = true;
  }
  GstBuffer* buffer;
  if (stride_padding == 0 && offset == 0) {
    buffer = allocation_->NewBuffer(frame.pixels.data(), frame.row_bytes());
  } else {
    buffer = vktest::NewSystemMemoryBuffer(info_, frame.pixels.data(), frame.row_bytes(),
                                           vktest::Placement{frame.row_bytes() + stride_padding, offset});
  }
  const GstFlowReturn flow = gst_harness_push(harness_, buffer);
  fail_unless(flow == GST_FLOW_OK, "pushing %s returned %s", frame.Describe().c_str(),
              gst_flow_get_name(flow));
  Collect();
}

std::vector<Frame> LutStream::Finish() {
  fail_unless(gst_harness_push_event(harness_, gst_event_new_eos()), "EOS was refused");
  Collect();
  return outputs_;
}

GstMessage* LutStream::PopMessage(GstMessageType type) {
  return vktest::PopMessage(bus_, type);
}

std::vector<Frame> Grade(const Settings& settings, const std::vector<Frame>& inputs, int stride_padding,
                         gsize offset) {
  LutStream stream(settings);
  for (const Frame& frame : inputs) stream.Push(frame, stride_padding, offset);
  std::vector<Frame> outputs = stream.Finish();
  fail_unless(outputs.size() == inputs.size(), "%zu frames in, %zu out", inputs.size(), outputs.size());
  return outputs;
}

}  // namespace lut_test
