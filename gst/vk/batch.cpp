#include "batch.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

#include "device.hpp"

#define GST_CAT_DEFAULT gst_vkcompute_runtime_debug

namespace vkc {
namespace {

struct Entry {
  const Device* device;
  QueueRole role;
  std::vector<vk::Semaphore> waits;
  std::vector<uint64_t> wait_values;  // a timeline semaphore's value; ignored for binary ones
  std::vector<vk::PipelineStageFlags> wait_stages;
  std::vector<vk::CommandBuffer> commands;
  std::vector<vk::Semaphore> signals;
  std::vector<uint64_t> signal_values;  // a timeline semaphore's value; ignored for binary ones
  std::shared_ptr<SubmitPoint> point;   // uploads and downloads only
  const char* label = nullptr;
  uint32_t others = 0;  // merged compute work: the entries beside the first
};

}  // namespace

namespace batch {
// A thread's batch. The thread adds to it and sends it; any other thread may send it too (submit()).
struct Pending {
  // Held while adding and while submitting: one batch's submissions keep the order of its adds,
  // whichever thread sends them.
  std::mutex lock;
  std::vector<Entry> entries;  // lock
  // The point of each device's compute work in the batch, made by its first submission (lock).
  std::map<const Device*, std::shared_ptr<SubmitPoint>> points;
};
}  // namespace batch

namespace {

struct ThreadBatch {
  int depth = 0;  // open scopes
  std::shared_ptr<batch::Pending> pending = std::make_shared<batch::Pending>();
};

thread_local ThreadBatch t_batch;

template <typename T>
void append(std::vector<T>& to, const T* from, uint32_t count) {
  to.insert(to.end(), from, from + count);
}

// Adds a submission's waits (with their values), command buffers and signals to `to`'s.
void append(Entry& to, const vk::SubmitInfo& info) {
  append(to.waits, info.pWaitSemaphores, info.waitSemaphoreCount);
  if (const auto* values = wait_values(info))
    append(to.wait_values, values->pWaitSemaphoreValues, info.waitSemaphoreCount);
  else
    to.wait_values.resize(to.waits.size(), 0);
  append(to.wait_stages, info.pWaitDstStageMask, info.waitSemaphoreCount);
  append(to.commands, info.pCommandBuffers, info.commandBufferCount);
  append(to.signals, info.pSignalSemaphores, info.signalSemaphoreCount);
  if (const auto* values = signal_values(info))
    append(to.signal_values, values->pSignalSemaphoreValues, info.signalSemaphoreCount);
  else
    to.signal_values.resize(to.signals.size(), 0);
}

// `e` as one submission; `values` (which must outlive it) carries its waits' values.
vk::SubmitInfo submit_info(const Entry& e, vk::TimelineSemaphoreSubmitInfo& values) {
  values = vk::TimelineSemaphoreSubmitInfo{.waitSemaphoreValueCount = uint32_t(e.wait_values.size()),
                                           .pWaitSemaphoreValues = e.wait_values.data(),
                                           .signalSemaphoreValueCount = uint32_t(e.signal_values.size()),
                                           .pSignalSemaphoreValues = e.signal_values.data()};
  return vk::SubmitInfo{.pNext = &values,
                        .waitSemaphoreCount = uint32_t(e.waits.size()),
                        .pWaitSemaphores = e.waits.data(),
                        .pWaitDstStageMask = e.wait_stages.data(),
                        .commandBufferCount = uint32_t(e.commands.size()),
                        .pCommandBuffers = e.commands.data(),
                        .signalSemaphoreCount = uint32_t(e.signals.size()),
                        .pSignalSemaphores = e.signals.data()};
}

void submit_entry(const Entry& e, SubmitPoint& point) {
  vk::TimelineSemaphoreSubmitInfo values;
  point.value.store(e.device->submit_now(submit_info(e, values), nullptr, e.role, e.label, e.others),
                    std::memory_order_release);
}

// GST_VKCOMPUTE_BATCH=0: no scope opens, every element submits on its own (to compare).
bool batching() {
  static const bool on = g_strcmp0(g_getenv("GST_VKCOMPUTE_BATCH"), "0") != 0;
  return on;
}

}  // namespace

BatchScope::BatchScope() : opened_(batching()) {
  if (opened_) ++t_batch.depth;
}

BatchScope::~BatchScope() {
  if (opened_ && --t_batch.depth == 0) batch::flush();
}

namespace batch {

bool open() {
  return t_batch.depth > 0;
}

std::shared_ptr<const SubmitPoint> add(const Device& device, const vk::SubmitInfo& info, QueueRole role,
                                       const char* label) {
  Pending& pending = *t_batch.pending;
  Entry e{.device = &device, .role = role, .label = label};
  append(e, info);
  std::lock_guard<std::mutex> guard(pending.lock);
  std::shared_ptr<SubmitPoint> point;
  if (role == QueueRole::kCompute) {
    auto& made = pending.points[&device];
    if (!made) made = std::make_shared<SubmitPoint>(device.timeline(role), 0, t_batch.pending);
    point = made;
  } else {
    point = e.point = std::make_shared<SubmitPoint>(device.timeline(role), 0, t_batch.pending);
  }
  pending.entries.push_back(std::move(e));
  return point;
}

namespace {

// Submits what `pending` holds (its lock held).
void send(Pending& pending) {
  if (pending.entries.empty()) return;
  // Taken first: submitting may not add to the batch, but a failure must not submit twice.
  std::vector<Entry> entries = std::move(pending.entries);
  auto points = std::move(pending.points);
  pending.entries.clear();
  pending.points.clear();
  std::vector<const Device*> devices;
  for (const Entry& e : entries)
    if (std::find(devices.begin(), devices.end(), e.device) == devices.end()) devices.push_back(e.device);
  for (const Device* device : devices) {
    // Uploads wait for nothing and compute work may wait for them: first. Downloads wait for the
    // compute work: last. Each keeps its own submission (and point).
    Entry compute{.device = device, .role = QueueRole::kCompute};
    for (const Entry& e : entries) {
      if (e.device != device) continue;
      if (e.role == QueueRole::kUpload) {
        submit_entry(e, *e.point);
        GST_LOG("device %d: an upload submitted", device->index());
      }
      if (e.role != QueueRole::kCompute) continue;
      if (compute.commands.empty())
        compute.label = e.label;
      else
        compute.others++;
      vk::TimelineSemaphoreSubmitInfo values;
      append(compute, submit_info(e, values));
    }
    GST_LOG("device %d: %zu command buffers of compute work in one submission", device->index(),
            compute.commands.size());
    if (!compute.commands.empty()) submit_entry(compute, *points.at(device));
    for (const Entry& e : entries)
      if (e.device == device && e.role == QueueRole::kDownload) submit_entry(e, *e.point);
  }
}

}  // namespace

void flush() {
  Pending& pending = *t_batch.pending;
  std::lock_guard<std::mutex> guard(pending.lock);
  send(pending);
}

void submit(const SubmitPoint& point) {
  if (point.submitted()) return;
  std::shared_ptr<Pending> pending = point.batch.lock();
  if (!pending || pending == t_batch.pending) return;
  std::lock_guard<std::mutex> guard(pending->lock);
  GST_LOG("sending another thread's batch: a write in it is read here");
  send(*pending);
}

}  // namespace batch
}  // namespace vkc
