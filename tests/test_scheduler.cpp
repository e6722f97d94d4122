// vkc::FrameScheduler alone, with a fake GPU whose frames complete when a test says so: each frame
// leaves the moment its GPU work is done, without a later frame pushed; frames leave in order; the
// ring never holds more than its depth; flows, drains, flushes, a slow frame, a lost device and a
// stop with frames still on the GPU behave as the element relies on. The base class's other parts
// with no GObject in them (held outputs, the start gate) and the queues' lock are tested here too.
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/completions.hpp"
#include "base/heldoutputs.hpp"
#include "base/scheduler.hpp"
#include "base/startgate.hpp"
#include "base/workers.hpp"
#include "vk/queue_lock.hpp"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

namespace {

using vkc::Completion;
using vkc::FrameScheduler;
using namespace std::chrono_literals;

constexpr uint32_t kDepth = 4;
constexpr uint64_t kLongTimeoutNs = 60'000'000'000ull;
constexpr auto kPatience = 30s;  // how long a test waits for something that must happen

// A GPU whose frames complete when the test calls complete(n), or never (lose() ends them all).
class FakeGpu {
 public:
  Completion status(uint32_t slot) {
    std::lock_guard<std::mutex> guard(lock_);
    if (lost_) return Completion::kLost;
    return completed_.count(in_slot_[slot]) > 0 ? Completion::kDone : Completion::kPending;
  }
  void submit(uint32_t slot, int frame) {
    std::lock_guard<std::mutex> guard(lock_);
    in_slot_[slot] = frame;
  }
  void complete(int frame) {
    std::lock_guard<std::mutex> guard(lock_);
    completed_.insert(frame);
  }
  void lose() {
    std::lock_guard<std::mutex> guard(lock_);
    lost_ = true;
  }

 private:
  std::mutex lock_;
  int in_slot_[kDepth] = {-1, -1, -1, -1};
  std::set<int> completed_;
  bool lost_ = false;
};

// What happened to the frames, as the scheduler's threads report it.
class Log {
 public:
  void add(std::vector<int>& list, int frame) {
    std::lock_guard<std::mutex> guard(lock_);
    list.push_back(frame);
    changed_.notify_all();
  }
  std::vector<int> get(const std::vector<int>& list) {
    std::lock_guard<std::mutex> guard(lock_);
    return list;
  }
  // Waits until `list` holds `n` entries; false after kPatience.
  bool wait_for(const std::vector<int>& list, size_t n) {
    std::unique_lock<std::mutex> guard(lock_);
    return changed_.wait_for(guard, kPatience, [&] { return list.size() >= n; });
  }
  std::vector<int> finished;
  std::vector<int> released;
  std::vector<int> failures;  // the Completion reported, as int
  // The names of the threads that finished frames, and how many each finished.
  void note_thread(const std::string& name) {
    std::lock_guard<std::mutex> guard(lock_);
    threads.insert(name);
    finishes_by[name]++;
  }
  std::set<std::string> get_threads() {
    std::lock_guard<std::mutex> guard(lock_);
    return threads;
  }
  int finishes_on(const std::string& name) {
    std::lock_guard<std::mutex> guard(lock_);
    return finishes_by[name];
  }
  std::set<std::string> threads;
  std::map<std::string, int> finishes_by;

 private:
  std::mutex lock_;
  std::condition_variable changed_;
};

// A finish that blocks until the test opens it, as a push into a downstream waiting for its clock.
class Gate {
 public:
  void pass() {
    std::unique_lock<std::mutex> guard(lock_);
    waiting_ = true;
    changed_.notify_all();
    changed_.wait(guard, [&] { return open_; });
  }
  // Waits until a finish waits at the gate; false after kPatience.
  bool wait_for_waiter() {
    std::unique_lock<std::mutex> guard(lock_);
    return changed_.wait_for(guard, kPatience, [&] { return waiting_; });
  }
  void open() {
    std::lock_guard<std::mutex> guard(lock_);
    open_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex lock_;
  std::condition_variable changed_;
  bool waiting_ = false;
  bool open_ = false;
};

class FakeFrame : public FrameScheduler::Work {
 public:
  FakeFrame(int n, Log& log, GstFlowReturn flow, Gate* gate, bool may_block, bool slow)
      : n_(n), log_(log), flow_(flow), gate_(gate), may_block_(may_block), slow_(slow) {}
  ~FakeFrame() override { log_.add(log_.released, n_); }
  GstFlowReturn finish() override {
    if (gate_) gate_->pass();
    char name[16] = "";
    pthread_getname_np(pthread_self(), name, sizeof(name));
    log_.note_thread(name);
    log_.add(log_.finished, n_);
    return flow_;
  }
  bool may_block() const override { return may_block_; }
  bool slow() const override { return slow_; }

 private:
  int n_;
  Log& log_;
  GstFlowReturn flow_;
  Gate* gate_;
  bool may_block_;
  bool slow_;
};

// A scheduler over a fake GPU, and the streaming thread's side of it.
struct Rig {
  explicit Rig(uint64_t timeout_ns = kLongTimeoutNs, std::shared_ptr<vkc::CompletionService> service =
                                                         std::make_shared<vkc::CompletionService>("test"))
      : scheduler(
            kDepth, timeout_ns, [this](uint32_t slot, FrameScheduler::Pending&) { return gpu.status(slot); },
            [this](Completion status) {
              if (before_report) before_report();
              log.add(log.failures, int(status));
            },
            std::move(service)) {}
  // reserve() and push() of frame `n`, as the element does; returns reserve()'s flow.
  GstFlowReturn submit(int n, GstFlowReturn finish_flow = GST_FLOW_OK, Gate* gate = nullptr,
                       bool may_block = true, bool slow = false) {
    uint32_t slot = 0;
    const GstFlowReturn flow = scheduler.reserve(slot);
    if (flow != GST_FLOW_OK) return flow;
    fail_unless(slot == uint32_t(n) % kDepth, "frame %d got slot %u", n, slot);
    gpu.submit(slot, n);
    scheduler.push(std::make_unique<FakeFrame>(n, log, finish_flow, gate, may_block, slow));
    return GST_FLOW_OK;
  }
  FakeGpu gpu;
  Log log;
  std::function<void()> before_report;  // runs in the report, before it is logged
  FrameScheduler scheduler;
};

// "0 1 2" for a log's list, in failure messages.
std::string Text(const std::vector<int>& frames) {
  std::string text;
  for (int n : frames) text += (text.empty() ? "" : " ") + std::to_string(n);
  return text.empty() ? "none" : text;
}

// "a, b" for a set of thread names, in failure messages.
std::string Text(const std::set<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

// Fails unless `got`, the flow `what` returned, is `want`.
void ExpectFlow(GstFlowReturn got, GstFlowReturn want, const char* what) {
  fail_unless(got == want, "%s returned %s, expected %s", what, gst_flow_get_name(got),
              gst_flow_get_name(want));
}

// Fails unless `what` (finished, released, failures) holds exactly `want`.
void ExpectLog(Log& log, const std::vector<int>& list, const std::vector<int>& want, const char* what) {
  const std::vector<int> got = log.get(list);
  fail_unless(got == want, "%s: %s, expected %s", what, Text(got).c_str(), Text(want).c_str());
}

}  // namespace

// Request and response: one frame in, and it leaves when the GPU is done, with nothing after it.
GST_START_TEST(test_frame_leaves_when_done) {
  Rig rig;
  for (int n = 0; n < 10; ++n) {
    ExpectFlow(rig.submit(n), GST_FLOW_OK, "submit(n)");
    rig.gpu.complete(n);
    fail_unless(rig.log.wait_for(rig.log.finished, size_t(n) + 1), "frame %d did not leave on its own", n);
  }
  ExpectLog(rig.log, rig.log.finished, std::vector<int>({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), "finished");
}
GST_END_TEST;

// Frames completing out of order on the GPU still leave in submission order.
GST_START_TEST(test_frames_leave_in_order) {
  Rig rig;
  for (int n = 0; n < 3; ++n) ExpectFlow(rig.submit(n), GST_FLOW_OK, "submit(n)");
  rig.gpu.complete(2);
  rig.gpu.complete(1);
  std::this_thread::sleep_for(50ms);  // a scheduler that finished out of order would do it now
  ExpectLog(rig.log, rig.log.finished, {}, "finished");
  rig.gpu.complete(0);
  fail_unless(rig.log.wait_for(rig.log.finished, 3), "frames did not leave once all were complete");
  ExpectLog(rig.log, rig.log.finished, std::vector<int>({0, 1, 2}), "finished");
}
GST_END_TEST;

// reserve() waits while `depth` frames are in flight, and goes on when the oldest leaves.
GST_START_TEST(test_full_ring_waits_for_the_oldest) {
  Rig rig;
  for (int n = 0; n < int(kDepth); ++n) ExpectFlow(rig.submit(n), GST_FLOW_OK, "submit(n)");
  std::thread producer([&] { rig.submit(int(kDepth)); });
  std::this_thread::sleep_for(50ms);
  ExpectLog(rig.log, rig.log.finished, {}, "finished");
  rig.gpu.complete(0);
  producer.join();  // returns only once frame 0 has left
  ExpectLog(rig.log, rig.log.finished, std::vector<int>({0}), "finished");
  // Waited for that long, frame 0 was handed to the service (kHandOverNs), which finished it while
  // the producer slept.
  fail_unless(rig.log.get_threads().count("test:wait") == 1, "frame 0 was not finished by the service");
  for (int n = 1; n <= int(kDepth); ++n) rig.gpu.complete(n);
  ExpectFlow(rig.scheduler.drain(), GST_FLOW_OK, "drain()");
  ExpectLog(rig.log, rig.log.finished, std::vector<int>({0, 1, 2, 3, 4}), "finished");
}
GST_END_TEST;

// A busy ring's frames (full, or one short of full: scheduler.hpp) are left to the streaming
// thread, which finishes them once the ring is full; when no frame follows (a burst, then
// nothing), they still leave on their own once the GPU is done, also when the ring becomes busy
// only after a frame has left.
GST_START_TEST(test_busy_ring_leaves_without_a_next_frame) {
  for (int frames : {int(kDepth) - 1, int(kDepth)}) {
    Rig rig;
    std::vector<int> all;
    for (int n = 0; n < frames; ++n) {
      ExpectFlow(rig.submit(n), GST_FLOW_OK, "submit(n)");
      all.push_back(n);
    }
    for (int n = 0; n < frames; ++n) rig.gpu.complete(n);
    fail_unless(rig.log.wait_for(rig.log.finished, size_t(frames)),
                "a ring of %d frames did not leave on its own: %s", frames,
                Text(rig.log.get(rig.log.finished)).c_str());
    ExpectLog(rig.log, rig.log.finished, all, "finished");
  }
  // A full ring whose oldest frame leaves is one short of full: the rest leave by the looks.
  Rig rig;
  for (int n = 0; n < int(kDepth); ++n) ExpectFlow(rig.submit(n), GST_FLOW_OK, "submit(n)");
  rig.gpu.complete(0);
  fail_unless(rig.log.wait_for(rig.log.finished, 1), "frame 0 of a full ring did not leave on its own");
  for (int n = 1; n < int(kDepth); ++n) rig.gpu.complete(n);
  fail_unless(rig.log.wait_for(rig.log.finished, kDepth),
              "a busy ring's frames did not leave on their own: %s",
              Text(rig.log.get(rig.log.finished)).c_str());
  ExpectLog(rig.log, rig.log.finished, std::vector<int>({0, 1, 2, 3}), "finished");
}
GST_END_TEST;

// A finished frame's flow reaches the streaming thread once, at its next call.
GST_START_TEST(test_downstream_flow_returns_once) {
  Rig rig;
  ExpectFlow(rig.submit(0, GST_FLOW_NOT_LINKED), GST_FLOW_OK, "submit(0, GST_FLOW_NOT_LINKED)");
  rig.gpu.complete(0);
  ExpectFlow(rig.scheduler.drain(), GST_FLOW_NOT_LINKED, "drain()");
  ExpectFlow(rig.submit(1), GST_FLOW_OK, "submit(1)");
  rig.gpu.complete(1);
  ExpectFlow(rig.scheduler.drain(), GST_FLOW_OK, "drain()");
}
GST_END_TEST;

// A flush drops the frames in flight once the GPU is done with them, finishing none.
GST_START_TEST(test_discard_drops_after_the_gpu) {
  Rig rig;
  for (int n = 0; n < 3; ++n) ExpectFlow(rig.submit(n), GST_FLOW_OK, "submit(n)");
  std::thread gpu([&] {
    std::this_thread::sleep_for(50ms);
    for (int n = 0; n < 3; ++n) rig.gpu.complete(n);
  });
  fail_unless(rig.scheduler.discard().empty(), "the flush handed frames back although the GPU finished them");
  gpu.join();
  ExpectLog(rig.log, rig.log.finished, {}, "finished");
  ExpectLog(rig.log, rig.log.released, std::vector<int>({0, 1, 2}), "released");
  ExpectFlow(rig.submit(3), GST_FLOW_OK, "submit(3)");
  rig.gpu.complete(3);
  ExpectFlow(rig.scheduler.drain(), GST_FLOW_OK, "drain()");
  ExpectLog(rig.log, rig.log.finished, std::vector<int>({3}), "finished");
}
GST_END_TEST;

// A frame that outlives the timeout is reported once, stays the GPU's (never released), and
// every later call returns an error only after the report.
GST_START_TEST(test_slow_frame_stalls) {
  Rig rig(20'000'000);
  ExpectFlow(rig.submit(0), GST_FLOW_OK, "submit(0)");
  ExpectFlow(rig.submit(1), GST_FLOW_OK, "submit(1)");
  ExpectFlow(rig.scheduler.drain(), GST_FLOW_ERROR, "drain()");
  ExpectLog(rig.log, rig.log.failures, std::vector<int>({int(Completion::kPending)}), "failures");
  ExpectFlow(rig.submit(2), GST_FLOW_ERROR, "submit(2)");
  ExpectLog(rig.log, rig.log.released, {}, "released");
  FrameScheduler::Frames left = rig.scheduler.discard();
  fail_unless(left.size() == 2, "%zu frames handed over by the flush, expected 2", left.size());
  ExpectFlow(rig.submit(3), GST_FLOW_ERROR, "submit(3)");
  fail_unless(rig.log.get(rig.log.failures).size() == 1, "the failure was reported twice");
}
GST_END_TEST;

// A frame that outlives the timeout in a busy ring, with no call after it (a live source that
// stopped), is reported all the same, once.
GST_START_TEST(test_slow_frame_in_a_busy_ring_is_reported) {
  Rig rig(20'000'000);
  for (int n = 0; n < int(kDepth) - 1; ++n) ExpectFlow(rig.submit(n), GST_FLOW_OK, "submit(n)");
  fail_unless(rig.log.wait_for(rig.log.failures, 1), "a slow frame in a busy ring was not reported");
  ExpectLog(rig.log, rig.log.failures, std::vector<int>({int(Completion::kPending)}), "failures");
  ExpectLog(rig.log, rig.log.released, {}, "released");
  FrameScheduler::Frames left = rig.scheduler.discard();
  fail_unless(left.size() == kDepth - 1, "%zu frames handed over by the flush, expected %u", left.size(),
              kDepth - 1);
}
GST_END_TEST;

// A flush that finds a frame stalled returns once its report has returned: the report (a worker's,
// outside the lock) may look at what the caller takes down next (the element's CUDA frames).
GST_START_TEST(test_flush_waits_for_a_report_in_progress) {
  Rig rig(20'000'000);
  std::atomic<bool> reporting{false};
  rig.before_report = [&] {
    reporting = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  };
  for (int n = 0; n < int(kDepth) - 1; ++n) ExpectFlow(rig.submit(n), GST_FLOW_OK, "submit(n)");
  while (!reporting) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  FrameScheduler::Frames left = rig.scheduler.discard();
  fail_unless(rig.log.get(rig.log.failures).size() == 1, "the flush returned while the report ran");
  fail_unless(left.size() == kDepth - 1, "%zu frames handed over by the flush, expected %u", left.size(),
              kDepth - 1);
}
GST_END_TEST;

// A lost device: one report, every frame dropped without being finished.
GST_START_TEST(test_lost_device_drops_everything) {
  Rig rig;
  for (int n = 0; n < 3; ++n) ExpectFlow(rig.submit(n), GST_FLOW_OK, "submit(n)");
  rig.gpu.lose();
  ExpectFlow(rig.scheduler.drain(), GST_FLOW_ERROR, "drain()");
  ExpectLog(rig.log, rig.log.failures, std::vector<int>({int(Completion::kLost)}), "failures");
  ExpectLog(rig.log, rig.log.finished, {}, "finished");
  ExpectLog(rig.log, rig.log.released, std::vector<int>({0, 1, 2}), "released");
}
GST_END_TEST;

// stop() does not wait for the GPU: the frames it runs are handed back, unreleased (stop()
// interrupts the completion thread's nap between looks at the fence).
GST_START_TEST(test_stop_hands_running_frames_back) {
  Rig rig;
  for (int n = 0; n < 3; ++n) ExpectFlow(rig.submit(n), GST_FLOW_OK, "submit(n)");
  rig.gpu.complete(0);
  fail_unless(rig.log.wait_for(rig.log.finished, 1), "frame 0 did not leave");
  FrameScheduler::Frames left = rig.scheduler.stop();
  fail_unless(left.size() == 2, "%zu frames handed back, expected 2", left.size());
  ExpectLog(rig.log, rig.log.released, std::vector<int>({0}), "released");
  uint32_t slot = 0;
  ExpectFlow(rig.scheduler.reserve(slot), GST_FLOW_FLUSHING, "reserve(slot)");
  left.clear();
  ExpectLog(rig.log, rig.log.released, std::vector<int>({0, 1, 2}), "released");
}
GST_END_TEST;

// Many elements share their device's completion service: every frame of each leaves on its own
// once done, and the threads looking and finishing stay few, whatever the number of elements (the
// finishes here never block, so one worker at a time is all they need, plus the service's thread).
GST_START_TEST(test_many_schedulers_share_one_service) {
  constexpr int kElements = 64;
  constexpr int kFrames = 6;
  auto service = std::make_shared<vkc::CompletionService>("test");
  std::vector<std::unique_ptr<Rig>> rigs;
  for (int e = 0; e < kElements; ++e) rigs.push_back(std::make_unique<Rig>(kLongTimeoutNs, service));
  size_t most_threads = 0;
  for (int n = 0; n < kFrames; ++n) {
    for (auto& rig : rigs) ExpectFlow(rig->submit(n), GST_FLOW_OK, "submit(n)");
    for (auto& rig : rigs) rig->gpu.complete(n);
    for (int e = 0; e < kElements; ++e)
      fail_unless(rigs[e]->log.wait_for(rigs[e]->log.finished, size_t(n) + 1),
                  "element %d: frame %d did not leave on its own", e, n);
    most_threads = std::max(most_threads, service->threads());
  }
  for (auto& rig : rigs) {
    std::vector<int> all(kFrames);
    for (int n = 0; n < kFrames; ++n) all[n] = n;
    ExpectLog(rig->log, rig->log.finished, all, "finished");
  }
  // The service's thread and a few workers (more only for finishes queued a millisecond behind
  // others, which a loaded machine may see now and then), never one per element.
  const size_t bound = kElements / 4;
  fail_unless(most_threads <= bound, "%zu threads for %d elements, expected at most %zu", most_threads,
              kElements, bound);
}
GST_END_TEST;

// Frames are finished on the service's thread, with no hand-over to another thread, whether or not
// their finish may block (a push downstream); one whose finish takes long for sure (an import to
// unpin, queries to read) goes to a worker at once.
GST_START_TEST(test_finishes_stay_on_the_service_thread) {
  struct Case {
    bool may_block, slow;
    const char* what;
    const char* thread;
  };
  for (const Case& c :
       {Case{true, false, "may block", "test:wait"}, Case{false, false, "cannot block", "test:wait"},
        Case{true, true, "take long", "test:done"}}) {
    Rig rig;
    for (int n = 0; n < 6; ++n) {
      ExpectFlow(rig.submit(n, GST_FLOW_OK, nullptr, c.may_block, c.slow), GST_FLOW_OK, "submit(n)");
      rig.gpu.complete(n);
      fail_unless(rig.log.wait_for(rig.log.finished, size_t(n) + 1), "frame %d did not leave on its own", n);
    }
    fail_unless(rig.log.get_threads() == std::set<std::string>{c.thread},
                "frames that %s were finished on %s, not only on %s", c.what,
                Text(rig.log.get_threads()).c_str(), c.thread);
  }
}
GST_END_TEST;

// A stream whose frames come less than a millisecond apart, on a GPU faster than it (the ring never
// busy: a crossing between two GPUs, a chain's element on the faster one), finishes its frames
// itself as the next one comes, instead of the service handing each one to a worker; the last one,
// with no frame after it, still leaves on its own.
GST_START_TEST(test_a_stream_that_comes_back_soon_finishes_its_own_frames) {
  Rig rig;
  constexpr int kFrames = 40;
  std::thread producer([&] {
    pthread_setname_np(pthread_self(), "producer");
    for (int n = 0; n < kFrames; ++n) {
      ExpectFlow(rig.submit(n), GST_FLOW_OK, "submit(n)");
      rig.gpu.complete(n);
      // Done at once, and the next frame 0.2 ms later: the ring holds one frame at a time.
      std::this_thread::sleep_for(200us);
    }
  });
  producer.join();
  fail_unless(rig.log.wait_for(rig.log.finished, kFrames), "the last frames did not leave on their own: %s",
              Text(rig.log.get(rig.log.finished)).c_str());
  std::vector<int> all(kFrames);
  for (int n = 0; n < kFrames; ++n) all[size_t(n)] = n;
  ExpectLog(rig.log, rig.log.finished, all, "finished");
  // The first frames, before the pace is known, and the last are the service's; a stretch of the
  // thread's may be too where it ran late (a loaded machine), never most of them.
  const int own = rig.log.finishes_on("producer");
  fail_unless(own >= kFrames / 2, "the streaming thread finished %d of %d frames, the service's worker %d",
              own, kFrames, rig.log.finishes_on("test:done"));
}
GST_END_TEST;

// A finish that blocks (a push into a downstream waiting for its clock) holds up its own element
// only: another element on the same service gets its frames finished meanwhile.
GST_START_TEST(test_blocked_finish_delays_no_other_element) {
  auto service = std::make_shared<vkc::CompletionService>("test");
  Rig blocked(kLongTimeoutNs, service), other(kLongTimeoutNs, service);
  Gate gate;
  ExpectFlow(blocked.submit(0, GST_FLOW_OK, &gate), GST_FLOW_OK, "submit(0) of the blocked element");
  blocked.gpu.complete(0);
  fail_unless(gate.wait_for_waiter(), "the blocked element's frame was never finished");
  for (int n = 0; n < 3; ++n) {
    ExpectFlow(other.submit(n), GST_FLOW_OK, "submit(n) of the other element");
    other.gpu.complete(n);
    fail_unless(other.log.wait_for(other.log.finished, size_t(n) + 1),
                "the other element's frame %d waited for the blocked finish", n);
  }
  ExpectLog(blocked.log, blocked.log.finished, {}, "finished of the blocked element");
  gate.open();
  ExpectFlow(blocked.scheduler.drain(), GST_FLOW_OK, "drain() of the blocked element");
  ExpectLog(blocked.log, blocked.log.finished, std::vector<int>({0}), "finished of the blocked element");
}
GST_END_TEST;

// Two finishes blocked at once: the first holds one of the service's threads, the standby takes the
// rounds over, and while the first is held, finishes that may block go to workers (the second, and a
// third element's frames, which still leave meanwhile).
GST_START_TEST(test_two_blocked_finishes_leave_the_rounds_running) {
  auto service = std::make_shared<vkc::CompletionService>("test");
  Rig first(kLongTimeoutNs, service), second(kLongTimeoutNs, service), other(kLongTimeoutNs, service);
  Gate first_gate, second_gate;
  ExpectFlow(first.submit(0, GST_FLOW_OK, &first_gate), GST_FLOW_OK,
             "submit(0) of the first blocked element");
  first.gpu.complete(0);
  fail_unless(first_gate.wait_for_waiter(), "the first blocked element's frame was never finished");
  ExpectFlow(second.submit(0, GST_FLOW_OK, &second_gate), GST_FLOW_OK,
             "submit(0) of the second blocked element");
  second.gpu.complete(0);
  fail_unless(second_gate.wait_for_waiter(), "the second blocked element's frame was never finished");
  for (int n = 0; n < 3; ++n) {
    ExpectFlow(other.submit(n), GST_FLOW_OK, "submit(n) of the other element");
    other.gpu.complete(n);
    fail_unless(other.log.wait_for(other.log.finished, size_t(n) + 1),
                "the other element's frame %d waited for the blocked finishes", n);
  }
  first_gate.open();
  second_gate.open();
  ExpectFlow(first.scheduler.drain(), GST_FLOW_OK, "drain() of the first blocked element");
  ExpectFlow(second.scheduler.drain(), GST_FLOW_OK, "drain() of the second blocked element");
  fail_unless(first.log.get_threads() == std::set<std::string>{"test:wait"} &&
                  second.log.get_threads() == std::set<std::string>{"test:done"} &&
                  other.log.get_threads() == std::set<std::string>{"test:done"},
              "finished on: the first blocked frame %s, the second %s, the other element's %s (want the "
              "service's, then workers)",
              Text(first.log.get_threads()).c_str(), Text(second.log.get_threads()).c_str(),
              Text(other.log.get_threads()).c_str());
}
GST_END_TEST;

// One element's frame on a fake GPU queue that reaches values in order (a timeline): the frame
// is done once the queue reaches `value`, the point it tells the service at push and at each look.
struct PointRig {
  PointRig(std::atomic<uint64_t>& reached, uint64_t value, std::shared_ptr<vkc::CompletionService> service)
      : reached_(reached),
        value_(std::make_shared<std::atomic<uint64_t>>(value)),
        scheduler(
            kDepth, kLongTimeoutNs,
            [this](uint32_t, FrameScheduler::Pending& pending) {
              looks++;
              if (reached_.load() >= value_->load()) return Completion::kDone;
              pending.point = point();
              return Completion::kPending;
            },
            [this](Completion status) { log.add(log.failures, int(status)); }, std::move(service)) {}
  vkc::CompletionService::Client::Point point() { return {&reached_, value_}; }
  void submit() {
    uint32_t slot = 0;
    ExpectFlow(scheduler.reserve(slot), GST_FLOW_OK, "reserve()");
    scheduler.push(std::make_unique<FakeFrame>(0, log, GST_FLOW_OK, nullptr, false, false), point());
  }
  std::atomic<uint64_t>& reached_;
  std::shared_ptr<std::atomic<uint64_t>> value_;
  std::atomic<int> looks{0};  // calls of the frame's status
  Log log;
  FrameScheduler scheduler;
};

// Elements waiting on one queue are looked at in the order of their points: only the first, at the
// times it asks for; the others (a chain's elements end at the same point, other streams' frames
// later) only once the queue has passed their points, when they all leave. Another queue's first
// waiter is looked at on its own.
GST_START_TEST(test_elements_behind_a_point_wait_for_it) {
  auto service = std::make_shared<vkc::CompletionService>("test");
  std::atomic<uint64_t> queue{0}, other_queue{0};
  PointRig first(queue, 5, service), same_point(queue, 5, service), later(queue, 6, service),
      on_other_queue(other_queue, 1, service);
  for (PointRig* rig : {&first, &same_point, &later, &on_other_queue}) rig->submit();
  // The first waiter of each queue is looked at again and again while its frame runs.
  const auto give_up = std::chrono::steady_clock::now() + kPatience;
  while ((first.looks < 3 || on_other_queue.looks < 3) && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(1ms);
  fail_unless(first.looks >= 3 && on_other_queue.looks >= 3,
              "the first waiters were looked at %d and %d times, expected 3 or more", first.looks.load(),
              on_other_queue.looks.load());
  fail_unless(same_point.looks == 0 && later.looks == 0,
              "elements behind the first waiter's point were looked at %d and %d times, expected never",
              same_point.looks.load(), later.looks.load());
  queue = 5;
  fail_unless(
      first.log.wait_for(first.log.finished, 1) && same_point.log.wait_for(same_point.log.finished, 1),
      "frames at the point the queue reached did not leave");
  ExpectLog(later.log, later.log.finished, {}, "finished behind the point reached");
  queue = 6;  // `later` is now the queue's first waiter
  other_queue = 1;
  fail_unless(later.log.wait_for(later.log.finished, 1) &&
                  on_other_queue.log.wait_for(on_other_queue.log.finished, 1),
              "the frames left behind did not leave once their queues reached them");
}
GST_END_TEST;

// A client of the service by hand: one frame, running until the test sets `done`, ending at
// `value` on `seen` (a queue's timeline as far as looks have read it; only this client's own look
// moves it). While it runs it asks to be looked at again `interval` later; when done its finish
// is on the service's thread (`here`) or a worker's. Looks and finishes go into a shared journal.
class FakeClient : public vkc::CompletionService::Client {
 public:
  using Service = vkc::CompletionService;
  FakeClient(std::string name, std::atomic<bool>& done, std::atomic<uint64_t>& seen, uint64_t value,
             bool here, std::chrono::microseconds interval, std::shared_ptr<Service> service, Log& journal,
             std::vector<std::string>& events)
      : name_(std::move(name)),
        done_(done),
        seen_(seen),
        value_(std::make_shared<std::atomic<uint64_t>>(value)),
        here_(here),
        interval_(interval),
        service_(std::move(service)),
        journal_(journal),
        events_(events),
        entry_(service_->add(this)) {}
  ~FakeClient() { service_->remove(entry_); }
  void start() { service_->wake(entry_, Service::Clock::now() + interval_, {&seen_, value_}); }
  Look look(Service::Clock::time_point now, Service::Clock::time_point& next, Point& point) override {
    if (finished_) return Look::kIdle;
    if (done_) {
      seen_ = std::max(seen_.load(), value_->load());
      note("look " + name_);
      return here_ ? Look::kFinishHere : Look::kReady;
    }
    next = now + interval_;
    point = {&seen_, value_};
    return Look::kLater;
  }
  void finish(bool) override {
    finished_ = true;
    note("finish " + name_);
    if (on_finish) on_finish();
    journal_.add(journal_.finished, 0);
  }
  std::function<void()> on_finish;  // runs in finish(), as an application's bus handler would

 private:
  void note(const std::string& event) {
    std::lock_guard<std::mutex> guard(events_lock_);
    events_.push_back(event);
  }
  std::string name_;
  std::atomic<bool>& done_;
  std::atomic<uint64_t>& seen_;
  std::shared_ptr<std::atomic<uint64_t>> value_;
  bool here_;
  std::chrono::microseconds interval_;
  std::shared_ptr<Service> service_;
  Log& journal_;
  std::vector<std::string>& events_;
  static inline std::mutex events_lock_;
  std::atomic<bool> finished_{false};
  Service::Entry* entry_;
};

// One service and what its hand-made clients share: a queue's counter, a frame's done flag, the
// journal of finishes and the events in order.
struct ServiceRig {
  std::shared_ptr<vkc::CompletionService> service = std::make_shared<vkc::CompletionService>("test");
  std::atomic<uint64_t> queue{0};
  std::atomic<bool> done{false};
  Log journal;
  std::vector<std::string> events;
  // A client whose frame ends at point 1 of the queue, done with `done`, asking to be looked at
  // every millisecond.
  std::unique_ptr<FakeClient> client(const char* name, bool here) {
    return std::make_unique<FakeClient>(name, done, queue, 1, here, 1ms, service, journal, events);
  }
  // Where `event` is among the events (their count when absent).
  int at(const std::string& event) const {
    return int(std::find(events.begin(), events.end(), event) - events.begin());
  }
};

// Each queue's first waiter is looked at in every round of the service, due or not: a frame that
// asked to be looked at only a minute later (a chain's tail on the download queue, its look
// planned late) is seen done in a round that another queue's client asked for (its chain's middle).
GST_START_TEST(test_first_waiters_are_looked_at_every_round) {
  auto service = std::make_shared<vkc::CompletionService>("test");
  std::atomic<uint64_t> download{0}, compute{0};
  Log journal;
  std::vector<std::string> events;
  std::atomic<bool> tail_done{false}, middle_done{false};
  FakeClient tail("tail", tail_done, download, 1, false, std::chrono::minutes(1), service, journal, events);
  FakeClient middle("middle", middle_done, compute, 1, true, 1ms, service, journal, events);
  tail.start();
  middle.start();
  tail_done = true;  // its queue's counter stays where looks left it: only a look sees it done
  fail_unless(journal.wait_for(journal.finished, 1),
              "the first waiter of another queue was only looked at when it asked (a minute later)");
  middle_done = true;
  fail_unless(journal.wait_for(journal.finished, 2), "the other client's frame did not leave");
}
GST_END_TEST;

// A round that finds frames done whose finish cannot block (results to post) and frames to push
// finishes the pushes first: a live chain's output is not held behind its analyses' posts.
GST_START_TEST(test_a_round_hands_over_pushes_before_finishing_here) {
  ServiceRig rig;
  {
    // At one point of one queue (a chain's elements), the analysis added first: it is the first
    // waiter, looked at every millisecond; once a look finds it done, the queue has passed the
    // output's point too, and the same pass looks at the output.
    auto analysis = rig.client("analysis", true);
    auto output = rig.client("output", false);
    analysis->start();
    output->start();
    rig.done = true;
    fail_unless(rig.journal.wait_for(rig.journal.finished, 2), "the frames did not leave");
  }
  // The analysis, the queue's first waiter, is looked at first: otherwise the order below would
  // hold without the hand-over first.
  fail_unless(rig.at("look analysis") < rig.at("look output"), "the output's frame was looked at first");
  fail_unless(rig.at("look output") < rig.at("finish analysis"),
              "the output's frame was looked at (and pushed) only after the analysis' "
              "result was posted: events %d and %d of %zu",
              rig.at("look output"), rig.at("finish analysis"), rig.events.size());
}
GST_END_TEST;

// A finish on the service's thread may stop another client whose finish the same pass put off (an
// application's bus handler stopping another pipeline when a result comes): the stop returns, and
// the stopped client's finish never runs.
GST_START_TEST(test_a_finish_on_the_service_thread_may_stop_another_client) {
  ServiceRig rig;
  auto first = rig.client("first", true);
  auto second = rig.client("second", true);
  first->on_finish = [&] { second.reset(); };  // its destructor removes it from the service
  first->start();
  second->start();
  rig.done = true;
  fail_unless(rig.journal.wait_for(rig.journal.finished, 1), "the first client's frame did not leave");
  fail_unless(rig.at("finish second") == int(rig.events.size()),
              "the stopped client was finished after its stop");
}
GST_END_TEST;

// vkc::HeldOutputs: outputs held while the streaming thread is inside a frame leave in the order
// they were finished, also one that another thread finishes while release() pushes; the first flow
// that is not OK is returned; before hold() and after release() nothing is held.
GST_START_TEST(test_held_outputs_leave_in_order) {
  vkc::HeldOutputs held;
  auto frame = [](int n) {
    GstBuffer* buffer = gst_buffer_new();
    GST_BUFFER_OFFSET(buffer) = guint64(n);
    return buffer;
  };
  GstBuffer* early = frame(-1);
  fail_if(held.take(early), "an output was held before hold()");
  gst_buffer_unref(early);
  held.hold();
  fail_unless(held.take(frame(0)) && held.take(frame(1)));
  std::vector<int> pushed;
  bool taken_meanwhile = false;
  const GstFlowReturn flow = held.release([&](GstBuffer* out) {
    pushed.push_back(int(GST_BUFFER_OFFSET(out)));
    gst_buffer_unref(out);
    if (pushed.size() == 1) {  // the completion thread finishes frame 2 while frame 0 leaves
      std::thread other([&] { taken_meanwhile = held.take(frame(2)); });
      other.join();
    }
    return pushed.size() == 2 ? GST_FLOW_FLUSHING : GST_FLOW_OK;
  });
  fail_unless(taken_meanwhile, "an output finished during release() was not held");
  fail_unless(pushed == std::vector<int>({0, 1, 2}), "pushed %zu outputs out of order", pushed.size());
  fail_unless_equals_int(flow, GST_FLOW_FLUSHING);
  GstBuffer* late = frame(3);
  fail_if(held.take(late), "an output was held after release()");
  gst_buffer_unref(late);
}
GST_END_TEST;

// vkc::StartGate: while a start runs, another thread waits until it has ended, or until its pad
// flushes; the starting thread itself, and any thread when no start runs, pass at once. The waiter
// is seen waiting (it has looked at its pad twice) before the test ends the start or flushes.
GST_START_TEST(test_start_gate) {
  vkc::StartGate gate;
  auto never = [] { return false; };
  gate.wait(never);  // no start runs
  gate.begin();
  gate.wait(never);  // the starting thread
  for (const bool flush : {false, true}) {
    std::promise<void> waiting;
    std::atomic<int> polls{0};
    std::atomic<bool> signalled{false}, flushing{false}, ended{false}, passed_after_end{false};
    auto signal = [&] {  // once: waiting, or (a broken gate) passed without waiting
      if (!signalled.exchange(true)) waiting.set_value();
    };
    std::thread waiter([&] {
      gate.wait([&] {
        if (++polls == 2) signal();
        return flushing.load();
      });
      passed_after_end = ended.load();
      signal();
    });
    waiting.get_future().wait();
    if (flush) {
      flushing = true;
    } else {
      ended = true;
      gate.end();
    }
    waiter.join();
    fail_unless(passed_after_end == !flush, "a waiter passed %s",
                flush ? "after the start although its pad flushed" : "before the start ended");
    if (!flush) gate.begin();
  }
  gate.end();
}
GST_END_TEST;

// vkc::Workers (the completion service's finishing threads): a task queued behind two busy threads
// gets a third thread after a millisecond when both are blocked (pushes into downstreams that wait),
// and none when both are running (tasks waiting for a CPU, which another thread would not give them)
// or when the owner says threads wait for its lock (busy ones ending their task among them), for
// eight looks in a row, after which a thread starts anyway; the queued task runs on it.
GST_START_TEST(test_workers_grow_for_blocked_tasks_only) {
  struct Case {
    const char* what;
    bool blocked;
    bool owner_awaited;
    size_t threads;
  };
  for (const Case& c : {Case{"blocked", true, false, 3}, Case{"running", false, false, 2},
                        Case{"blocked with the owner's lock awaited", true, true, 2}}) {
    vkc::Workers workers("test:done");
    Gate gates[2];
    std::atomic<bool> spin{true};
    std::atomic<int> started{0};
    for (Gate& gate : gates)
      workers.run([&] {
        started++;
        if (c.blocked)
          gate.pass();
        else
          while (spin.load()) {
          }
      });
    std::promise<void> third_ran;
    workers.run([&] { third_ran.set_value(); });
    while (started.load() < 2) std::this_thread::yield();
    if (c.blocked)
      for (Gate& gate : gates) fail_unless(gate.wait_for_waiter(), "a blocked task never reached its gate");
    std::this_thread::sleep_for(2ms);  // the queued task has waited longer than a millisecond
    workers.check(c.owner_awaited);
    const size_t threads = workers.threads();
    fail_unless(threads == c.threads, "%zu threads with two %s tasks and one queued, expected %zu", threads,
                c.what, c.threads);  // A veto lasts a few looks: eight in a row, then a thread starts anyway.
    if (threads == 2) {
      int looks = 1;
      while (workers.threads() == 2 && looks < 20) {
        std::this_thread::sleep_for(2ms);
        workers.check(c.owner_awaited);
        looks++;
      }
      fail_unless(workers.threads() == 3 && looks == 8, "%s: a thread after %d looks, expected 8", c.what,
                  looks);
    }

    spin = false;
    for (Gate& gate : gates) gate.open();
    fail_unless(third_ran.get_future().wait_for(kPatience) == std::future_status::ready,
                "the queued task never ran behind two %s ones", c.what);
  }
}
GST_END_TEST;

// vkc::QueueLock: while one thread holds the lock, three threads wait for it, then a fourth that a
// stop hurried; when the lock is let go of, the hurried thread has it first, then the others.
GST_START_TEST(test_hurried_thread_submits_first) {
  vkc::QueueLock lock;
  std::mutex order_lock;
  std::vector<int> order;
  auto take = [&](int who) {
    std::lock_guard<vkc::QueueLock> hold(lock);
    std::lock_guard<std::mutex> guard(order_lock);
    order.push_back(who);
  };
  auto wait_for_waiters = [&](int n) {
    while (lock.waiters() < n) std::this_thread::yield();
  };
  lock.lock();
  std::vector<std::thread> threads;
  for (int who = 0; who < 3; ++who) {
    threads.emplace_back(take, who);
    wait_for_waiters(who + 1);
  }
  std::promise<std::thread::id> id;
  std::promise<void> go;
  threads.emplace_back([&] {
    id.set_value(std::this_thread::get_id());
    go.get_future().wait();
    take(3);
  });
  const std::thread::id fourth = id.get_future().get();
  lock.hurry(fourth, true);
  go.set_value();
  wait_for_waiters(4);
  lock.unlock();
  for (std::thread& t : threads) t.join();
  lock.hurry(fourth, false);
  fail_unless_equals_int(order.size(), 4);
  fail_unless(order.front() == 3, "the hurried thread had the lock after %d others",
              int(std::find(order.begin(), order.end(), 3) - order.begin()));
}
GST_END_TEST;

static Suite* scheduler_suite() {
  Suite* suite = suite_create("scheduler");
  TCase* tc = tcase_create("scheduler");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_frame_leaves_when_done);
  tcase_add_test(tc, test_frames_leave_in_order);
  tcase_add_test(tc, test_full_ring_waits_for_the_oldest);
  tcase_add_test(tc, test_busy_ring_leaves_without_a_next_frame);
  tcase_add_test(tc, test_downstream_flow_returns_once);
  tcase_add_test(tc, test_discard_drops_after_the_gpu);
  tcase_add_test(tc, test_slow_frame_stalls);
  tcase_add_test(tc, test_flush_waits_for_a_report_in_progress);
  tcase_add_test(tc, test_slow_frame_in_a_busy_ring_is_reported);
  tcase_add_test(tc, test_lost_device_drops_everything);
  tcase_add_test(tc, test_stop_hands_running_frames_back);
  tcase_add_test(tc, test_many_schedulers_share_one_service);
  tcase_add_test(tc, test_blocked_finish_delays_no_other_element);
  tcase_add_test(tc, test_two_blocked_finishes_leave_the_rounds_running);
  tcase_add_test(tc, test_elements_behind_a_point_wait_for_it);
  tcase_add_test(tc, test_first_waiters_are_looked_at_every_round);
  tcase_add_test(tc, test_a_round_hands_over_pushes_before_finishing_here);
  tcase_add_test(tc, test_a_finish_on_the_service_thread_may_stop_another_client);
  tcase_add_test(tc, test_finishes_stay_on_the_service_thread);
  tcase_add_test(tc, test_a_stream_that_comes_back_soon_finishes_its_own_frames);
  tcase_add_test(tc, test_held_outputs_leave_in_order);
  tcase_add_test(tc, test_start_gate);
  tcase_add_test(tc, test_workers_grow_for_blocked_tasks_only);
  tcase_add_test(tc, test_hurried_thread_submits_first);
  suite_add_tcase(suite, tc);
  return suite;
}

GST_CHECK_MAIN(scheduler);
