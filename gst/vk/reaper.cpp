#include "reaper.hpp"

#include "batch.hpp"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#define GST_CAT_DEFAULT gst_vkcompute_runtime_debug

namespace vkc {
namespace {

// The empty submissions made in one pass of the reaper's thread, by device.
using Submissions = std::map<const Device*, std::shared_ptr<CommandRing>>;

struct Abandoned {
  // Null until the reaper's thread submits after `device`'s work: one empty submission serves every
  // job of the device handed over by then (a pool that stops lets go of all its frames at once).
  std::shared_ptr<CommandRing> ring;
  std::shared_ptr<void> resources;
  std::shared_ptr<Device> device;  // for release_after_queue()
  // For release_at(), which names neither a ring nor a device: the resources wait for this moment.
  std::chrono::steady_clock::time_point not_before{};

  bool timed() const { return !ring && !device; }

  // Whether the GPU may still use the resources: the ring's work, made first when needed (`made`:
  // the device's submission of this pass, shared with the other jobs of the device).
  bool pending(Submissions& made) {
    if (timed()) return std::chrono::steady_clock::now() < not_before;
    try {
      if (!ring) {
        std::shared_ptr<CommandRing>& shared = made[device.get()];
        if (!shared) {
          auto submitted = std::make_shared<CommandRing>(device, 1, "vkcompute memory release", 0);
          submitted->begin(0);
          submitted->submit(0);
          shared = std::move(submitted);  // only once submitted: one that failed is made again
        }
        ring = shared;
      }
      return ring->wait_all(0) == Completion::kPending;
    } catch (const vk::DeviceLostError& e) {
      // The device no longer takes work: nothing of it runs any more either.
      GST_WARNING("releasing at once: %s", e.what());
      return false;
    } catch (const std::exception& e) {
      // Out of memory for the empty submission, most likely: the GPU may still use the resources,
      // so they wait, and the submission is tried again at the next look.
      GST_WARNING("keeping GPU work's resources for now: %s", e.what());
      return true;
    }
  }
};

// How often the thread looks at the rings again while some are still running.
constexpr auto kPoll = std::chrono::milliseconds(20);
// How long an exiting process waits for the GPU to finish the work whose resources the reaper holds.
constexpr auto kExitDrain = std::chrono::seconds(5);

// The jobs and their thread. Leaked on purpose: the thread is detached, and the process may exit
// while it has jobs.
struct Reaper {
  std::mutex lock;
  std::condition_variable changed;
  std::condition_variable released;  // a release is over (stop_at_exit() waits for it)
  std::vector<Abandoned> jobs;       // lock
  std::thread::id thread;            // the reaper's own thread
  // Jobs that releasing a job gave back (the last reference to a frame, whose pool frees memory
  // the GPU may still use): touched only by the reaper's thread, which merges them into `jobs`
  // once its releases are over. So a release never takes the lock, whatever it frees.
  std::vector<Abandoned> given_back_while_releasing;
  bool exiting = false;                  // lock: the process is exiting; leave everything as it is
  bool releasing = false;                // lock: the reaper's thread submits, looks or frees
  bool in_pass = false;                  // lock: the reaper's thread holds jobs taken out of `jobs`
  uint64_t exit_handler_generation = 0;  // lock: instance_generation() when stop_at_exit was registered

  void run() {
    std::unique_lock<std::mutex> guard(lock);
    for (;;) {
      changed.wait(guard, [&] { return exiting || !jobs.empty(); });
      if (exiting) return;
      // Taken out of the queue and released with the lock released: looking at a job submits (its
      // own empty work, or another thread's batch that holds its work), behind the queue's lock,
      // and freeing its resources frees device memory, may close a device or free a pool's frames,
      // which submit and wait in turn (vkmemory.cpp). The threads that hand jobs over (the
      // completion service's, any that drops the last reference to a buffer) must not wait for
      // that, nor hold what such a release waits for while they wait.
      std::vector<Abandoned> taken = std::move(jobs);
      jobs.clear();
      in_pass = true;
      std::vector<Abandoned> running;
      Submissions made;
      size_t next = 0;
      // An exiting process waits for the release under way (stop_at_exit()) instead of tearing the
      // driver down under it, and then no other starts.
      for (; next < taken.size() && !exiting; ++next) {
        Abandoned& job = taken[next];
        releasing = true;
        guard.unlock();
        const bool pending = job.pending(made);
        if (!pending) {
          job.resources.reset();  // before the ring, whose fences guard them
          job.ring.reset();
          job.device.reset();  // the last reference may close the device: not under the lock either
          if (!job.timed())
            GST_INFO("released the resources of GPU work that finished after its element let go");
        }
        guard.lock();
        releasing = false;
        released.notify_all();
        if (pending) running.push_back(std::move(job));
      }
      // The jobs still running hold their submission; a finished one may hold the last reference
      // to its device, so it goes without the lock.
      releasing = true;
      guard.unlock();
      made.clear();
      guard.lock();
      releasing = false;
      // Left as they are at exit.
      for (; next < taken.size(); ++next) running.push_back(std::move(taken[next]));
      for (Abandoned& job : given_back_while_releasing) running.push_back(std::move(job));
      given_back_while_releasing.clear();
      // Jobs handed over meanwhile are looked at now; the notification that came with them found
      // the thread busy.
      const bool arrived = !jobs.empty();
      jobs.insert(jobs.begin(), std::make_move_iterator(running.begin()),
                  std::make_move_iterator(running.end()));
      in_pass = false;
      released.notify_all();
      if (!jobs.empty() && !arrived) changed.wait_for(guard, kPoll);
    }
  }

  // At exit the driver and the validation layer tear down their state, which a release running
  // then would use. So the jobs are released first, as the GPU finishes them (kExitDrain at most):
  // a device that only they held closes now, with its driver's and layers' checks, instead of
  // staying open. What is left then stays (the process is ending anyway), after the release under
  // way. Not on the reaper's own thread (a release that ends the process), which would wait for
  // itself.
  void stop_at_exit() {
    std::unique_lock<std::mutex> guard(lock);
    const bool other_thread = std::this_thread::get_id() != thread;
    // Timed jobs (release_at()) are not waited for: what they hold may go with the process.
    auto only_timed = [&] {
      return std::all_of(jobs.begin(), jobs.end(), [](const Abandoned& job) { return job.timed(); });
    };
    if (other_thread) released.wait_for(guard, kExitDrain, [&] { return only_timed() && !in_pass; });
    exiting = true;
    changed.notify_one();
    if (other_thread) released.wait(guard, [&] { return !releasing; });
  }
};

Reaper& reaper() {
  static Reaper* instance = [] {
    auto* created = new Reaper();
    std::thread thread([created] {
      pthread_setname_np(pthread_self(), "vkc:reaper");
      created->run();
    });
    created->thread = thread.get_id();
    thread.detach();
    return created;
  }();
  return *instance;
}

}  // namespace

namespace {

// Registers stop_at_exit() again when an instance was made since it last was. Lock held.
void register_exit_handler(Reaper& r) {
  if (r.exit_handler_generation == instance_generation()) return;
  r.exit_handler_generation = instance_generation();
  std::atexit([] { reaper().stop_at_exit(); });
}

// Hands `job` to the reaper's thread.
void give(Abandoned job) {
  Reaper& r = reaper();
  if (std::this_thread::get_id() == r.thread) {
    r.given_back_while_releasing.push_back(std::move(job));
    return;
  }
  {
    std::lock_guard<std::mutex> guard(r.lock);
    // Exit handlers run in the reverse order of their registration: registered after the driver
    // in use was loaded (this job's instance exists), stop_at_exit runs before the driver's own
    // teardown. The driver is loaded anew with each instance, and its handlers with it (lavapipe
    // crashed in a release the reaper ran while the process exited: test_live, 1 run in 8).
    register_exit_handler(r);
    r.jobs.push_back(std::move(job));
  }
  r.changed.notify_one();
}

}  // namespace

void after_other_instance() {
  note_other_instance();
  Reaper& r = reaper();
  std::lock_guard<std::mutex> guard(r.lock);
  // Before any job the reaper has no handler: the first job registers it, after this instance.
  if (r.exit_handler_generation != 0) register_exit_handler(r);
}

void release_after_gpu(std::unique_ptr<CommandRing> ring, std::shared_ptr<void> resources) {
  if (!ring || ring->wait_all(0) != Completion::kPending) {
    resources.reset();
    return;
  }
  GST_INFO("GPU work still running: its resources are released when it completes");
  give(Abandoned{std::move(ring), std::move(resources), nullptr});
}

void release_at(std::chrono::steady_clock::time_point when, std::shared_ptr<void> resources) {
  give(Abandoned{nullptr, std::move(resources), nullptr, when});
}

void release_after_queue(std::shared_ptr<Device> device, std::shared_ptr<void> resources) {
  // Work the thread has recorded but keeps in its batch (a frame whose output it drops) is submitted
  // first: the reaper's submission comes after it.
  if (batch::open()) batch::flush();
  give(Abandoned{nullptr, std::move(resources), std::move(device)});
}

}  // namespace vkc
