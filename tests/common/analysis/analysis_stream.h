// Drives one analysis element through a GstHarness (HarnessDriver) and adds what depends on the
// element, as `kCase` (element_case.h) describes it: its parameters, the reference result of each
// frame, computed from the very buffer pushed, and the log of its messages, taken from its own
// bus.
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "common/input_placement.h"
#include "common/test_seed.h"
#include "harness_driver.h"
#include "message_log.h"

namespace analysis_test {

template <const auto& kCase>
class AnalysisStream : public HarnessDriver {
 public:
  using Case = std::decay_t<decltype(kCase)>;
  using Params = typename Case::Params;
  using Frame = typename Case::Frame;
  using Log = MessageLog<kCase>;

  // A new element with `params` (and post-messages), in a harness, PLAYING.
  explicit AnalysisStream(const Params& params, bool post_messages = true)
      : HarnessDriver(kCase.element, post_messages), params_(params) {
    kCase.apply_params(element(), params);
    log_ = std::make_unique<Log>(bus());
    Start();
  }
  // The harness goes first, so that the log still sees what teardown posts.
  ~AnalysisStream() { Stop(); }

  // Changes the element's properties while it plays; they apply from the next frame.
  void SetParams(const Params& params) {
    params_ = params;
    kCase.apply_params(element(), params);
  }

  // Sends new caps when format or size change, then the frame in a buffer built as `placement`
  // says, timestamped in sequence. Returns the flow.
  GstFlowReturn Push(const TestFrame& frame, const vktest::InputPlacement& placement = {}) {
    Frame pushed;
    GstBuffer* buffer = Prepare(frame, placement, &pushed);
    pushed.params = params_;
    pushed.expected = kCase.analyze_buffer(buffer, info(), params_);
    pushed.description += kCase.describe_params(params_) + ", " + vktest::SeedDescription();
    Deliver(buffer, &pushed);
    pushed_.push_back(std::move(pushed));
    return pushed_.back().flow;
  }

  const std::vector<Frame>& pushed() const { return pushed_; }
  const Log& log() const { return *log_; }

 private:
  Params params_;
  std::unique_ptr<Log> log_;
  std::vector<Frame> pushed_;
};

}  // namespace analysis_test
