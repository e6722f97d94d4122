// Drives one morph element through a GstHarness (PLAYING): properties set between frames, input
// caps following the frames pushed, every output kept for verification.
#pragma once

#include <gst/check/gstharness.h>

#include <memory>
#include <string>
#include <vector>

#include "common/upstream_allocation.h"
#include "reference/morph_ref.h"
#include "test_frame.h"

namespace morph_test {

struct PushedFrame {
  TestFrame frame;
  morph_ref::MorphSpec spec;  // the element's properties when the frame was pushed
  InputPlacement placement;
};

class MorphStream {
 public:
  MorphStream();
  ~MorphStream();
  MorphStream(const MorphStream&) = delete;
  MorphStream& operator=(const MorphStream&) = delete;

  // Sets the element's properties (while PLAYING); they apply from the next frame pushed.
  void Set(const morph_ref::MorphSpec& spec);

  // Sends new caps when the frame's format or size changed, then the frame in a buffer built as
  // `placement` says; fails the test unless the push returned GST_FLOW_OK.
  void Push(const TestFrame& frame, const InputPlacement& placement = {});

  // Sends EOS and waits for every output; fails the test when one is missing.
  void Finish();

  const std::vector<PushedFrame>& pushed() const { return pushed_; }
  const std::vector<TestFrame>& outputs() const { return outputs_; }
  GstElement* element() const { return harness_->element; }

 private:
  void PullAvailable(bool wait);

  GstHarness* harness_;
  morph_ref::MorphSpec spec_;
  GstVideoInfo input_info_;
  bool have_caps_ = false;
  std::unique_ptr<vktest::UpstreamAllocation> allocation_;
  std::vector<PushedFrame> pushed_;
  std::vector<TestFrame> outputs_;
};

// Fails the test at the first output that differs from the CPU reference or from OpenCV, naming
// `name`, the frame, its settings and placement, the byte and the run's seed.
void ExpectOutputsCorrect(const MorphStream& stream, const std::string& name);

// Pushes each frame through a new element with the given settings, then checks every output.
void RunAndVerify(const std::string& name,
                  const std::vector<std::pair<TestFrame, morph_ref::MorphSpec>>& cases);

}  // namespace morph_test
