#include "completions.hpp"

#include <pthread.h>
#include <sys/prctl.h>

#include <algorithm>
#include <map>
#include <thread>

#include "vk/device.hpp"

GST_DEBUG_CATEGORY_STATIC(completions_debug);
#define GST_CAT_DEFAULT completions_debug

namespace vkc {

namespace {
// The kernel may stretch a nap by the thread's timer slack (50 us by default): far more than the
// shortest naps the clients ask for.
constexpr unsigned long kTimerSlackNs = 2'000;
// A round looks at the clients due this soon too, and a wake() this close to the round planned
// already does not wake the thread: one round serves the frames of many streams that end close
// together, instead of a round, and a sleep and wake of the thread, each.
constexpr auto kCoalesce = std::chrono::microseconds(100);
// Passes of a round at most: another pass follows one that found a frame done (the counters moved,
// so clients waiting behind it may be done too).
constexpr int kPasses = 4;
// How long a finish that may block runs on the leading thread before the standby takes the rounds
// over (the other clients' frames wait that long at most, and a wake).
constexpr auto kTakeOver = std::chrono::microseconds(500);
// A wake this much after its planned moment is logged (a frame then waited for the thread, not the GPU).
constexpr auto kLateWake = std::chrono::microseconds(500);
}  // namespace

struct CompletionService::Entry {
  explicit Entry(Client* c) : client(c) {}
  Client* const client;
  Clock::time_point next = Clock::time_point::max();  // service lock: when to look
  bool looking = false;                               // service lock: look() runs
  bool finishing = false;                             // service lock: finish() is queued or runs
  // Service lock: in the list of active entries, which the passes walk (linked through the entries:
  // no allocation as a stream's frame comes and goes).
  bool active = false;
  Entry* active_prev = nullptr;
  Entry* active_next = nullptr;
  // Service lock: the oldest frame's point, from push() (wake()) or the last look (kLater).
  void set_point(Client::Point p) {
    point = std::move(p);
    value = 0;
  }
  // Its value (0 while unknown), kept once known: it never changes then, and the passes read it
  // several times (each read a cache miss in the point's holder with hundreds of clients).
  uint64_t at() {
    if (value == 0) value = point.at();
    return value;
  }
  bool passed() {
    const uint64_t v = at();
    return v != 0 && point.counter->load(std::memory_order_relaxed) >= v;
  }
  // Nothing to look at until the client's next wake(): out of the active list.
  bool idle() const { return !finishing && !looking && next == Clock::time_point::max() && !point.value; }
  Client::Point point;

 private:
  uint64_t value = 0;
};

CompletionService::CompletionService(const std::string& name)
    : name_(name), workers_(name.substr(0, 10) + ":done") {
  GST_DEBUG_CATEGORY_INIT(completions_debug, "vkcomputecompletions", 0, "vkcompute completion service");
  planned_wake_ = Clock::time_point::max();
  for (int i = 0; i < 2; ++i)
    threads_[i] = std::thread(&CompletionService::serve, this, i, name.substr(0, 10) + ":wait");
}

CompletionService::~CompletionService() {
  {
    std::lock_guard<std::mutex> guard(lock_);
    stopping_ = true;
    timer_.set(Clock::now());
    standby_timer_.set(Clock::now());
  }
  for (std::thread& t : threads_) t.join();
  GST_INFO("%s: %" G_GUINT64_FORMAT " rounds, %" G_GUINT64_FORMAT " looks (%" G_GUINT64_FORMAT
           " as their points passed), %" G_GUINT64_FORMAT
           " finishes on its thread that cannot block, %" G_GUINT64_FORMAT " that may (%" G_GUINT64_FORMAT
           " taken over by the standby), %" G_GUINT64_FORMAT " on workers (%zu workers at most)",
           name_.c_str(), rounds_, looks_, passed_looks_, finished_here_, lent_finishes_, takeovers_,
           handed_over_, most_workers_);
}

bool CompletionService::on_service_thread() const {
  const std::thread::id me = std::this_thread::get_id();
  return me == threads_[0].get_id() || me == threads_[1].get_id();
}

std::shared_ptr<CompletionService> CompletionService::for_device(const Device& device) {
  static std::mutex lock;
  static std::map<const Device*, std::weak_ptr<CompletionService>> services;
  std::lock_guard<std::mutex> guard(lock);
  auto& slot = services[&device];
  std::shared_ptr<CompletionService> service = slot.lock();
  if (!service) {
    const std::string name = "vkc" + std::to_string(device.index());
    service = std::make_shared<CompletionService>(name);
    slot = service;
  }
  // A device closed and another opened at its address finds its own service: the old one's last
  // holder has let it go before the device could close.
  return service;
}

CompletionService::Entry* CompletionService::add(Client* client) {
  std::lock_guard<std::mutex> guard(lock_);
  entries_.emplace_back(client);
  return &entries_.back();
}

void CompletionService::remove(Entry* entry) {
  std::unique_lock<std::mutex> guard(lock_);
  // On the service's thread (a finish there whose message an application's bus handler answers by
  // stopping another pipeline), a finish put off to the end of the pass is dropped rather than
  // waited for: it would run on this very thread, after the finish that removes it. The client is
  // stopping: its frames in flight go to its stop()'s caller.
  if (on_service_thread()) {
    for (std::vector<Entry*>* put_off_list : {&here_, &lent_}) {
      auto put_off = std::find(put_off_list->begin(), put_off_list->end(), entry);
      if (put_off != put_off_list->end()) {
        put_off_list->erase(put_off);
        entry->finishing = false;
      }
    }
  }
  settled_.wait(guard, [&] { return !entry->looking && !entry->finishing; });
  deactivate(entry);
  entries_.remove_if([&](const Entry& e) { return &e == entry; });
}

void CompletionService::wake(Entry* entry, Clock::time_point when) {
  const std::unique_lock<std::mutex> guard = take_lock();
  wake_locked(entry, when);
}

void CompletionService::wake(Entry* entry, Clock::time_point when, Client::Point point) {
  // One locked section: an entry holding a point but no moment to be looked at would be a first
  // waiter that the round's plan leaves out.
  const std::unique_lock<std::mutex> guard = take_lock();
  entry->set_point(std::move(point));
  wake_locked(entry, when);
}

void CompletionService::wake_locked(Entry* entry, Clock::time_point when) {
  activate(entry);
  if (when == Clock::time_point::min()) when = Clock::now();
  if (when == Clock::time_point::max()) return;  // never: nothing to plan (and no overflow below)
  entry->next = std::min(entry->next, when);
  // A client that a worker finishes is looked at when the finish returns (finished()).
  if (!entry->finishing && when + kCoalesce < planned_wake_) {
    planned_wake_ = when;
    timer_.set(when);
  }
}

void CompletionService::activate(Entry* entry) {
  if (entry->active) return;
  entry->active = true;
  entry->active_prev = active_last_;
  entry->active_next = nullptr;
  (active_last_ ? active_last_->active_next : active_first_) = entry;
  active_last_ = entry;
}

void CompletionService::deactivate(Entry* entry) {
  if (!entry->active) return;
  entry->active = false;
  (entry->active_prev ? entry->active_prev->active_next : active_first_) = entry->active_next;
  (entry->active_next ? entry->active_next->active_prev : active_last_) = entry->active_prev;
  entry->active_prev = entry->active_next = nullptr;
}

std::unique_lock<std::mutex> CompletionService::take_lock() {
  std::unique_lock<std::mutex> guard(lock_, std::try_to_lock);
  if (!guard.owns_lock()) {
    awaited_++;
    guard.lock();
    awaited_--;
  }
  return guard;
}

void CompletionService::hand_over(Entry* entry) {
  handed_over_++;
  workers_.run([this, entry] {
    entry->client->finish(false);
    finished(entry);
  });
  most_workers_ = std::max(most_workers_, workers_.threads());
}

void CompletionService::finished(Entry* entry) {
  const std::unique_lock<std::mutex> guard = take_lock();
  finished_locked(entry);
}

void CompletionService::finished_locked(Entry* entry) {
  entry->finishing = false;
  // Looked at again when the client asked during its finish (wake()), if it did: a frame of a live
  // stream finished on a worker costs no round of the service after it.
  if (entry->next < planned_wake_) {
    planned_wake_ = entry->next;
    timer_.set(planned_wake_);
  }
  settled_.notify_all();
}

void CompletionService::find_first_waiters(std::vector<FirstWaiter>& firsts) {
  firsts.clear();
  for (Entry* active = active_first_; active; active = active->active_next) {
    Entry& e = *active;
    const uint64_t value = e.finishing ? 0 : e.at();
    if (value == 0 || e.passed()) continue;
    auto first = std::find_if(firsts.begin(), firsts.end(),
                              [&](const FirstWaiter& f) { return f.counter == e.point.counter; });
    if (first == firsts.end())
      firsts.push_back({e.point.counter, value, &e});
    else if (value < first->value)
      *first = {e.point.counter, value, &e};
  }
}

bool CompletionService::first_waiter(const Entry& e, const std::vector<FirstWaiter>& firsts) {
  return std::any_of(firsts.begin(), firsts.end(), [&](const FirstWaiter& f) { return f.entry == &e; });
}

bool CompletionService::waits_behind(Entry& e, const std::vector<FirstWaiter>& firsts) {
  const uint64_t value = e.at();
  if (value == 0) return false;
  for (const FirstWaiter& f : firsts)
    if (f.counter == e.point.counter) return f.entry != &e && value >= f.value;
  return false;  // passed
}

void CompletionService::serve(int me, const std::string& name) {
  pthread_setname_np(pthread_self(), name.c_str());
  prctl(PR_SET_TIMERSLACK, kTimerSlackNs);
  std::unique_lock<std::mutex> guard(lock_);
  while (!stopping_) {
    if (leader_ == me) {
      lead(me, guard);
      continue;
    }
    // The standby: asleep until the leader's finish has run past lend_until_ (or a stop).
    guard.unlock();
    standby_timer_.sleep();
    guard.lock();
    if (!stopping_ && leader_ != me && lending_ && Clock::now() >= lend_until_) {
      leader_ = me;
      lending_ = false;
      standby_free_ = false;  // the deposed leader is still in its finish
      takeovers_++;
      standby_timer_.set(Clock::time_point::max());
    }
  }
}

void CompletionService::lead(int me, std::unique_lock<std::mutex>& guard) {
  // The first waiters of a pass, by entry address: compared, never followed (an entry removed while
  // a look ran may still be named; one added at its address gets one look more).
  std::vector<FirstWaiter> firsts;
  while (!stopping_ && leader_ == me) {
    rounds_++;
    bool moved = true;
    for (int pass = 0; moved && pass < kPasses && !stopping_; ++pass) {
      moved = false;
      find_first_waiters(firsts);
      // The clock is read again only after a look (which takes its time), not for every entry: on
      // a host whose clock source makes each read a system call, reading it per entry took a
      // quarter of this thread with 64 live chains (320 clients; lent H200, run 205).
      Clock::time_point now = Clock::now();
      bool now_stale = false;
      // The active entries only: a live stream has a frame in flight a few % of the time, and with
      // 400 streams, walking every entry in each pass took half of this thread (lent H200, run 211).
      // One added during a look is walked in this pass too; one removed was not being looked at.
      for (Entry* active = active_first_; active; active = active->active_next) {
        Entry& e = *active;
        if (e.finishing) continue;  // looked at again when its finish returns
        const bool passed = e.passed();
        // Each queue's first waiter is looked at in every pass, due or not: a look is a read of a
        // counter, and a round that finds the work of a chain's middle done often comes as its tail,
        // on another queue, has ended too (the service saw a live chain's output 0.3-0.4 ms after
        // its GPU work ended, waiting for the tail's own planned look).
        if (!passed && waits_behind(e, firsts)) continue;
        if (now_stale) {
          now = Clock::now();
          now_stale = false;
        }
        if (!passed && e.next > now + kCoalesce && !first_waiter(e, firsts)) continue;
        if (passed) passed_looks_++;
        // The look runs outside the lock; the entry stays in the list meanwhile (remove() waits).
        e.looking = true;
        e.next = Clock::time_point::max();  // a wake() during the look sets it again
        e.set_point({});
        guard.unlock();
        Clock::time_point next = Clock::time_point::max();
        Client::Point point;
        const Client::Look look = e.client->look(now, next, point);
        looks_++;
        now_stale = true;
        guard.lock();
        e.looking = false;
        if (look == Client::Look::kFinishHere) {
          // After the pass's looks: a frame whose output waits to be pushed (on a worker) is not
          // held behind the results that other clients post here.
          e.finishing = true;
          here_.push_back(&e);
        } else if (look == Client::Look::kReady) {
          e.finishing = true;
          lent_.push_back(&e);
        } else if (look == Client::Look::kHandOver) {
          e.finishing = true;
          hand_over(&e);
        } else if (look == Client::Look::kLater) {
          e.next = std::min(e.next, next);
          e.set_point(std::move(point));
        }
        moved = moved || look == Client::Look::kReady || look == Client::Look::kFinishHere ||
                look == Client::Look::kHandOver;
        settled_.notify_all();
      }
      // Finishes that may block, first (they push frames): here, no wake of another thread, while the
      // standby waits to take the rounds over should one run past kTakeOver (a push that blocks
      // downstream); on a worker when the standby is itself held in such a finish.
      while (!lent_.empty()) {
        Entry* e = lent_.front();
        lent_.erase(lent_.begin());
        if (!standby_free_) {
          hand_over(e);
          continue;
        }
        lending_ = true;
        lend_until_ = Clock::now() + kTakeOver;
        standby_timer_.set(lend_until_);
        guard.unlock();
        e->client->finish(false);
        guard.lock();
        lent_finishes_++;
        finished_locked(e);
        if (leader_ != me) {
          standby_free_ = true;  // deposed: the standby leads now, and this thread stands by
          return;
        }
        lending_ = false;
        standby_timer_.set(Clock::time_point::max());
      }
      while (!here_.empty()) {
        Entry* e = here_.front();
        here_.erase(here_.begin());
        guard.unlock();
        e->client->finish(true);  // the client wakes the service for the frames behind it (or a push does)
        guard.lock();
        finished_here_++;
        e->finishing = false;
        settled_.notify_all();
      }
    }
    // Also what wake() asked for while the looks ran.
    // A finish queued behind blocked workers gets a thread of its own in time.
    planned_wake_ = workers_.check(awaited_.load() > 0);
    find_first_waiters(firsts);
    for (Entry* active = active_first_; active;) {
      Entry& e = *active;
      active = active->active_next;
      if (e.idle()) {
        deactivate(&e);
        continue;
      }
      if (e.finishing) continue;
      if (e.passed())
        planned_wake_ = Clock::time_point::min();
      else if (!waits_behind(e, firsts))
        planned_wake_ = std::min(planned_wake_, e.next);
    }
    if (!stopping_ && planned_wake_ > Clock::now()) {
      // Until then, a wake() for an earlier moment moves the timer without waking the thread.
      timer_.set(planned_wake_);
      const Clock::time_point planned = planned_wake_;
      guard.unlock();
      timer_.sleep();
      // A wake well after the planned moment (the thread not run in time) holds every frame due then.
      const auto late = Clock::now() - planned;
      if (late > kLateWake)
        GST_LOG("woke %.3f ms after the planned moment",
                std::chrono::duration<double, std::milli>(late).count());
      guard.lock();
    }
  }
}

}  // namespace vkc
