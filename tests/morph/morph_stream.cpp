#include "morph_stream.h"

#include <gst/check/gstcheck.h>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "expected.h"

namespace morph_test {
namespace {

constexpr GstClockTime kFrameDuration = GST_SECOND / 30;

GstElement* NewMorph() {
  // GstHarness aborts with a bare assertion when the element cannot start; say why first.
  vktest::RequirePhysicalDevice();
  GstElement* element = gst_element_factory_make("morph", nullptr);
  fail_unless(element != nullptr, "cannot create a morph element (is the plugin built and found?)");
  return element;
}

}  // namespace

MorphStream::MorphStream() {
  GstElement* element = NewMorph();
  harness_ = gst_harness_new_with_element(element, "sink", "src");
  gst_object_unref(element);
  gst_harness_add_propose_allocation_meta(harness_, GST_VIDEO_META_API_TYPE, nullptr);
  Set(spec_);
}

MorphStream::~MorphStream() {
  allocation_.reset();
  gst_harness_teardown(harness_);
}

void MorphStream::Set(const morph_ref::MorphSpec& spec) {
  spec_ = spec;
  gst_util_set_object_arg(G_OBJECT(element()), "operation", morph_ref::OperationNick(spec.operation));
  gst_util_set_object_arg(G_OBJECT(element()), "shape", morph_ref::ShapeNick(spec.shape));
  g_object_set(element(), "width", guint(spec.width), "height", guint(spec.height), "iterations",
               guint(spec.iterations), nullptr);
}

void MorphStream::Push(const TestFrame& frame, const InputPlacement& placement) {
  if (!have_caps_ || !gst_video_info_is_equal(&input_info_, &frame.info)) {
    input_info_ = frame.info;
    GstCaps* caps = gst_video_info_to_caps(&input_info_);
    gst_caps_set_simple(caps, "framerate", GST_TYPE_FRACTION, 30, 1, nullptr);
    fail_unless(gst_harness_push_event(harness_, gst_event_new_caps(gst_caps_ref(caps))),
                "morph refused caps for %s", frame.Describe().c_str());
    allocation_.reset();
    allocation_ = std::make_unique<vktest::UpstreamAllocation>(harness_->srcpad, caps);
    gst_caps_unref(caps);
    if (!have_caps_) {
      GstSegment segment;
      gst_segment_init(&segment, GST_FORMAT_TIME);
      fail_unless(gst_harness_push_event(harness_, gst_event_new_segment(&segment)));
    }
    have_caps_ = true;
    gst_pad_mark_reconfigure(harness_->srcpad);
  }
  GstBuffer* buffer = nullptr;
  switch (placement.memory) {
    case vktest::MemoryKind::kUpstreamPool:
      fail_unless(allocation_->has_pool(), "morph proposed no buffer pool for %s", frame.Describe().c_str());
      fail_unless(gst_buffer_pool_acquire_buffer(allocation_->pool(), &buffer, nullptr) == GST_FLOW_OK);
      FillBuffer(buffer, input_info_, frame);
      break;
    case vktest::MemoryKind::kHarnessBuffer:
      buffer = gst_harness_create_buffer(harness_, GST_VIDEO_INFO_SIZE(&input_info_));
      FillBuffer(buffer, input_info_, frame);
      break;
    case vktest::MemoryKind::kSystem:
    case vktest::MemoryKind::kSplit: buffer = NewSystemBuffer(frame, placement); break;
  }
  GST_BUFFER_PTS(buffer) = pushed_.size() * kFrameDuration;
  GST_BUFFER_DURATION(buffer) = kFrameDuration;
  pushed_.push_back(PushedFrame{frame, spec_, placement});
  const GstFlowReturn flow = gst_harness_push(harness_, buffer);
  fail_unless(flow == GST_FLOW_OK, "pushing %s (%s, %s) returned %s", frame.Describe().c_str(),
              spec_.Describe().c_str(), placement.Describe().c_str(), gst_flow_get_name(flow));
  PullAvailable(false);
}

void MorphStream::PullAvailable(bool wait) {
  while (outputs_.size() < pushed_.size()) {
    GstBuffer* buffer = wait ? gst_harness_pull(harness_) : gst_harness_try_pull(harness_);
    if (buffer == nullptr) {
      fail_if(wait, "output %zu of %zu did not come out", outputs_.size(), pushed_.size());
      return;
    }
    outputs_.push_back(ReadBuffer(buffer, pushed_[outputs_.size()].frame.info));
    gst_buffer_unref(buffer);
  }
}

void MorphStream::Finish() {
  fail_unless(gst_harness_push_event(harness_, gst_event_new_eos()));
  PullAvailable(true);
}

void ExpectOutputsCorrect(const MorphStream& stream, const std::string& name) {
  for (size_t i = 0; i < stream.pushed().size(); ++i) {
    const PushedFrame& pushed = stream.pushed()[i];
    const std::string what = name + ": frame " + std::to_string(i) + " " + pushed.frame.Describe() + " " +
                             pushed.spec.Describe() + " (" + pushed.placement.Describe() + ")";
    const TestFrame by_reference = ExpectedByReference(pushed.frame, pushed.spec);
    // Where OpenCV has a type for the channels (not 10-bit fields of a word), it agrees.
    if (const std::optional<TestFrame> by_opencv = ExpectedByOpenCV(pushed.frame, pushed.spec)) {
      const std::string diff = FirstDifference(by_reference, *by_opencv);
      fail_unless(diff.empty(), "%s: the CPU reference and OpenCV disagree, %s [%s]", what.c_str(),
                  diff.c_str(), vktest::SeedDescription().c_str());
    }
    const std::string diff = FirstDifference(stream.outputs()[i], by_reference);
    fail_unless(diff.empty(), "%s: %s [%s]", what.c_str(), diff.c_str(), vktest::SeedDescription().c_str());
  }
}

void RunAndVerify(const std::string& name,
                  const std::vector<std::pair<TestFrame, morph_ref::MorphSpec>>& cases) {
  MorphStream stream;
  for (const auto& [frame, spec] : cases) {
    stream.Set(spec);
    stream.Push(frame);
  }
  stream.Finish();
  ExpectOutputsCorrect(stream, name);
}

}  // namespace morph_test
