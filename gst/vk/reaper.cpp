#include "reaper.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#define GST_CAT_DEFAULT gst_vkcompute_runtime_debug

namespace vkc {
namespace {

struct Abandoned {
  std::unique_ptr<CommandRing> ring;
  std::shared_ptr<void> resources;
};

// How long the thread waits on one ring before it looks at the others again.
constexpr uint64_t kPollNs = 20'000'000;

// The jobs and their thread. Leaked on purpose: the thread is detached and may still run while
// the process exits, after static destructors.
struct Reaper {
  std::mutex lock;
  std::condition_variable added;
  std::vector<Abandoned> jobs;  // lock

  void run() {
    std::unique_lock<std::mutex> guard(lock);
    for (;;) {
      added.wait(guard, [&] { return !jobs.empty(); });
      std::vector<Abandoned> pending = std::move(jobs);
      jobs.clear();
      guard.unlock();
      std::vector<Abandoned> still;
      for (Abandoned& job : pending) {
        if (job.ring->wait_all(kPollNs) == Completion::kPending) {
          still.push_back(std::move(job));
          continue;
        }
        job.resources.reset();  // before the ring, whose fences guard them
        job.ring.reset();
        GST_INFO("released the resources of GPU work that finished after its element let go");
      }
      guard.lock();
      for (Abandoned& job : still) jobs.push_back(std::move(job));
    }
  }
};

Reaper& reaper() {
  static Reaper* instance = [] {
    auto* created = new Reaper();
    std::thread(&Reaper::run, created).detach();
    return created;
  }();
  return *instance;
}

}  // namespace

void release_after_gpu(std::unique_ptr<CommandRing> ring, std::shared_ptr<void> resources) {
  if (!ring || ring->wait_all(0) != Completion::kPending) {
    resources.reset();
    return;
  }
  GST_INFO("GPU work still running: its resources are released when it completes");
  Reaper& r = reaper();
  {
    std::lock_guard<std::mutex> guard(r.lock);
    r.jobs.push_back(Abandoned{std::move(ring), std::move(resources)});
  }
  r.added.notify_one();
}

}  // namespace vkc
