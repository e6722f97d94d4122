// Submissions of several threads to one queue that are ready at the same moment go to the driver in
// one call (flat combining). Live streams paced by one clock (cameras, a pacing thread feeding
// several pipelines) record their frames at once on their streaming threads; each used to call
// vkQueueSubmit itself, one after the other under the queue's lock. Now a thread that finds no
// submission under way takes every submission waiting then, its own among them, and submits them
// together, each still its own VkSubmitInfo with its own value of the queue's timeline (in the order
// they came); the others find theirs done when it returns. A thread alone submits at once, as
// before: nothing waits for company.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <vector>

#include "timeline.hpp"

namespace vkc {

class SubmitCombiner {
 public:
  // Submits the submissions it is given, in one call, setting their values (under the queue's lock:
  // Timeline::submit_all()).
  using SubmitAll = std::function<void(std::vector<Timeline::Submission>&)>;

  // Submits `info` (with `label` and `others`, as Timeline::submit() takes them), with whatever other
  // threads submit at the same moment, by `submit_all` on this thread or another's; returns its
  // value once it is submitted. Throws what the driver threw for the call that held it.
  uint64_t submit(const vk::SubmitInfo& info, const char* label, uint32_t others,
                  const SubmitAll& submit_all);

  // Calls to the driver so far, and the submissions they held (for tests and the bench's log).
  uint64_t calls() const;
  uint64_t submissions() const;

 private:
  struct Request {
    Timeline::Submission submission;
    bool done = false;  // mutex_
    std::exception_ptr error;
  };

  mutable std::mutex mutex_;
  std::condition_variable done_;
  std::vector<Request*> pending_;         // mutex_: waiting for a call, in the order they came
  bool submitting_ = false;               // mutex_: a thread is in a call
  uint64_t calls_ = 0, submissions_ = 0;  // mutex_
};

}  // namespace vkc
