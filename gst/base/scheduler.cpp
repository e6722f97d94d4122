#include "scheduler.hpp"

#include <pthread.h>
#include <sys/prctl.h>

#include <algorithm>
#include <chrono>
#include <utility>

namespace vkc {

namespace {
// NVIDIA's driver spins in vkWaitForFences until the fence signals, so a thread waiting there for
// every frame keeps a core busy for the whole GPU time (docs/benchmarks.md: 240 us of CPU per
// 1080p rgb2yuv frame instead of 40). The thread that waits for a frame looks at the fence without
// waiting instead, and naps between looks: first 7/8 of the time recent frames took (a running
// mean of the waits), then an eighth of the time waited so far, within these bounds. A frame is
// then seen a few tens of microseconds after it ends (at most 1 ms), with about two wakes, and
// stop() interrupts a nap.
constexpr uint64_t kShortestNapNs = 20'000;
constexpr uint64_t kLongestNapNs = 1'000'000;
// The kernel may stretch a sleep by the thread's timer slack (50 us by default): far more than the
// shortest nap.
constexpr unsigned long kTimerSlackNs = 2'000;
// While the streaming thread keeps the ring busy (kept_busy()) the completion thread leaves the
// oldest frame to it, and only looks at its fence this often: frames of a burst that no frame
// follows still leave, this late at most.
constexpr auto kBusyRingLook = std::chrono::microseconds(1000);
}  // namespace

FrameScheduler::FrameScheduler(uint32_t depth, uint64_t timeout_ns, FenceStatus status, FailureReport report,
                               const std::string& thread_name, BeforeBlocking before_blocking)
    : depth_(depth),
      busy_ring_(depth > 2 ? depth - 1 : depth),
      timeout_ns_(timeout_ns),
      status_(std::move(status)),
      report_(std::move(report)),
      before_blocking_(std::move(before_blocking)) {
  thread_ = std::thread(&FrameScheduler::run, this, thread_name);
}

FrameScheduler::~FrameScheduler() {
  stop();
}

GstFlowReturn FrameScheduler::reserve(uint32_t& slot) {
  std::unique_lock<std::mutex> guard(lock_);
  // A full ring: the streaming thread waits for the oldest frame and finishes it itself, unless the
  // completion thread already is.
  bool warned = false;
  while (in_flight_.size() >= depth_ && !failed_ && !stopping_ && flow_ == GST_FLOW_OK) {
    if (!finishing_)
      finish_oldest(guard);
    else
      wait_for_finisher(warned, guard);
  }
  const GstFlowReturn flow = take_flow(guard);
  slot = uint32_t(submitted_ % depth_);
  return flow;
}

void FrameScheduler::push(std::unique_ptr<Work> work) {
  std::lock_guard<std::mutex> guard(lock_);
  in_flight_.push_back(std::move(work));
  submitted_++;
  // Not during a nap (the fence is looked at after it anyway), nor when the ring is busy (the
  // streaming thread finishes the oldest frame in a coming reserve()).
  if (idle_ && !kept_busy()) wake_.notify_all();
}

GstFlowReturn FrameScheduler::drain() {
  std::unique_lock<std::mutex> guard(lock_);
  bool warned = false;
  while ((!in_flight_.empty() || releasing_ > 0) && !stalled_ && !stopping_) {
    if (!in_flight_.empty() && !finishing_ && !failed_)
      finish_oldest(guard);
    else
      wait_for_finisher(warned, guard);
  }
  return take_flow(guard);
}

void FrameScheduler::wait_for_finisher(bool& warned, std::unique_lock<std::mutex>& guard) {
  if (warned || !before_blocking_) {
    changed_.wait(guard);
    return;
  }
  // Outside the lock; the caller looks at the state again after it, so no change is missed.
  warned = true;
  guard.unlock();
  before_blocking_();
  guard.lock();
}

FrameScheduler::Frames FrameScheduler::discard() {
  std::unique_lock<std::mutex> guard(lock_);
  dropping_ = true;
  wake_.notify_all();
  changed_.wait(guard, [&] { return (in_flight_.empty() && releasing_ == 0) || stalled_ || stopping_; });
  dropping_ = false;
  flow_ = GST_FLOW_OK;  // what the flush interrupted
  // A stalled frame keeps the completion thread away from every frame: they are the caller's now.
  return stalled_ ? std::exchange(in_flight_, {}) : Frames{};
}

FrameScheduler::Frames FrameScheduler::stop() {
  {
    std::lock_guard<std::mutex> guard(lock_);
    if (!thread_.joinable()) return {};
    stopping_ = true;
  }
  wake_.notify_all();
  changed_.notify_all();
  thread_.join();
  std::lock_guard<std::mutex> guard(lock_);
  return std::exchange(in_flight_, {});
}

bool FrameScheduler::kept_busy() const {
  return in_flight_.size() >= busy_ring_ && !dropping_ && !stalled_;  // a stalled ring waits for stop()
}

GstFlowReturn FrameScheduler::take_flow(std::unique_lock<std::mutex>& guard) {
  if (failed_) {
    changed_.wait(guard, [&] { return reported_; });
    return GST_FLOW_ERROR;
  }
  if (stopping_) return GST_FLOW_FLUSHING;
  return std::exchange(flow_, GST_FLOW_OK);
}

Completion FrameScheduler::wait_oldest(uint32_t slot, std::unique_lock<std::mutex>& guard) {
  const auto start = std::chrono::steady_clock::now();
  for (bool first = true;; first = false) {
    guard.unlock();
    const Completion status = status_(slot);
    guard.lock();
    const uint64_t waited = uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
            .count());
    if (status == Completion::kDone) expected_wait_ns_ = (7 * expected_wait_ns_ + waited) / 8;
    if (status != Completion::kPending || stopping_ || waited >= timeout_ns_) return status;
    const uint64_t nap = first ? expected_wait_ns_ * 7 / 8 : waited / 8;
    wake_.wait_for(guard, std::chrono::nanoseconds(std::clamp(
                              nap, kShortestNapNs, std::min(kLongestNapNs, timeout_ns_ - waited))));
  }
}

void FrameScheduler::finish_oldest(std::unique_lock<std::mutex>& guard) {
  finishing_ = true;
  const Completion status = wait_oldest(uint32_t(retired_ % depth_), guard);
  finishing_ = false;
  settle_oldest(status, guard);
}

void FrameScheduler::settle_oldest(Completion status, std::unique_lock<std::mutex>& guard) {
  if (stopping_) {  // what is left goes to stop()'s caller, finished or not
    changed_.notify_all();
    return;
  }
  const bool first_failure = status != Completion::kDone && !failed_;
  failed_ = failed_ || status != Completion::kDone;
  std::unique_ptr<Work> frame;
  if (status == Completion::kPending) {
    stalled_ = true;  // the frame stays in flight: the GPU may still write what it holds
  } else {
    if (!dropping_ && !failed_) {
      finishing_ = true;  // the frame stays first while it finishes: nobody else takes it
      Work* oldest = in_flight_.front().get();
      guard.unlock();
      const GstFlowReturn flow = oldest->finish();
      guard.lock();
      finishing_ = false;
      if (flow_ == GST_FLOW_OK) flow_ = flow;
    }
    frame = std::move(in_flight_.front());
    in_flight_.pop_front();
    retired_++;
    releasing_++;
  }
  if (awaits_turn_) wake_.notify_all();  // the completion thread waits for the oldest to be free
  if (frame || first_failure) {
    guard.unlock();
    frame.reset();  // releases buffers outside the lock: their pools may call back
    if (first_failure) report_(status);
    guard.lock();
    reported_ = reported_ || first_failure;
  }
  // Only now: drain() returns once the frames it waited for have released what they held.
  if (status != Completion::kPending) releasing_--;
  changed_.notify_all();
}

void FrameScheduler::run(const std::string& thread_name) {
  pthread_setname_np(pthread_self(), thread_name.substr(0, 15).c_str());
  prctl(PR_SET_TIMERSLACK, kTimerSlackNs);
  std::unique_lock<std::mutex> guard(lock_);
  bool look_again = false;  // the last look found the oldest frame done: look at the next one now
  // The oldest frame that the looks found still running, and since when: after the timeout it
  // fails as a frame waited for does.
  uint64_t running = UINT64_MAX;
  auto running_since = std::chrono::steady_clock::now();
  for (;;) {
    const bool busy = kept_busy();
    idle_ = true;
    if (busy) {
      // The oldest frame is the streaming thread's to finish (reserve()) unless it stays away:
      // look at the fence now and then, and finish the frame once the GPU is done.
      if (!look_again) wake_.wait_for(guard, kBusyRingLook, [&] { return stopping_ || dropping_; });
    } else {
      awaits_turn_ = true;
      wake_.wait(guard, [&] {
        return stopping_ || kept_busy() || (!in_flight_.empty() && !stalled_ && !finishing_);
      });
      awaits_turn_ = false;
    }
    idle_ = false;
    look_again = false;
    if (stopping_) break;
    if (in_flight_.empty() || stalled_ || finishing_) continue;
    if (busy) {
      const uint32_t slot = uint32_t(retired_ % depth_);
      // The look holds the turn: the streaming thread must not finish the frame and record into its
      // slot (resetting the fence) while the fence is read here (the validation layer's threading
      // check caught vkResetFences beside this look's wait).
      const uint64_t oldest = retired_;
      finishing_ = true;
      guard.unlock();
      const Completion status = status_(slot);
      guard.lock();
      finishing_ = false;
      changed_.notify_all();
      if (stopping_ || in_flight_.empty() || retired_ != oldest) continue;
      if (status == Completion::kPending) {
        const auto now = std::chrono::steady_clock::now();
        if (running != oldest) running = oldest, running_since = now;
        if (uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(now - running_since).count()) <
            timeout_ns_)
          continue;
      }
      look_again = status == Completion::kDone;
      settle_oldest(status, guard);
    } else if (kept_busy()) {
      continue;  // filled up while it waited
    } else {
      finish_oldest(guard);
    }
    if (stopping_) break;
  }
  changed_.notify_all();
}

}  // namespace vkc
