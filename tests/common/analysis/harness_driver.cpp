#include "harness_driver.h"

#include <gst/check/gstcheck.h>

#include <algorithm>
#include <vector>

#include "common/vktest.h"

namespace analysis_test {
namespace {

std::vector<uint8_t> BufferBytes(GstBuffer* buffer) {
  std::vector<uint8_t> bytes(gst_buffer_get_size(buffer));
  gst_buffer_extract(buffer, 0, bytes.data(), bytes.size());
  return bytes;
}

// The element's factory name ("lumamax"), which failure messages name.
const char* FactoryName(GstElement* element) {
  return gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(gst_element_get_factory(element)));
}

}  // namespace

void RequireProperty(GstElement* element, const char* name) {
  fail_unless(g_object_class_find_property(G_OBJECT_GET_CLASS(element), name) != nullptr,
              "%s has no \"%s\" property", FactoryName(element), name);
}

void SetUint(GstElement* element, const char* name, guint value) {
  RequireProperty(element, name);
  g_object_set(element, name, value, nullptr);
}

HarnessDriver::HarnessDriver(const char* element_name, bool post_messages)
    : name_(element_name), post_messages_(post_messages) {
  // GstHarness aborts with a bare assertion when the element cannot start; say why first.
  vktest::RequirePhysicalDevice();
  element_ = gst_element_factory_make(element_name, nullptr);
  fail_unless(element_ != nullptr, "cannot create a %s element (is the plugin built and found?)",
              element_name);
  RequireProperty(element_, "post-messages");
  g_object_set(element_, "post-messages", post_messages ? TRUE : FALSE, nullptr);

  // The bus must be there before the harness starts the element: errors at start are messages.
  bus_ = gst_bus_new();
  gst_element_set_bus(element_, bus_);

  gst_segment_init(&segment_, GST_FORMAT_TIME);
  next_pts_ = segment_.start;
}

HarnessDriver::~HarnessDriver() {
  Stop();
  if (harness_ == nullptr && element_ != nullptr) gst_object_unref(element_);  // never started
  gst_object_unref(bus_);
}

void HarnessDriver::Start() {
  harness_ = gst_harness_new_with_element(element_, "sink", "src");
  gst_object_unref(element_);  // the harness holds its own reference
}

void HarnessDriver::Stop() {
  if (harness_ == nullptr) return;
  gst_harness_teardown(harness_);
  harness_ = nullptr;
  element_ = nullptr;
  // Buffers the element still held went back to the pool during teardown.
  allocation_.reset();
}

void HarnessDriver::SetPostMessages(bool post_messages) {
  post_messages_ = post_messages;
  g_object_set(element_, "post-messages", post_messages ? TRUE : FALSE, nullptr);
}

void HarnessDriver::SetSegment(const GstSegment& segment) {
  g_assert(segment.format == GST_FORMAT_TIME);
  segment_ = segment;
  segment_pending_ = true;
  next_pts_ = std::max(next_pts_, segment.start);
  if (have_caps_) SendSegment();
}

std::string HarnessDriver::ProposedKind() const {
  return allocation_ != nullptr && allocation_->has_pool() ? "proposed-pool" : "proposed-allocator";
}

void HarnessDriver::SendCaps(const TestFrame& frame) {
  info_ = frame.info;
  GstCaps* caps = gst_video_info_to_caps(&info_);
  gchar* text = gst_caps_to_string(caps);
  fail_unless(gst_harness_push_event(harness_, gst_event_new_caps(gst_caps_ref(caps))), "%s refused caps %s",
              name_.c_str(), text);
  g_free(text);
  // Like a real source: a new allocation for every new format, through the query the element
  // answers (or forwards downstream, as a passthrough element may).
  allocation_.reset();
  allocation_ = std::make_unique<vktest::UpstreamAllocation>(harness_->srcpad, caps);
  gst_caps_unref(caps);
  have_caps_ = true;
}

void HarnessDriver::SendSegment() {
  fail_unless(gst_harness_push_event(harness_, gst_event_new_segment(&segment_)),
              "%s refused a segment event", name_.c_str());
  segment_pending_ = false;
}

GstBuffer* HarnessDriver::NewBuffer(const TestFrame& frame, const vktest::InputPlacement& placement) {
  // The analysis suites push the proposed pool's buffers and build system and split memory; they
  // have no case for GstHarness's own buffers.
  fail_unless(placement.memory != vktest::MemoryKind::kHarnessBuffer, "test bug: no harness buffers here");
  if (placement.memory != vktest::MemoryKind::kUpstreamPool) return NewSystemBuffer(frame, placement);
  // The helper fills plane 0 only (packed formats); every plane is written right after.
  const int row_bytes = frame.width() * GST_VIDEO_INFO_COMP_PSTRIDE(&frame.info, 0);
  const std::vector<uint8_t> blank(static_cast<size_t>(row_bytes) * frame.height());
  GstBuffer* buffer = allocation_->NewBuffer(blank.data(), row_bytes);
  WriteFrame(frame, buffer);
  return buffer;
}

GstBuffer* HarnessDriver::Prepare(const TestFrame& frame, const vktest::InputPlacement& placement,
                                  FrameRecord* record) {
  if (!have_caps_ || !gst_video_info_is_equal(&info_, &frame.info)) SendCaps(frame);
  if (segment_pending_) SendSegment();

  GstBuffer* buffer = NewBuffer(frame, placement);
  record->format = frame.format();
  record->pts = next_pts_;
  record->duration = kFrameDuration;
  next_pts_ += kFrameDuration;
  GST_BUFFER_PTS(buffer) = record->pts;
  GST_BUFFER_DURATION(buffer) = record->duration;
  record->segment = segment_;
  record->post_messages = post_messages_;
  record->description =
      frame.Describe() + " " +
      (placement.memory == vktest::MemoryKind::kUpstreamPool ? ProposedKind() : placement.Describe()) +
      " frame#" + std::to_string(frames_++) + " ";
  return buffer;
}

void HarnessDriver::Deliver(GstBuffer* buffer, FrameRecord* record) {
  const std::vector<uint8_t> input_bytes = BufferBytes(buffer);
  record->flow = gst_harness_push(harness_, buffer);
  if (record->flow == GST_FLOW_OK) record->output_problem = CheckOutput(input_bytes, *record);
}

// Called right after a push that returned OK. A passthrough element pushes the frame on from
// its chain function, so it must be there now, unchanged, with the input caps.
std::string HarnessDriver::CheckOutput(const std::vector<uint8_t>& input_bytes, const FrameRecord& record) {
  std::string problem;
  GstBuffer* output = gst_harness_try_pull(harness_);
  if (output == nullptr) {
    problem = "no output buffer when the push returned";
  } else {
    if (GST_BUFFER_PTS(output) != record.pts || GST_BUFFER_DURATION(output) != record.duration) {
      problem = "output pts/duration differ from the input's";
    } else if (BufferBytes(output) != input_bytes) {
      problem = "output bytes differ from the input's";
    }
    gst_buffer_unref(output);
  }
  GstCaps* out_caps = gst_pad_get_current_caps(harness_->sinkpad);
  GstCaps* in_caps = gst_video_info_to_caps(&info_);
  if (out_caps == nullptr || !gst_caps_is_equal(out_caps, in_caps)) {
    problem += " output caps differ from the input caps";
  }
  if (out_caps != nullptr) gst_caps_unref(out_caps);
  gst_caps_unref(in_caps);
  return problem;
}

void HarnessDriver::PushSerializedEvent() {
  const std::string marker = name_ + "-test-marker";
  GstEvent* event =
      gst_event_new_custom(GST_EVENT_CUSTOM_DOWNSTREAM, gst_structure_new_empty(marker.c_str()));
  fail_unless(gst_harness_push_event(harness_, event), "%s refused a custom event", name_.c_str());
}

bool HarnessDriver::EndOfStream() {
  gst_harness_push_event(harness_, gst_event_new_eos());
  bool seen = false;
  while (GstEvent* event = gst_harness_try_pull_event(harness_)) {
    seen |= GST_EVENT_TYPE(event) == GST_EVENT_EOS;
    gst_event_unref(event);
  }
  return seen;
}

void HarnessDriver::FlushStart() {
  fail_unless(gst_harness_push_event(harness_, gst_event_new_flush_start()), "FLUSH_START was not handled");
}

void HarnessDriver::FlushStop() {
  fail_unless(gst_harness_push_event(harness_, gst_event_new_flush_stop(TRUE)), "FLUSH_STOP was not handled");
  SendSegment();
}

}  // namespace analysis_test
