#include "analysis_stream.h"

#include <gst/check/gstcheck.h>

#include <algorithm>

#include "buffer_reference.h"
#include "common/test_seed.h"
#include "common/vktest.h"

namespace histogram_test {
namespace {

// Properties are set by name; a missing one must fail clearly rather than as a GLib warning.
void RequireProperty(GstElement* element, const char* name) {
  fail_unless(g_object_class_find_property(G_OBJECT_GET_CLASS(element), name) != nullptr,
              "histogram has no \"%s\" property", name);
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

std::string DescribeParams(const histogram_ref::Params& params) {
  return "bins=" + std::to_string(params.bins) + " matrix=" + histogram_ref::Nick(params.matrix) +
         " roi=" + std::to_string(params.roi.x) + "," + std::to_string(params.roi.y) + "," +
         std::to_string(params.roi.width) + "x" + std::to_string(params.roi.height);
}

void ApplyParams(GstElement* element, const histogram_ref::Params& params) {
  SetUint(element, "bins", params.bins);
  SetUint(element, "roi-x", params.roi.x);
  SetUint(element, "roi-y", params.roi.y);
  SetUint(element, "roi-width", params.roi.width);
  SetUint(element, "roi-height", params.roi.height);
  RequireProperty(element, "matrix");
  gst_util_set_object_arg(G_OBJECT(element), "matrix", histogram_ref::Nick(params.matrix));
}

AnalysisStream::AnalysisStream(const histogram_ref::Params& params, bool post_messages)
    : params_(params), post_messages_(post_messages) {
  // GstHarness aborts with a bare assertion when the element cannot start; say why first.
  vktest::RequirePhysicalDevice();
  GstElement* element = gst_element_factory_make("histogram", nullptr);
  fail_unless(element != nullptr, "cannot create a histogram element (is the plugin built and found?)");
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

void AnalysisStream::SetParams(const histogram_ref::Params& params) {
  params_ = params;
  ApplyParams(harness_->element, params);
}

void AnalysisStream::SetPostMessages(bool post_messages) {
  post_messages_ = post_messages;
  g_object_set(harness_->element, "post-messages", post_messages ? TRUE : FALSE, nullptr);
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
              "histogram refused caps %s", text);
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
              "histogram refused a segment event");
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

// Called right after a push that returned OK. A passthrough element pushes the frame on from
// its chain function, so it must be there now, unchanged, with the input caps.
std::string AnalysisStream::CheckOutput(const std::vector<uint8_t>& input_bytes, const PushedFrame& pushed) {
  std::string problem;
  GstBuffer* output = gst_harness_try_pull(harness_);
  if (output == nullptr) {
    problem = "no output buffer when the push returned";
  } else {
    if (GST_BUFFER_PTS(output) != pushed.pts || GST_BUFFER_DURATION(output) != pushed.duration) {
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

GstFlowReturn AnalysisStream::Push(const TestFrame& frame, const Placement& placement) {
  if (!have_caps_ || !gst_video_info_is_equal(&info_, &frame.info)) SendCaps(frame);
  if (segment_pending_) SendSegment();

  GstBuffer* buffer = NewBuffer(frame, placement);
  PushedFrame pushed;
  pushed.format = frame.format();
  pushed.pts = next_pts_;
  pushed.duration = kFrameDuration;
  next_pts_ += kFrameDuration;
  GST_BUFFER_PTS(buffer) = pushed.pts;
  GST_BUFFER_DURATION(buffer) = pushed.duration;
  pushed.segment = segment_;
  pushed.params = params_;
  pushed.post_messages = post_messages_;
  pushed.expected = AnalyzeBuffer(buffer, info_, params_);
  pushed.description = frame.Describe() + " " +
                       (placement.memory == Memory::kProposed ? ProposedKind() : placement.Describe()) +
                       " frame#" + std::to_string(pushed_.size()) + " " + DescribeParams(params_) + ", " +
                       vktest::SeedDescription();

  const std::vector<uint8_t> input_bytes = BufferBytes(buffer);
  pushed.flow = gst_harness_push(harness_, buffer);
  if (pushed.flow == GST_FLOW_OK) pushed.output_problem = CheckOutput(input_bytes, pushed);
  pushed_.push_back(std::move(pushed));
  return pushed_.back().flow;
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

}  // namespace histogram_test
