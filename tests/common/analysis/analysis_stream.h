// Drives one analysis element through a GstHarness (HarnessDriver) and adds what depends on the
// element: its parameters, the reference result of each frame, computed from the very buffer
// pushed, and the log of its messages, taken from its own bus.
//
// `Traits` describes the element:
//   using Params, Result;          the reference's parameters and per-frame result
//   using Kind;                    the message kind, as MessageLog takes it
//   static constexpr const char* kElement;
//   static void ApplyParams(GstElement*, const Params&);
//   static std::string DescribeParams(const Params&);      "bins=64 matrix=bt709 roi=0,0,0x0"
//   static std::optional<Result> AnalyzeBuffer(GstBuffer*, const GstVideoInfo&, const Params&);
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/test_seed.h"
#include "harness_driver.h"
#include "message_log.h"
#include "pushed_frame.h"

namespace analysis_test {

template <typename Traits>
class AnalysisStream : public HarnessDriver {
 public:
  using Params = typename Traits::Params;
  using Frame = PushedFrame<Params, typename Traits::Result>;
  using Log = MessageLog<typename Traits::Kind>;

  // A new element with `params` (and post-messages), in a harness, PLAYING.
  explicit AnalysisStream(const Params& params, bool post_messages = true)
      : HarnessDriver(Traits::kElement, post_messages), params_(params) {
    Traits::ApplyParams(element(), params);
    log_ = std::make_unique<Log>(bus());
    Start();
  }
  // The harness goes first, so that the log still sees what teardown posts.
  ~AnalysisStream() { Stop(); }

  // Changes the element's properties while it plays; they apply from the next frame.
  void SetParams(const Params& params) {
    params_ = params;
    Traits::ApplyParams(element(), params);
  }

  // Sends new caps when format or size change, then the frame in a buffer built as `placement`
  // says, timestamped in sequence. Returns the flow.
  GstFlowReturn Push(const TestFrame& frame, const Placement& placement = {}) {
    Frame pushed;
    GstBuffer* buffer = Prepare(frame, placement, &pushed);
    pushed.params = params_;
    pushed.expected = Traits::AnalyzeBuffer(buffer, info(), params_);
    pushed.description += Traits::DescribeParams(params_) + ", " + vktest::SeedDescription();
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
