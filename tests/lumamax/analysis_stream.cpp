#include "analysis_stream.h"

#include <gst/check/gstcheck.h>

#include <algorithm>
#include <cstring>

#include "common/test_seed.h"
#include "common/vktest.h"

namespace lumamax_test {
namespace {

// Properties are set by name; a missing one must fail clearly rather than as a GLib warning.
void RequireProperty(GstElement* element, const char* name) {
  fail_unless(g_object_class_find_property(G_OBJECT_GET_CLASS(element), name) != nullptr,
              "lumamax has no \"%s\" property", name);
}

void SetUint(GstElement* element, const char* name, guint value) {
  RequireProperty(element, name);
  g_object_set(element, name, value, nullptr);
}

std::vector<uint8_t> BufferBytes(GstBuffer* buffer) {
  std::vector<uint8_t> bytes(gst_buffer_get_size(buffer));
  gst_buffer_extract(buffer, 0, bytes.data(), bytes.size());
  return bytes;
}

}  // namespace

std::string DescribeParams(const lumamax_ref::Params& params) {
  return "count=" + std::to_string(params.count) + " min-distance=" + std::to_string(params.min_distance) +
         " matrix=" + lumamax_ref::Nick(params.matrix) + " roi=" + std::to_string(params.roi.x) + "," +
         std::to_string(params.roi.y) + "," + std::to_string(params.roi.width) + "x" +
         std::to_string(params.roi.height);
}

void ApplyParams(GstElement* element, const lumamax_ref::Params& params) {
  SetUint(element, "count", params.count);
  SetUint(element, "min-distance", params.min_distance);
  SetUint(element, "roi-x", params.roi.x);
  SetUint(element, "roi-y", params.roi.y);
  SetUint(element, "roi-width", params.roi.width);
  SetUint(element, "roi-height", params.roi.height);
  RequireProperty(element, "matrix");
  gst_util_set_object_arg(G_OBJECT(element), "matrix", lumamax_ref::Nick(params.matrix));
}

AnalysisStream::AnalysisStream(const lumamax_ref::Params& params, bool post_messages) : params_(params) {
  // GstHarness aborts with a bare assertion when the element cannot start; say why first.
  vktest::RequirePhysicalDevice();
  GstElement* element = gst_element_factory_make("lumamax", nullptr);
  fail_unless(element != nullptr, "cannot create a lumamax element (is the plugin built and found?)");
  ApplyParams(element, params);
  RequireProperty(element, "post-messages");
  g_object_set(element, "post-messages", post_messages ? TRUE : FALSE, nullptr);

  // The bus must be there before the harness starts the element: errors at start are messages.
  bus_ = gst_bus_new();
  gst_element_set_bus(element, bus_);
  log_ = std::make_unique<MessageLog>(bus_);

  harness_ = gst_harness_new_with_element(element, "sink", "src");
  gst_object_unref(element);  // the harness holds its own reference

  gst_segment_init(&segment_, GST_FORMAT_TIME);
  next_pts_ = segment_.start;
}

AnalysisStream::~AnalysisStream() {
  gst_harness_teardown(harness_);
  // Buffers the element still held went back to the pool during teardown.
  allocation_.reset();
  log_.reset();
  gst_object_unref(bus_);
}

void AnalysisStream::SetParams(const lumamax_ref::Params& params) {
  params_ = params;
  ApplyParams(harness_->element, params);
}

void AnalysisStream::SetSegment(const GstSegment& segment) {
  g_assert(segment.format == GST_FORMAT_TIME);
  segment_ = segment;
  segment_pending_ = true;
  next_pts_ = std::max(next_pts_, segment.start);
  if (have_caps_) SendSegment();
}

std::string AnalysisStream::ProposedKind() const {
  return allocation_ != nullptr && allocation_->has_pool() ? "proposed-pool" : "proposed-allocator";
}

void AnalysisStream::SendCaps(const TestFrame& frame) {
  info_ = frame.info;
  GstCaps* caps = gst_video_info_to_caps(&info_);
  gchar* text = gst_caps_to_string(caps);
  fail_unless(gst_harness_push_event(harness_, gst_event_new_caps(gst_caps_ref(caps))),
              "lumamax refused caps %s", text);
  g_free(text);
  // Like a real source: a new allocation for every new format, through the query the element
  // answers (or forwards downstream, as a passthrough element may).
  allocation_.reset();
  allocation_ = std::make_unique<vktest::UpstreamAllocation>(harness_->srcpad, caps);
  gst_caps_unref(caps);
  have_caps_ = true;
}

void AnalysisStream::SendSegment() {
  fail_unless(gst_harness_push_event(harness_, gst_event_new_segment(&segment_)),
              "lumamax refused a segment event");
  segment_pending_ = false;
}

GstBuffer* AnalysisStream::NewBuffer(const TestFrame& frame, const Placement& placement) {
  if (placement.memory != Memory::kProposed) return NewSystemBuffer(frame, placement);
  // The helper fills plane 0 only (packed formats); every plane is written right after.
  const int row_bytes = frame.width() * GST_VIDEO_INFO_COMP_PSTRIDE(&frame.info, 0);
  const std::vector<uint8_t> blank(static_cast<size_t>(row_bytes) * frame.height());
  GstBuffer* buffer = allocation_->NewBuffer(blank.data(), row_bytes);
  WriteFrame(frame, buffer);
  return buffer;
}

GstFlowReturn AnalysisStream::Push(const TestFrame& frame, const Placement& placement) {
  if (!have_caps_ || !gst_video_info_is_equal(&info_, &frame.info)) SendCaps(frame);
  if (segment_pending_) SendSegment();

  GstBuffer* buffer = NewBuffer(frame, placement);
  PushedFrame pushed;
  pushed.pts = next_pts_;
  pushed.duration = kFrameDuration;
  next_pts_ += kFrameDuration;
  GST_BUFFER_PTS(buffer) = pushed.pts;
  GST_BUFFER_DURATION(buffer) = pushed.duration;
  pushed.segment = segment_;
  pushed.params = params_;
  pushed.expected = AnalyzeBuffer(buffer, info_, params_);
  pushed.description = frame.Describe() + " " +
                       (placement.memory == Memory::kProposed ? ProposedKind() : placement.Describe()) +
                       " frame#" + std::to_string(pushed_.size()) + " " + DescribeParams(params_) + ", " +
                       vktest::SeedDescription();

  const std::vector<uint8_t> input_bytes = BufferBytes(buffer);
  pushed.flow = gst_harness_push(harness_, buffer);
  if (pushed.flow == GST_FLOW_OK) {
    // A passthrough element pushes the frame on from its chain function: it must be there now.
    GstBuffer* output = gst_harness_try_pull(harness_);
    if (output == nullptr) {
      pushed.output_problem = "no output buffer when the push returned";
    } else {
      if (GST_BUFFER_PTS(output) != pushed.pts || GST_BUFFER_DURATION(output) != pushed.duration) {
        pushed.output_problem = "output pts/duration differ from the input's";
      } else if (BufferBytes(output) != input_bytes) {
        pushed.output_problem = "output bytes differ from the input's";
      }
      gst_buffer_unref(output);
    }
    GstCaps* out_caps = gst_pad_get_current_caps(harness_->sinkpad);
    GstCaps* in_caps = gst_video_info_to_caps(&info_);
    if (out_caps == nullptr || !gst_caps_is_equal(out_caps, in_caps)) {
      pushed.output_problem += " output caps differ from the input caps";
    }
    if (out_caps != nullptr) gst_caps_unref(out_caps);
    gst_caps_unref(in_caps);
  }
  pushed_.push_back(std::move(pushed));
  return pushed_.back().flow;
}

void AnalysisStream::PushSerializedEvent() {
  GstEvent* event =
      gst_event_new_custom(GST_EVENT_CUSTOM_DOWNSTREAM, gst_structure_new_empty("lumamax-test-marker"));
  fail_unless(gst_harness_push_event(harness_, event), "lumamax refused a custom event");
}

bool AnalysisStream::EndOfStream() {
  gst_harness_push_event(harness_, gst_event_new_eos());
  bool seen = false;
  while (GstEvent* event = gst_harness_try_pull_event(harness_)) {
    seen |= GST_EVENT_TYPE(event) == GST_EVENT_EOS;
    gst_event_unref(event);
  }
  return seen;
}

void AnalysisStream::Flush() {
  FlushStart();
  FlushStop();
}

void AnalysisStream::FlushStart() {
  fail_unless(gst_harness_push_event(harness_, gst_event_new_flush_start()), "FLUSH_START was not handled");
}

void AnalysisStream::FlushStop() {
  fail_unless(gst_harness_push_event(harness_, gst_event_new_flush_stop(TRUE)), "FLUSH_STOP was not handled");
  SendSegment();
}

}  // namespace lumamax_test
