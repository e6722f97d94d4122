// vkc::FrameScheduler: an element's frames on the GPU, from submission to the moment they leave.
//
// The streaming thread reserves a ring slot, records and submits into it, and hands the frame over
// with push(). Each frame is finished (a filter's output pushed downstream, an analysis result
// posted) as soon as the GPU is done with it, in submission order, by one of two threads:
// - the device's completion service (completions.hpp), whose one thread looks at the oldest frame
//   of every element on the device while their streaming threads are away (a live stream: no frame
//   waits for a later one to arrive, whatever the frame rate), and finishes it there, or on one of
//   its workers when the finish may block (an output pushed downstream);
// - the streaming thread itself while it keeps the ring busy (an unpaced stream: the ring full, or
//   one frame short of it): it needs the oldest frame's slot soon, so once the ring is full it
//   waits for that frame in reserve() and finishes it, and the service only looks at the element
//   every millisecond in case no frame follows (finishing what is done, reporting a frame that
//   outlives the timeout). One thread waits per frame instead of two handing it over, which halves
//   the wakes per frame; in a chain, one streaming thread waits for the frame of all of its
//   elements (they share the batch's completion) instead of one thread per element. A wait that
//   grows long (the frame queued behind other streams' frames on the GPU) is handed to the service
//   after all, and the streaming thread sleeps until the frame has left. A stream whose frames come
//   less than a millisecond apart is the streaming thread's too when its ring is not busy (a GPU
//   faster than the stream): it finishes what is done as its next frame comes (finish_done()), and
//   the service looks only once the stream has not come back for that long.
// drain() finishes the frames on the streaming thread too. Never two threads finish at once.
//
// A frame that does not complete stops the scheduler for good: either the device was lost (that
// frame and every later one are dropped), or the oldest frame outlived the timeout (it stays, still
// the GPU's, until discard() or stop() hands it over). The failure is reported once, by the thread
// that found it; the streaming thread's calls return GST_FLOW_ERROR only after that report, so
// the element's own error reaches the bus before upstream's "Internal data stream error".
//
// No GObject in here: the element glue supplies the completion check and the per-frame work, and
// tests/test_scheduler.cpp supplies fakes of both.
#pragma once

#include <gst/gst.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "completions.hpp"
#include "vk/submit.hpp"

namespace vkc {

class FrameScheduler : private CompletionService::Client {
 public:
  // One submitted frame. Destroying it releases what it holds without pushing or posting
  // anything; that may happen on another thread, after the element has gone (see stop()).
  class Work {
   public:
    virtual ~Work() = default;
    // On the completion service (its thread, or a worker when may_block()) or the streaming thread
    // (never two at once), in submission order, once the GPU is done with the frame. Returns the
    // flow of what it pushed downstream: the first that is not GST_FLOW_OK is returned once to the
    // streaming thread, by its next reserve() or drain().
    virtual GstFlowReturn finish() = 0;
    // Whether finish() may block (a push downstream): the completion service's thread then finishes
    // it with its standby ready to take the rounds over (completions.hpp).
    virtual bool may_block() const { return true; }
    // Whether finish() takes long for sure (longer than the service lends its rounds for): such a
    // frame goes to a worker of the service at once.
    virtual bool slow() const { return false; }
  };
  using Frames = std::deque<std::unique_ptr<Work>>;
  // What a look at a pending frame learns besides: `eta_ns` is at least how long the work queued
  // ahead of it will take (0 when unknown), so that a frame behind other streams' work is not
  // looked at in vain; `point` is where it ends, when known (completions.hpp), and `due_ns` how
  // long until the queue reaches it at its recent pace.
  struct Pending {
    uint64_t eta_ns = 0;
    CompletionService::Client::Point point;
    uint64_t due_ns = 0;  // how long until the queue likely reaches the point (0: unknown)
  };
  // Where the frame submitted into `slot` stands now, without waiting (CommandRing::status()).
  using FrameStatus = std::function<Completion(uint32_t slot, Pending& pending)>;
  // The frame that did not complete (kPending: still running after the timeout; kLost), once, on
  // the thread that waited for it.
  using FailureReport = std::function<void(Completion status)>;
  // Called on the streaming thread before it waits for the service to finish a frame
  // (whose push downstream may block for long): the element sends any GPU work it holds back.
  using BeforeBlocking = std::function<void()>;

  // `depth` frames at most in flight, looked at by `service` (the device's).
  FrameScheduler(uint32_t depth, uint64_t timeout_ns, FrameStatus status, FailureReport report,
                 std::shared_ptr<CompletionService> service, BeforeBlocking before_blocking = nullptr);
  // Leaves the service (stop()); frames still held are destroyed, so the owner must hand them over
  // with stop() first when the GPU may still use them.
  ~FrameScheduler();
  FrameScheduler(const FrameScheduler&) = delete;
  FrameScheduler& operator=(const FrameScheduler&) = delete;

  // Streaming thread: waits until a slot is free and returns it in `slot` with GST_FLOW_OK;
  // GST_FLOW_ERROR after a failure, or the first flow of a finished frame that was not OK.
  GstFlowReturn reserve(uint32_t& slot);
  // Streaming thread: the frame just submitted into the slot that the last reserve() gave, which
  // ends at `point` when known (completions.hpp).
  void push(std::unique_ptr<Work> work, CompletionService::Client::Point point = {});
  // Waits until every frame has finished (a serialized event follows them); a flow as reserve().
  GstFlowReturn drain();
  // A flush: drops every frame without finishing it, waiting up to the timeout for each one (its
  // slot is reused after). Returns the frames still running then, for the owner to release once
  // the GPU is done (the scheduler has failed by then, so nothing more is submitted).
  Frames discard();
  // Leaves the completion service (once a finish in progress has returned) without waiting for the
  // GPU and returns the frames not finished, which the GPU may still be running. Every later call
  // returns GST_FLOW_FLUSHING or nothing.
  Frames stop();

  uint32_t depth() const { return depth_; }

 private:
  using Clock = CompletionService::Clock;
  // The service's thread: where the oldest frame stands, and when to look again (completions.hpp).
  Look look(Clock::time_point now, Clock::time_point& next, Point& point) override;
  // Finishes the oldest frame that look() found done (or failed), and every done frame after it
  // (`here`: on the service's thread, up to one that may block).
  void finish(bool here) override;
  // Looks at the oldest frame's status without waiting, holding the turn (`finishing_`) meanwhile:
  // the streaming thread must not finish the frame and record into its slot while it is read.
  Completion look_at_oldest(std::unique_lock<std::mutex>& guard, Pending& pending);
  // Waits for the oldest frame and finishes it (or drops it, or marks the failure), on the
  // streaming thread in reserve() or drain(). With the lock held and no other thread finishing.
  void finish_oldest(std::unique_lock<std::mutex>& guard);
  // The rest of finishing the oldest frame once its `status` is known.
  void settle_oldest(Completion status, std::unique_lock<std::mutex>& guard);
  // The streaming thread in reserve() or drain(), while another thread finishes the oldest frame:
  // calls before_blocking_ the first time (`warned`), then waits for a change.
  void wait_for_finisher(bool& warned, std::unique_lock<std::mutex>& guard);
  // Waits for the oldest frame: looks at its status, naps, looks again (see kShortestNapNs); or,
  // once the wait is long (kHandOverNs), stops and sets `hand_over` to when the service should look.
  Completion wait_oldest(std::unique_lock<std::mutex>& guard, Clock::time_point& hand_over);
  // How long to nap before the next look at a frame that has been waited for `waited_ns`, and
  // looked at `looks` times: first 7/8 of the recent waits, then a quarter of the time so far; or
  // 3/4 of the work queued ahead of it (`eta_ns`) when that is longer.
  uint64_t nap_ns(uint64_t waited_ns, unsigned looks, uint64_t eta_ns = 0) const;
  // Lock held: a frame seen done after `done_ns`, found running by the look after `pending_ns` (0
  // when no look found it running).
  void learn_wait(uint64_t pending_ns, uint64_t done_ns);
  // The first flow to return to the streaming thread: a failure's error once it is reported, a
  // stop, or a finished frame's flow (once). With the lock held.
  GstFlowReturn take_flow(std::unique_lock<std::mutex>& guard);

  // Whether the streaming thread keeps the ring busy: `busy_ring_` frames or more in flight, so it
  // will need the oldest frame's slot soon (an unpaced stream, or a chain whose elements it visits
  // in turn), or it comes back soon (comes_back_soon()). With the lock held.
  bool kept_busy(Clock::time_point now) const;
  // Whether frames arrive less than kBusyRingLook apart, the last that recently: the streaming
  // thread finishes what is done when the next one comes (finish_done()), and no worker takes the
  // hand-over (a GPU faster than the stream, whose ring is never full). With the lock held.
  bool comes_back_soon(Clock::time_point now) const;
  // The streaming thread in reserve(): finishes the frames that are done already, without waiting.
  void finish_done(std::unique_lock<std::mutex>& guard);

  const uint32_t depth_;
  // A ring this full is the streaming thread's to finish: one frame short of full, so that the
  // service does not take every frame of a chain's element while the streaming thread is busy in
  // the other elements (the ring is then full only now and then). A frame in a ring that holds
  // fewer has been left by a stream that comes back slower than the GPU (live).
  const size_t busy_ring_;
  const uint64_t timeout_ns_;
  const FrameStatus status_;
  const FailureReport report_;
  const BeforeBlocking before_blocking_;
  const std::shared_ptr<CompletionService> service_;
  CompletionService::Entry* entry_;  // null once stopped
  uint64_t submitted_ = 0;           // streaming thread: frames pushed, for slot numbers

  std::mutex lock_;
  std::condition_variable changed_;       // a frame left, a failure, its report
  std::condition_variable nap_;           // the streaming thread's naps in wait_oldest(): a stop
  Frames in_flight_;                      // lock: submitted, oldest first; the oldest may be finishing
  bool dropping_ = false;                 // lock: discard() in progress: drop frames as they complete
  bool stopping_ = false;                 // lock
  bool finishing_ = false;                // lock: a thread looks at, waits for or finishes the oldest frame
  Completion found_ = Completion::kDone;  // lock: what look() found of the oldest frame, for finish()
  uint64_t retired_ = 0;                  // lock: frames that left, for the oldest one's slot
  // lock: the frame (by retired_) whose long wait the streaming thread left to the service.
  uint64_t handed_over_ = UINT64_MAX;
  int releasing_ = 0;              // lock: frames out of in_flight_ whose release is under way
  uint64_t expected_wait_ns_ = 0;  // lock: how long recent waits for the oldest frame took (mean)
  // lock: the oldest frame the service watches (by retired_), and since when.
  uint64_t watched_ = UINT64_MAX;
  Clock::time_point watched_since_;
  uint64_t pending_at_ns_ = 0;  // lock: the wait at the last look that found it running
  // lock: when the last frame was pushed, and the mean gap between pushes (UINT64_MAX: none yet).
  Clock::time_point last_push_{};
  uint64_t push_gap_ns_ = UINT64_MAX;
  bool failed_ = false;               // lock: a frame did not complete; nothing more is finished
  bool stalled_ = false;              // lock: the oldest frame is still the GPU's after the timeout
  bool reported_ = false;             // lock: the failure's report has returned
  GstFlowReturn flow_ = GST_FLOW_OK;  // lock: see take_flow()
};

}  // namespace vkc
