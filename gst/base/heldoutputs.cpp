#include "heldoutputs.hpp"

namespace vkc {

HeldOutputs::~HeldOutputs() {
  for (GstBuffer* out : held_) gst_buffer_unref(out);
}

void HeldOutputs::hold() {
  std::lock_guard<std::mutex> guard(lock_);
  holding_ = true;
}

bool HeldOutputs::take(GstBuffer* out) {
  std::lock_guard<std::mutex> guard(lock_);
  if (!holding_) return false;
  held_.push_back(out);
  return true;
}

GstFlowReturn HeldOutputs::release(const Push& push) {
  GstFlowReturn first = GST_FLOW_OK;
  std::unique_lock<std::mutex> guard(lock_);
  // Still holding while it pushes, outside the lock: an output finished meanwhile queues behind.
  while (!held_.empty()) {
    GstBuffer* out = held_.front();
    held_.pop_front();
    guard.unlock();
    const GstFlowReturn flow = push(out);
    if (first == GST_FLOW_OK) first = flow;
    guard.lock();
  }
  holding_ = false;
  return first;
}

}  // namespace vkc
