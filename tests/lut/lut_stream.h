// Drives one lut element through a GstHarness: frames in (from the pool the element proposes, or
// from system memory with padded strides), graded frames out, and the element's bus messages.
#pragma once

#include <gst/check/gstharness.h>

#include <memory>
#include <string>
#include <vector>

#include "common/upstream_allocation.h"
#include "frames.h"

namespace lut_test {

struct Settings {
  std::string location;
  std::string interpolation;  // empty: the default (tetrahedral)
  double intensity = 1.0;
  std::string png_kind;  // empty: the default (auto)
};

class LutStream {
 public:
  // A new lut element with `settings`, in a harness, PLAYING.
  explicit LutStream(const Settings& settings);
  ~LutStream();
  LutStream(const LutStream&) = delete;
  LutStream& operator=(const LutStream&) = delete;

  GstElement* element() const { return harness_->element; }

  // Pushes `frame` (new caps when its format or size changes). With stride_padding or offset the
  // buffer is system memory laid out that way (GstVideoMeta), else it comes from the element's
  // proposed pool. Graded frames are collected as they come out.
  void Push(const Frame& frame, int stride_padding = 0, gsize offset = 0);

  // Sends EOS and returns every graded frame, in the order pushed.
  std::vector<Frame> Finish();

  // The oldest message of `type` the element posted, or null (caller unrefs); not the warning of
  // a start on a CPU device (vktest::PopMessage), which every lut on lavapipe posts.
  GstMessage* PopMessage(GstMessageType type);

 private:
  void Collect();

  GstHarness* harness_;
  GstBus* bus_;
  GstVideoInfo info_;
  bool have_caps_ = false;
  std::unique_ptr<vktest::UpstreamAllocation> allocation_;
  std::vector<Frame> outputs_;
};

// The frames `settings` make of `inputs`, pushed in order through one element.
std::vector<Frame> Grade(const Settings& settings, const std::vector<Frame>& inputs, int stride_padding = 0,
                         gsize offset = 0);

}  // namespace lut_test
