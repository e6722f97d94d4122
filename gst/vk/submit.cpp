#include "submit.hpp"

#include <algorithm>

#include "batch.hpp"

#define GST_CAT_DEFAULT gst_vkcompute_runtime_debug

namespace vkc {

CommandRing::CommandRing(std::shared_ptr<Device> device, uint32_t depth, const char* name,
                         uint32_t timestamp_interval)
    : device_(std::move(device)),
      name_(name),
      label_(g_intern_string(name)),
      timestamp_interval_(timestamp_interval) {
  const auto& dev = device_->device();
  auto families = device_->physical().getQueueFamilyProperties();
  if (timestamp_interval_ > 0 && families[device_->queue_family()].timestampValidBits > 0) {
    timestamps_ = vk::raii::QueryPool(
        dev, vk::QueryPoolCreateInfo{.queryType = vk::QueryType::eTimestamp, .queryCount = kQueries * depth});
    timestamp_period_ns_ = device_->properties().limits.timestampPeriod;
  }
  slots_.resize(depth);
  for (uint32_t i = 0; i < depth; ++i) {
    make_commands(QueueRole::kCompute, slots_[i].recording);
    device_->set_name(*slots_[i].recording.cmd, name);
  }
}

uint32_t CommandRing::default_timestamp_interval() {
  const char* env = g_getenv("GST_VKCOMPUTE_TIMESTAMP_INTERVAL");
  return env ? uint32_t(g_ascii_strtoull(env, nullptr, 10)) : kTimestampInterval;
}

CommandRing::~CommandRing() {
  // Command buffers must not be destroyed while the GPU still uses them: owners that
  // cannot wait hand the ring to release_after_gpu() (reaper.hpp), so nothing is pending here.
  if (wait_all(0) == Completion::kPending) GST_ERROR("command ring destroyed with work still pending");
}

Commands CommandRing::begin(uint32_t slot) {
  Slot& s = slots_[slot];
  s.done.reset();
  s.compute_done.reset();
  s.submitted = false;
  s.upload.begun = s.download.begun = false;  // a recording abandoned without submit
  s.waits.clear();
  s.wait_values.clear();
  s.signals.clear();
  s.signal_values.clear();
  s.recording.next.clear();
  Commands cmd(s.recording.next);
  s.timed = *timestamps_ && begun_++ % timestamp_interval_ == 0;
  s.started = false;
  if (s.timed) {
    cmd.resetQueryPool(*timestamps_, kQueries * slot, kQueries);
    cmd.writeTimestamp(vk::PipelineStageFlagBits::eTopOfPipe, *timestamps_, kQueries * slot + kReached);
  }
  return cmd;
}

void CommandRing::start_timing(uint32_t slot) {
  Slot& s = slots_[slot];
  if (!s.timed) return;
  Commands(s.recording.next)
      .writeTimestamp(vk::PipelineStageFlagBits::eTopOfPipe, *timestamps_, kQueries * slot + kStarted);
  s.started = true;
}

void CommandRing::make_commands(QueueRole role, Recording& recording) {
  const auto& dev = device_->device();
  recording.pool =
      vk::raii::CommandPool(dev, vk::CommandPoolCreateInfo{.flags = vk::CommandPoolCreateFlagBits::eTransient,
                                                           .queueFamilyIndex = device_->queue_family(role)});
  vk::raii::CommandBuffers buffers(dev,
                                   vk::CommandBufferAllocateInfo{.commandPool = *recording.pool,
                                                                 .level = vk::CommandBufferLevel::ePrimary,
                                                                 .commandBufferCount = 1});
  recording.cmd = std::move(buffers.front());
}

namespace {
// GST_VKCOMPUTE_COMMAND_REUSE=0: every submission records its command buffer anew (to compare).
bool reuse_on() {
  static const bool on = g_strcmp0(g_getenv("GST_VKCOMPUTE_COMMAND_REUSE"), "0") != 0;
  return on;
}
}  // namespace

vk::CommandBuffer CommandRing::Recording::finish(const Device& device, bool& recorded_now) {
  // Read before the comparison: an object destroyed from here on makes the next one record anew.
  const uint64_t now = device.released();
  recorded_now = !(reuse_on() && valid && released == now && next == recorded);
  if (!recorded_now) return *cmd;
  valid = false;
  pool.reset();
  // Not one-time: the command buffer may be submitted again once this submission is complete.
  cmd.begin(vk::CommandBufferBeginInfo{});
  next.replay(*cmd);
  cmd.end();
  std::swap(recorded, next);
  released = now;
  valid = true;
  return *cmd;
}

Commands CommandRing::begin_copies(Copies& copies, QueueRole role) {
  const auto& dev = device_->device();
  if (!*copies.recording.pool) {
    make_commands(role, copies.recording);
    copies.semaphore = vk::raii::Semaphore(dev, vk::SemaphoreCreateInfo{});
    const std::string name = name_ + (role == QueueRole::kUpload ? " upload" : " download");
    device_->set_name(*copies.recording.cmd, name.c_str());
    device_->set_name(*copies.semaphore, name.c_str());
  }
  copies.recording.next.clear();
  copies.begun = true;
  return Commands(copies.recording.next);
}

Commands CommandRing::begin_upload(uint32_t slot) {
  return begin_copies(slots_[slot].upload, QueueRole::kUpload);
}

Commands CommandRing::begin_download(uint32_t slot) {
  return begin_copies(slots_[slot].download, QueueRole::kDownload);
}

void CommandRing::wait_before(uint32_t slot, vk::Semaphore semaphore, uint64_t value) {
  slots_[slot].waits.push_back(semaphore);
  slots_[slot].wait_values.push_back(value);
}

void CommandRing::signal_after(uint32_t slot, vk::Semaphore semaphore, uint64_t value) {
  slots_[slot].signals.push_back(semaphore);
  slots_[slot].signal_values.push_back(value);
}

void CommandRing::submit(uint32_t slot, bool defer) {
  Slot& s = slots_[slot];
  if (s.started)
    Commands(s.recording.next)
        .writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *timestamps_, kQueries * slot + kEnded);
  // Each semaphore is signalled once and waited once per submission, as binary semaphores must be.
  // The slot completes with its last batch: the batches complete in order, each waiting for the
  // one before.
  const vk::PipelineStageFlags after_upload =
      vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer;
  const vk::PipelineStageFlags after_compute = vk::PipelineStageFlagBits::eTransfer;
  vk::Semaphore uploaded = *s.upload.semaphore, computed = *s.download.semaphore;
  bool recorded = false;  // counted for the compute work only
  if (s.upload.begun) {
    vk::CommandBuffer copy = s.upload.recording.finish(*device_, recorded);
    device_->submit(vk::SubmitInfo{.commandBufferCount = 1,
                                   .pCommandBuffers = &copy,
                                   .signalSemaphoreCount = 1,
                                   .pSignalSemaphores = &uploaded},
                    nullptr, QueueRole::kUpload, defer, label_);
  }
  vk::CommandBuffer cmd = s.recording.finish(*device_, recorded);
  submissions_++;
  if (recorded) recordings_++;
  vk::SubmitInfo compute{.commandBufferCount = 1, .pCommandBuffers = &cmd};
  std::vector<vk::Semaphore> waits = std::move(s.waits);
  std::vector<uint64_t> wait_values = std::move(s.wait_values);
  s.waits.clear();
  s.wait_values.clear();
  if (s.upload.begun) {
    waits.push_back(uploaded);
    wait_values.push_back(0);  // binary
  }
  const std::vector<vk::PipelineStageFlags> wait_stages(waits.size(), after_upload);
  std::vector<vk::Semaphore> signals = std::move(s.signals);
  std::vector<uint64_t> signal_values = std::move(s.signal_values);
  s.signals.clear();
  s.signal_values.clear();
  if (s.download.begun) {
    signals.push_back(computed);
    signal_values.push_back(0);  // binary
  }
  vk::TimelineSemaphoreSubmitInfo values{.waitSemaphoreValueCount = uint32_t(wait_values.size()),
                                         .pWaitSemaphoreValues = wait_values.data(),
                                         .signalSemaphoreValueCount = uint32_t(signal_values.size()),
                                         .pSignalSemaphoreValues = signal_values.data()};
  if (!waits.empty() || !signals.empty()) compute.pNext = &values;
  if (!waits.empty()) {
    compute.waitSemaphoreCount = uint32_t(waits.size());
    compute.pWaitSemaphores = waits.data();
    compute.pWaitDstStageMask = wait_stages.data();
  }
  if (!signals.empty()) {
    compute.signalSemaphoreCount = uint32_t(signals.size());
    compute.pSignalSemaphores = signals.data();
  }
  s.done = s.compute_done = device_->submit(compute, nullptr, QueueRole::kCompute, defer, label_);
  if (s.download.begun) {
    vk::CommandBuffer copy = s.download.recording.finish(*device_, recorded);
    s.done = device_->submit(vk::SubmitInfo{.waitSemaphoreCount = 1,
                                            .pWaitSemaphores = &computed,
                                            .pWaitDstStageMask = &after_compute,
                                            .commandBufferCount = 1,
                                            .pCommandBuffers = &copy},
                             nullptr, QueueRole::kDownload, defer, label_);
  }
  s.upload.begun = s.download.begun = false;
  s.submitted = true;
}

Completion CommandRing::wait(uint32_t slot, uint64_t timeout_ns) const {
  return wait_slots({&slots_[slot]}, timeout_ns);
}

Completion CommandRing::status(uint32_t slot, uint64_t* eta_ns) const {
  const Slot& s = slots_[slot];
  if (!s.submitted) return Completion::kDone;
  if (!s.done->submitted()) batch::flush();  // a no-op unless the batch is the calling thread's
  try {
    if (s.done->reached()) return Completion::kDone;
    if (eta_ns) *eta_ns = s.done->timeline.ahead_ns(s.done->value.load(std::memory_order_acquire));
    return Completion::kPending;
  } catch (const vk::DeviceLostError&) {
    return Completion::kLost;
  }
}

bool CommandRing::idle(uint32_t slot) const {
  const Slot& s = slots_[slot];
  if (!s.submitted) return true;
  try {
    return s.done->reached();
  } catch (const vk::DeviceLostError&) {
    return false;  // the caller's work fails at submit, as the device's
  }
}

Completion CommandRing::wait_all(uint64_t timeout_ns) const {
  std::vector<const Slot*> slots;
  for (const Slot& s : slots_) slots.push_back(&s);
  return wait_slots(slots, timeout_ns);
}

Completion CommandRing::wait_slots(const std::vector<const Slot*>& slots, uint64_t timeout_ns) const {
  // Points reached need no flush: a streaming thread that finds an element's earlier frame done,
  // halfway down a chain, keeps the frame's batch open for the elements below. Flushed otherwise:
  // a point of the thread's own batch would never be reached, and the batch must not wait while
  // the thread does.
  try {
    if (std::all_of(slots.begin(), slots.end(),
                    [](const Slot* s) { return !s->submitted || s->done->reached(); }))
      return Completion::kDone;
  } catch (const vk::DeviceLostError&) {
    return Completion::kLost;
  }
  // A slot whose work is still in a batch, this thread's or another's, has nothing to wait for
  // until that batch goes: send it.
  batch::flush();
  for (const Slot* s : slots)
    if (s->submitted) batch::submit(*s->done);
  return wait_points(device_->device(), completions(slots), timeout_ns);
}

std::vector<const SubmitPoint*> CommandRing::completions(const std::vector<const Slot*>& slots) {
  std::vector<const SubmitPoint*> points;
  for (const Slot* s : slots)
    if (s->submitted) points.push_back(s->done.get());
  return points;
}

bool CommandRing::read_ticks(uint32_t slot, uint64_t (&ticks)[kQueries]) const {
  if (!slots_[slot].started || !slots_[slot].submitted) return false;
  auto result = (*device_->device())
                    .getQueryPoolResults(*timestamps_, kQueries * slot, kQueries, sizeof(ticks), ticks,
                                         sizeof(uint64_t), vk::QueryResultFlagBits::e64,
                                         *device_->device().getDispatcher());
  return result == vk::Result::eSuccess;
}

double CommandRing::gpu_time_ns(uint32_t slot) const {
  uint64_t ticks[kQueries];
  if (!read_ticks(slot, ticks)) return -1;
  // The queue's timeline, in the device's ticks: read side by side for the elements of a chain
  // (they time the same frames), it shows where the queue waited between their submissions.
  GST_TRACE("%s: GPU ticks (period %.3f ns): reached %" G_GUINT64_FORMAT ", started %" G_GUINT64_FORMAT
            ", ended %" G_GUINT64_FORMAT,
            name_.c_str(), timestamp_period_ns_, ticks[kReached], ticks[kStarted], ticks[kEnded]);
  return double(ticks[kEnded] - ticks[kStarted]) * timestamp_period_ns_;
}

uint64_t CommandRing::gpu_end_host_ns(uint32_t slot) const {
  uint64_t ticks[kQueries];
  return read_ticks(slot, ticks) ? device_->host_ns_of(ticks[kEnded]) : 0;
}

}  // namespace vkc
