#include "scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

namespace vkc {

namespace {
// NVIDIA's driver spins in vkWaitForFences until the fence signals, so a thread waiting there for
// every frame keeps a core busy for the whole GPU time (docs/benchmarks.md: 240 us of CPU per
// 1080p rgb2yuv frame instead of 40). The threads that wait for a frame look at its status without
// waiting instead, and nap between looks: first 7/8 of the time recent frames took (a running mean
// of the waits), then a quarter of the time waited so far (an eighth for the first waiter of a
// queue, completions.hpp), within these bounds. A frame is then
// seen a few tens of microseconds after it ends (at most 1 ms), with about two looks; a frame that
// waits long behind other streams' work (hundreds of streams on one GPU) with a look each time its
// wait has grown by a quarter.
constexpr uint64_t kShortestNapNs = 20'000;
constexpr uint64_t kLongestNapNs = 1'000'000;
// While the streaming thread keeps the ring busy (kept_busy()) the service leaves the oldest frame
// to it, and only looks at it this often: frames of a burst that no frame follows still leave,
// this late at most.
constexpr auto kBusyRingLook = std::chrono::microseconds(1000);
constexpr uint64_t kBusyRingLookNs = std::chrono::nanoseconds(kBusyRingLook).count();
// The streaming thread waits for its oldest frame itself (the ring full: an unpaced stream) while
// the wait is short; a frame it would wait for longer (frames of many streams queued on the GPU
// ahead of it) is handed to the service, and the thread sleeps until the frame has left instead of
// napping and looking: hundreds of streaming threads looking cost more than one service.
constexpr uint64_t kHandOverNs = 2'000'000;
// While another thread holds the turn (finishing_), the service looks again this late at most;
// that thread wakes it when it lets the turn go (settle_oldest()).
constexpr auto kTurnHeldLook = std::chrono::microseconds(1000);

uint64_t since_ns(CompletionService::Clock::time_point start) {
  return uint64_t(
      std::chrono::duration_cast<std::chrono::nanoseconds>(CompletionService::Clock::now() - start).count());
}
}  // namespace

FrameScheduler::FrameScheduler(uint32_t depth, uint64_t timeout_ns, FrameStatus status, FailureReport report,
                               std::shared_ptr<CompletionService> service, BeforeBlocking before_blocking)
    : depth_(depth),
      busy_ring_(depth > 2 ? depth - 1 : depth),
      timeout_ns_(timeout_ns),
      status_(std::move(status)),
      report_(std::move(report)),
      before_blocking_(std::move(before_blocking)),
      service_(std::move(service)),
      entry_(service_->add(this)) {}

FrameScheduler::~FrameScheduler() {
  stop();
}

GstFlowReturn FrameScheduler::reserve(uint32_t& slot) {
  std::unique_lock<std::mutex> guard(lock_);
  // A stream that comes back soon finishes what is done itself (the service leaves it alone). A
  // full ring is finished below, as it always is.
  if (push_gap_ns_ < kBusyRingLookNs && in_flight_.size() < busy_ring_) finish_done(guard);
  // A full ring: the streaming thread waits for the oldest frame and finishes it itself, unless a
  // worker already is.
  bool warned = false;
  while (in_flight_.size() >= depth_ && !failed_ && !stopping_ && flow_ == GST_FLOW_OK) {
    if (!finishing_ && handed_over_ != retired_)
      finish_oldest(guard);
    else
      wait_for_finisher(warned, guard);
  }
  const GstFlowReturn flow = take_flow(guard);
  slot = uint32_t(submitted_ % depth_);
  return flow;
}

void FrameScheduler::push(std::unique_ptr<Work> work, Point point) {
  std::lock_guard<std::mutex> guard(lock_);
  in_flight_.push_back(std::move(work));
  submitted_++;
  const Clock::time_point now = Clock::now();
  if (last_push_ != Clock::time_point{}) {
    const uint64_t gap =
        uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(now - last_push_).count());
    push_gap_ns_ = push_gap_ns_ == UINT64_MAX ? gap : (7 * push_gap_ns_ + gap) / 8;
  }
  last_push_ = now;
  if (in_flight_.size() > 1 || stopping_) return;  // the service watches the oldest frame already
  // A stream that comes back soon finishes this frame itself (finish_done()): the service only
  // looks as late as it would at a busy ring's.
  if (comes_back_soon(now)) {
    service_->wake(entry_, now + kBusyRingLook);
    return;
  }
  // The service's first look comes when recent frames were about to end.
  watched_ = retired_;
  watched_since_ = now;
  pending_at_ns_ = 0;
  service_->wake(entry_, watched_since_ + std::chrono::nanoseconds(nap_ns(0, 0)), std::move(point));
}

bool FrameScheduler::comes_back_soon(Clock::time_point now) const {
  return push_gap_ns_ < kBusyRingLookNs && now - last_push_ < kBusyRingLook;
}

void FrameScheduler::finish_done(std::unique_lock<std::mutex>& guard) {
  while (!in_flight_.empty() && !finishing_ && !failed_ && !stopping_ && !stalled_ && !dropping_ &&
         handed_over_ != retired_) {
    const uint64_t oldest = retired_;
    Pending pending;
    const Completion status = look_at_oldest(guard, pending);
    changed_.notify_all();  // a look of the service's may wait for the turn
    if (status != Completion::kDone || retired_ != oldest || finishing_ || stopping_) return;
    settle_oldest(status, guard);
  }
}

GstFlowReturn FrameScheduler::drain() {
  std::unique_lock<std::mutex> guard(lock_);
  bool warned = false;
  while ((!in_flight_.empty() || releasing_ > 0) && !stalled_ && !stopping_) {
    if (!in_flight_.empty() && !finishing_ && !failed_ && handed_over_ != retired_)
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
  if (entry_) service_->wake(entry_);
  changed_.wait(guard, [&] { return (in_flight_.empty() && releasing_ == 0) || stalled_ || stopping_; });
  // A stalled frame's report (outside the lock) may still look at what the caller takes down next.
  if (stalled_) changed_.wait(guard, [&] { return reported_ || stopping_; });
  dropping_ = false;
  flow_ = GST_FLOW_OK;  // what the flush interrupted
  // A stalled frame keeps every thread away from every frame: they are the caller's now.
  return stalled_ ? std::exchange(in_flight_, {}) : Frames{};
}

FrameScheduler::Frames FrameScheduler::stop() {
  CompletionService::Entry* entry;
  {
    std::lock_guard<std::mutex> guard(lock_);
    entry = std::exchange(entry_, nullptr);
    if (!entry) return {};
    stopping_ = true;
  }
  nap_.notify_all();
  changed_.notify_all();
  service_->remove(entry);  // once a look or a finish in progress has returned
  std::lock_guard<std::mutex> guard(lock_);
  return std::exchange(in_flight_, {});
}

bool FrameScheduler::kept_busy(Clock::time_point now) const {
  return (in_flight_.size() >= busy_ring_ || comes_back_soon(now)) && !dropping_ &&
         !stalled_;  // a stalled ring waits for stop()
}

GstFlowReturn FrameScheduler::take_flow(std::unique_lock<std::mutex>& guard) {
  if (failed_) {
    changed_.wait(guard, [&] { return reported_; });
    return GST_FLOW_ERROR;
  }
  if (stopping_) return GST_FLOW_FLUSHING;
  return std::exchange(flow_, GST_FLOW_OK);
}

uint64_t FrameScheduler::nap_ns(uint64_t waited_ns, unsigned looks, uint64_t eta_ns) const {
  const uint64_t nap = looks == 0 ? expected_wait_ns_ * 7 / 8 : waited_ns / 4;
  const uint64_t left = timeout_ns_ - std::min(waited_ns, timeout_ns_);
  const uint64_t longest = std::min(kLongestNapNs, left);
  return std::max(std::clamp(nap, std::min(kShortestNapNs, longest), longest),
                  std::min(eta_ns / 4 * 3, left));
}

void FrameScheduler::learn_wait(uint64_t pending_ns, uint64_t done_ns) {
  // The frame ended between the two looks, not at the one that saw it done. Counted whole, a wait
  // seen done at its first look only let the estimate shrink by an eighth of the look's own
  // lateness a frame, and it settled at about eight times that lateness: on the H200 the first
  // look at a live rgb2yuv frame came 1 ms after its submission and 0.76 ms after the GPU had
  // finished it. Counted as the middle, the first look moves earlier until some frames are still
  // running at it.
  expected_wait_ns_ = (7 * expected_wait_ns_ + (pending_ns + done_ns) / 2) / 8;
}

Completion FrameScheduler::look_at_oldest(std::unique_lock<std::mutex>& guard, Pending& pending) {
  const uint32_t slot = uint32_t(retired_ % depth_);
  finishing_ = true;
  guard.unlock();
  const Completion status = status_(slot, pending);
  guard.lock();
  finishing_ = false;
  return status;
}

Completion FrameScheduler::wait_oldest(std::unique_lock<std::mutex>& guard, Clock::time_point& hand_over) {
  const auto start = Clock::now();
  uint64_t pending_at = 0;  // the wait at the last look that found the frame running
  for (unsigned looks = 0;; ++looks) {
    guard.unlock();
    Pending pending;
    const Completion status = status_(uint32_t(retired_ % depth_), pending);
    guard.lock();
    const uint64_t waited = since_ns(start);
    if (status == Completion::kDone) learn_wait(pending_at, waited);
    if (status != Completion::kPending || stopping_ || waited >= timeout_ns_) return status;
    pending_at = waited;
    const uint64_t nap = nap_ns(waited, looks, pending.eta_ns);
    if (waited + nap > kHandOverNs) {  // a long wait: the service's, while this thread sleeps
      hand_over = Clock::now() + std::chrono::nanoseconds(nap);
      return status;
    }
    nap_.wait_for(guard, std::chrono::nanoseconds(nap));
  }
}

void FrameScheduler::finish_oldest(std::unique_lock<std::mutex>& guard) {
  finishing_ = true;
  Clock::time_point hand_over = Clock::time_point::min();
  const Completion status = wait_oldest(guard, hand_over);
  finishing_ = false;
  if (hand_over != Clock::time_point::min() && !stopping_) {
    handed_over_ = retired_;
    service_->wake(entry_, hand_over);
    changed_.notify_all();
    return;
  }
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
  if (frame || first_failure) {
    guard.unlock();
    frame.reset();  // releases buffers outside the lock: their pools may call back
    if (first_failure) report_(status);
    guard.lock();
    reported_ = reported_ || first_failure;
  }
  // Only now: drain() returns once the frames it waited for have released what they held.
  if (status != Completion::kPending) releasing_--;
  // The next frame is the service's to look at now; while the streaming thread keeps the ring busy,
  // only as late as look() would say (a wake of the service per frame of an unpaced stream saves
  // nothing).
  if (!in_flight_.empty() && entry_ && !stopping_) {
    const Clock::time_point now = Clock::now();
    service_->wake(entry_, kept_busy(now) ? now + kBusyRingLook : Clock::time_point::min());
  }
  changed_.notify_all();
}

CompletionService::Client::Look FrameScheduler::look(Clock::time_point now, Clock::time_point& next,
                                                     Point& point) {
  std::unique_lock<std::mutex> guard(lock_);
  if (stopping_ || in_flight_.empty() || stalled_) return Look::kIdle;
  if (finishing_) {  // the streaming thread's turn; its settle_oldest() wakes the service
    next = now + kTurnHeldLook;
    return Look::kLater;
  }
  // Its streaming thread finishes what is done when its next frame comes (finish_done()): no look,
  // which would hold the turn it may wait for, until the stream has not come back for that long.
  if (comes_back_soon(now) && in_flight_.size() < busy_ring_ && handed_over_ != retired_ && !dropping_) {
    next = last_push_ + kBusyRingLook;
    return Look::kLater;
  }
  if (watched_ != retired_) {
    watched_ = retired_;
    watched_since_ = now;
    pending_at_ns_ = 0;
  }
  const uint64_t oldest = retired_;
  const bool busy = kept_busy(now) && handed_over_ != oldest;  // a frame handed over is the service's
  Pending pending;
  const Completion status = look_at_oldest(guard, pending);
  changed_.notify_all();  // the streaming thread may wait for the turn
  if (stopping_) return Look::kIdle;
  if (retired_ != oldest || finishing_) {  // another thread took the frame meanwhile
    next = now;
    return Look::kLater;
  }
  // `now` (the service's, read before the look) rather than the clock again: a look per pass of
  // the service's rounds, and 180 live streams made 40 000 looks a second, each reading the clock
  // three times (system calls on the lent H200's host; run 207).
  const uint64_t waited = uint64_t(std::max<int64_t>(
      0, std::chrono::duration_cast<std::chrono::nanoseconds>(now - watched_since_).count()));
  if (status == Completion::kPending && waited < timeout_ns_) {
    // A frame whose point is known may be the first waiter, which every stream's frames behind it
    // on the queue wait for (completions.hpp): its naps are not stretched by the work queued ahead
    // (at most kLongestNapNs), and end when the queue's pace says it reaches the point, if sooner
    // (`due_ns`, Timeline::until_ns(): an estimate, so it may shorten a nap, never lengthen one).
    const bool first_waiter = !busy && pending.point.at() != 0;
    // The first look's moment, as push() planned it (or the look that first saw the frame oldest):
    // 7/8 of the recent waits, within the nap's bounds (1 ms at most) and the timeout.
    const uint64_t planned = nap_ns(0, 0);
    uint64_t nap;
    if (waited + kShortestNapNs < planned) {
      // An early look (completions.cpp looks at a first waiter in every pass): the look planned
      // when recent frames were about to end stays.
      nap = planned - waited;
    } else {
      nap = nap_ns(waited, 1, first_waiter ? 0 : pending.eta_ns);
      // A first waiter past its planned look is due soon: looked at again after an eighth of its
      // wait so far, not a quarter (at a live chain's tail, 1.2 ms after its submission on the
      // H200, a quarter kept its output 0.15 ms longer on average).
      if (first_waiter) nap = std::min(nap, std::max(waited / 8, kShortestNapNs));
    }
    if (first_waiter && pending.due_ns != 0) nap = std::min(nap, std::max(pending.due_ns, kShortestNapNs));
    next = busy ? now + kBusyRingLook : now + std::chrono::nanoseconds(nap);
    // The streaming thread's frames are not others' first waiter: the service looks at them seldom.
    if (!busy) point = std::move(pending.point);
    pending_at_ns_ = waited;
    return Look::kLater;
  }
  if (status == Completion::kDone && !busy) learn_wait(pending_at_ns_, waited);
  found_ = status;
  finishing_ = true;  // the turn is the finisher's until finish() settles the frame
  const Work& work = *in_flight_.front();
  return work.slow() ? Look::kHandOver : work.may_block() ? Look::kReady : Look::kFinishHere;
}

void FrameScheduler::finish(bool here) {
  std::unique_lock<std::mutex> guard(lock_);
  finishing_ = false;
  settle_oldest(found_, guard);
  // Frames done behind it leave now too, without another look by the service.
  while (!stopping_ && !stalled_ && !in_flight_.empty() && !finishing_ &&
         !(here && in_flight_.front()->may_block())) {
    const uint64_t oldest = retired_;
    Pending pending;
    const Completion status = look_at_oldest(guard, pending);
    changed_.notify_all();
    if (status == Completion::kPending || retired_ != oldest || finishing_) break;
    settle_oldest(status, guard);
  }
}

}  // namespace vkc
