#include "submit_combiner.hpp"

namespace vkc {

uint64_t SubmitCombiner::submit(const vk::SubmitInfo& info, const char* label, uint32_t others,
                                const SubmitAll& submit_all) {
  Request request{.submission = {.info = &info, .label = label, .others = others}};
  std::unique_lock<std::mutex> guard(mutex_);
  pending_.push_back(&request);
  while (!request.done) {
    if (submitting_) {
      done_.wait(guard);
      continue;
    }
    // No call under way: this thread makes the next one, for every submission waiting.
    submitting_ = true;
    std::vector<Request*> batch;
    batch.swap(pending_);
    guard.unlock();
    std::vector<Timeline::Submission> submissions;
    submissions.reserve(batch.size());
    for (const Request* r : batch) submissions.push_back(r->submission);
    std::exception_ptr error;
    try {
      submit_all(submissions);
    } catch (...) {
      error = std::current_exception();
    }
    guard.lock();
    for (size_t i = 0; i < batch.size(); ++i) {
      batch[i]->submission.value = submissions[i].value;
      batch[i]->error = error;
      batch[i]->done = true;
    }
    calls_++;
    submissions_ += batch.size();
    submitting_ = false;
    done_.notify_all();
  }
  guard.unlock();
  if (request.error) std::rethrow_exception(request.error);
  return request.submission.value;
}

uint64_t SubmitCombiner::calls() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return calls_;
}

uint64_t SubmitCombiner::submissions() const {
  std::lock_guard<std::mutex> guard(mutex_);
  return submissions_;
}

}  // namespace vkc
