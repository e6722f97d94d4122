// vkc::CompletionService: one per Vulkan device, it sees the frames of every element and pipeline
// on the device finish, with one waiting thread for the whole device instead of one per element.
//
// Each element's FrameScheduler is a Client. The service's thread asks each client that is due
// where its oldest frame stands (look(): a read of the frame's point on the device's timeline,
// no wait), naps until the earliest moment any client asked to be looked at again (of the clients
// waiting on one queue, the first waiter's: the others are looked at once the queue passes their
// points, Client::look()), and finishes each client whose oldest frame is done: pushes its output,
// posts its message. It does so on its own thread, with no hand-over: waking another thread cost a
// live chain 0.065 ms per frame at the median on the lent H200 (a sleeping worker on another vCPU),
// more than the rest of the service. A finish that may block (a push into a downstream waiting for
// its clock) runs with a second thread standing by: should it last past kTakeOver, the standby
// takes the rounds over and the blocked thread stands by once its push returns, so a blocked push
// delays the other clients by half a millisecond and a wake, and costs nothing otherwise. While
// both threads are held in such finishes, the next ones go to Workers (workers.hpp). A client is
// finished by one thread at a time, so its frames stay in order.
//
// Why naps and not a blocking wait: NVIDIA's driver spins in its waits (vkWaitForFences,
// vkWaitSemaphores) for the whole GPU time, so a waiting thread costs a core per device; a look is
// a read of the timeline's counter (a thread blocked in vkWaitSemaphores on the compute timeline
// spun a core on the H200 and cost 2-3 times the CPU per frame: docs/design.md).
//
// No GObject in here: tests/test_scheduler.cpp runs it with fake clients' GPUs.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "waketimer.hpp"
#include "workers.hpp"

namespace vkc {

class Device;

class CompletionService {
 public:
  using Clock = std::chrono::steady_clock;

  class Client {
   public:
    enum class Look {
      kIdle,        // nothing to look at until the client calls wake()
      kLater,       // look again at `next` (or when the client calls wake())
      kReady,       // finish() is due and may block: the oldest frame is done (or failed)
      kFinishHere,  // finish() is due and cannot block: on the service's thread, no hand-over
      kHandOver,    // finish() is due and takes long for sure: on a worker
    };
    // Where a waited-for frame ends, when the client knows: done once `counter` (a queue's timeline
    // as far as reads have seen it) holds `value` (0 until the frame's batch is sent). `value`
    // keeps what holds it alive; `counter` is the device's, which outlives the client's entry
    // (remove() comes before the device is let go).
    struct Point {
      const std::atomic<uint64_t>* counter = nullptr;
      std::shared_ptr<const std::atomic<uint64_t>> value;
      // The value, 0 when unknown.
      uint64_t at() const { return value ? value->load(std::memory_order_acquire) : 0; }
      bool passed() const {
        const uint64_t v = at();
        return v != 0 && counter->load(std::memory_order_relaxed) >= v;
      }
    };
    // The service's thread, never while finish() runs: where the client's frames stand at `now`.
    // With kLater, the oldest frame's `point` when the client knows it: clients waiting on the
    // same counter are then looked at in the order of their points (the first at the times it asks
    // for and in every pass of the service, the rest once the counter passes theirs), so the frames
    // of a chain's elements, which end at one point, cost one look until done, and a round
    // finishes every frame the counter passed.
    virtual Look look(Clock::time_point now, Clock::time_point& next, Point& point) = 0;
    // After look() said kReady (on the service's thread or a worker, `here` false), kHandOver (on a
    // worker, `here` false) or kFinishHere (on the service's thread, `here` true: finishes nothing
    // that may block). The client is looked at again after
    // it returns if it called wake() meanwhile (it has frames left in flight).
    virtual void finish(bool here) = 0;

   protected:
    ~Client() = default;
  };

  // Names the thread "<name>:wait" and the workers "<name>:done" (at most 15 bytes each).
  explicit CompletionService(const std::string& name);
  // Clients must all have been removed.
  ~CompletionService();
  CompletionService(const CompletionService&) = delete;
  CompletionService& operator=(const CompletionService&) = delete;

  // The service of `device`, shared by every element on it while any holds it.
  static std::shared_ptr<CompletionService> for_device(const Device& device);

  struct Entry;
  // Starts looking at `client` (idle until its first wake()).
  Entry* add(Client* client);
  // Stops looking at the client, once its look or finish in progress has returned. Any thread
  // but the one running its finish().
  void remove(Entry* entry);
  // Look at the client at `when` at the latest (now by default): it has a new frame, or its state
  // changed. Any thread; cheap when the service's thread is due to look earlier anyway.
  void wake(Entry* entry, Clock::time_point when = Clock::time_point::min());
  // The same for a client's new oldest frame, which ends at `point` (see Client::look()).
  void wake(Entry* entry, Clock::time_point when, Client::Point point);

  // Threads of the service now: its two (the rounds' leader and its standby) and its workers.
  size_t threads() const { return 2 + workers_.threads(); }

 private:
  // A thread of the service (`me`: 0 or 1): leads the rounds while leader_ is `me`, else stands by.
  void serve(int me, const std::string& name);
  // The rounds: looks, finishes, naps; returns at a stop or once the standby has taken over.
  void lead(int me, std::unique_lock<std::mutex>& guard);
  // Whether the calling thread is one of the service's two.
  bool on_service_thread() const;
  // Puts the entry in the list of active ones, or takes it out. Lock held.
  void activate(Entry* entry);
  void deactivate(Entry* entry);
  // wake() with the lock held.
  void wake_locked(Entry* entry, Clock::time_point when);
  // Finishes the client on a worker. Lock held.
  void hand_over(Entry* entry);
  // After a finish: the client is looked at again if it called wake() meanwhile.
  void finished(Entry* entry);
  void finished_locked(Entry* entry);
  // lock_, taken by a thread other than the service's: counted in awaited_ while it waits, so that
  // workers waiting for the service's thread to let go are not taken for blocked ones.
  std::unique_lock<std::mutex> take_lock();
  // The first client waiting on each counter (lowest point; see Client::look()). Lock held.
  struct FirstWaiter {
    const std::atomic<uint64_t>* counter;
    uint64_t value;
    const Entry* entry;
  };
  void find_first_waiters(std::vector<FirstWaiter>& firsts);
  // Whether the entry waits behind another client's point on the same counter (not to be looked
  // at by time). Lock held.
  static bool waits_behind(Entry& e, const std::vector<FirstWaiter>& firsts);
  // Whether the entry is the first waiter on its counter. Lock held.
  static bool first_waiter(const Entry& e, const std::vector<FirstWaiter>& firsts);

  const std::string name_;
  Workers workers_;
  std::mutex lock_;
  std::atomic<int> awaited_{0};      // threads waiting for lock_ in take_lock()
  std::condition_variable settled_;  // remove(): a look or a finish ended
  std::list<Entry> entries_;         // lock
  // lock: the entries with a frame to look at or finish (woken, and not idle since), first to last:
  // the passes walk these only.
  Entry* active_first_ = nullptr;
  Entry* active_last_ = nullptr;
  // lock: clients whose finish on the service's thread waits for the end of the pass (run()), so
  // that the frames handed to workers in the same pass go first.
  std::vector<Entry*> here_;
  // lock: clients whose finish may block, finished after the pass by the leading thread, which lends
  // the rounds to the standby for it (lead()).
  std::vector<Entry*> lent_;
  // The service's thread: what it did, logged when it ends (GST_DEBUG=vkcomputecompletions:4).
  uint64_t rounds_ = 0, looks_ = 0, passed_looks_ = 0, finished_here_ = 0, handed_over_ = 0;
  uint64_t lent_finishes_ = 0, takeovers_ = 0;
  size_t most_workers_ = 0;
  Clock::time_point planned_wake_;  // lock: when the waiting thread will look next
  WakeTimer timer_;                 // set to planned_wake_, with the lock held
  bool stopping_ = false;           // lock
  // The two threads: one leads the rounds (leader_), the other stands by, asleep on standby_timer_,
  // which the leader sets to lend_until_ before a finish that may block (lending_) and disarms after
  // it. Should the finish run past that, the standby leads from then on, and the old leader stands
  // by once its finish returns (standby_free_ false until then: finishes go to workers meanwhile).
  std::thread threads_[2];
  int leader_ = 0;                // lock
  bool lending_ = false;          // lock
  bool standby_free_ = true;      // lock
  Clock::time_point lend_until_;  // lock
  WakeTimer standby_timer_;       // set with the lock held
};

}  // namespace vkc
