#include "timeline.hpp"

#include <algorithm>
#include <map>

namespace vkc {

namespace {
vk::raii::Semaphore make_timeline(const vk::raii::Device& device) {
  vk::SemaphoreTypeCreateInfo type{.semaphoreType = vk::SemaphoreType::eTimeline, .initialValue = 0};
  return vk::raii::Semaphore(device, vk::SemaphoreCreateInfo{.pNext = &type});
}
}  // namespace

Timeline::Timeline(const vk::raii::Device& device) : device_(device), semaphore_(make_timeline(device)) {}

const vk::TimelineSemaphoreSubmitInfo* wait_values(const vk::SubmitInfo& info) {
  const auto* next = static_cast<const vk::TimelineSemaphoreSubmitInfo*>(info.pNext);
  return next && next->sType == vk::StructureType::eTimelineSemaphoreSubmitInfo &&
                 next->waitSemaphoreValueCount > 0
             ? next
             : nullptr;
}

const vk::TimelineSemaphoreSubmitInfo* signal_values(const vk::SubmitInfo& info) {
  const auto* next = static_cast<const vk::TimelineSemaphoreSubmitInfo*>(info.pNext);
  return next && next->sType == vk::StructureType::eTimelineSemaphoreSubmitInfo &&
                 next->signalSemaphoreValueCount == info.signalSemaphoreCount && info.signalSemaphoreCount > 0
             ? next
             : nullptr;
}

uint64_t Timeline::submit(vk::Queue queue, const vk::SubmitInfo& info, vk::Fence fence, const char* label,
                          uint32_t others) {
  const uint64_t value = submitted_.load(std::memory_order_relaxed) + 1;
  std::vector<vk::Semaphore> signals(info.pSignalSemaphores,
                                     info.pSignalSemaphores + info.signalSemaphoreCount);
  signals.push_back(*semaphore_);
  // Binary semaphores ignore their values; timeline ones of others keep theirs (signal_values()).
  std::vector<uint64_t> values(signals.size(), 0);
  if (const auto* given = signal_values(info))
    std::copy(given->pSignalSemaphoreValues, given->pSignalSemaphoreValues + info.signalSemaphoreCount,
              values.begin());
  values.back() = value;
  vk::TimelineSemaphoreSubmitInfo timeline{.signalSemaphoreValueCount = uint32_t(values.size()),
                                           .pSignalSemaphoreValues = values.data()};
  if (const auto* waits = wait_values(info)) {
    timeline.waitSemaphoreValueCount = waits->waitSemaphoreValueCount;
    timeline.pWaitSemaphoreValues = waits->pWaitSemaphoreValues;
  }
  vk::SubmitInfo with = info;
  with.pNext = &timeline;
  with.signalSemaphoreCount = uint32_t(signals.size());
  with.pSignalSemaphores = signals.data();
  queue.submit(with, fence);
  labels_[value % kLabels] = {value, label, others};
  submitted_.store(value, std::memory_order_relaxed);  // only once submitted: a value that failed
                                                       // would never be reached
  return value;
}

std::string Timeline::label_of(uint64_t value) const {
  const Label& l = labels_[value % kLabels];
  if (l.value != value || !l.text) return "";
  return l.others ? std::string(l.text) + " and " + std::to_string(l.others) + " more" : l.text;
}

void Timeline::saw(uint64_t value) const {
  uint64_t seen = seen_.load(std::memory_order_relaxed);
  while (seen < value && !seen_.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
  }
}

bool Timeline::reached(uint64_t value) const {
  if (seen_.load(std::memory_order_relaxed) >= value) return true;
  const uint64_t now = semaphore_.getCounterValue();
  saw(now);
  paced(now);
  return now >= value;
}

void Timeline::paced(uint64_t value) const {
  std::lock_guard<std::mutex> guard(pace_lock_);
  const bool work_ahead = submitted_.load(std::memory_order_relaxed) > value;
  // A read that finds the queue still busy where it was changes nothing: no clock read (a system
  // call on some hosts; such reads come by the ten thousand a second with hundreds of streams).
  if (value == paced_value_ && busy_ && work_ahead) return;
  const Clock::time_point now = Clock::now();
  if (value > paced_value_ && busy_) {
    // Busy all along (as far as the reads tell): the time per value of this stretch.
    const uint64_t sample =
        uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(now - paced_at_).count()) /
        (value - paced_value_);
    const uint64_t step = step_ns_.load(std::memory_order_relaxed);
    step_ns_.store(step == 0 ? sample : (7 * step + sample) / 8, std::memory_order_relaxed);
  }
  // A stretch begins at a read that finds the queue with work: idle time before it is not counted.
  if (value > paced_value_ || !busy_) {
    paced_value_ = value;
    paced_at_ = now;
  }
  busy_ = work_ahead;
}

uint64_t Timeline::ahead_ns(uint64_t value) const {
  const uint64_t seen = seen_.load(std::memory_order_relaxed);
  return value > seen + 1 ? (value - seen - 1) * step_ns_.load(std::memory_order_relaxed) : 0;
}

uint64_t Timeline::until_ns(uint64_t value) const {
  const uint64_t seen = seen_.load(std::memory_order_relaxed);
  return value > seen ? (value - seen) * step_ns_.load(std::memory_order_relaxed) : 0;
}

bool SubmitPoint::reached() const {
  const uint64_t at = value.load(std::memory_order_acquire);
  return at != 0 && timeline.reached(at);
}

Completion wait_points(const vk::raii::Device& device, const std::vector<const SubmitPoint*>& points,
                       uint64_t timeout_ns) {
  // The last value of each timeline: the others come before it.
  std::map<const Timeline*, uint64_t> last;
  try {
    for (const SubmitPoint* p : points)
      if (!p->reached()) last[&p->timeline] = std::max(last[&p->timeline], p->value.load());
    if (last.empty()) return Completion::kDone;
    if (timeout_ns == 0) return Completion::kPending;  // reached() has just read the counters
    std::vector<vk::Semaphore> semaphores;
    std::vector<uint64_t> values;
    for (auto [timeline, value] : last) {
      semaphores.push_back(timeline->semaphore());
      values.push_back(value);
    }
    vk::SemaphoreWaitInfo info{.semaphoreCount = uint32_t(semaphores.size()),
                               .pSemaphores = semaphores.data(),
                               .pValues = values.data()};
    if (device.waitSemaphores(info, timeout_ns) != vk::Result::eSuccess) return Completion::kPending;
    for (auto [timeline, value] : last) timeline->saw(value);
    return Completion::kDone;
  } catch (const vk::DeviceLostError&) {
    return Completion::kLost;
  }
}

}  // namespace vkc
