// A ring of command buffers and fences: frame n records into slot n % depth, so up to `depth`
// frames are in flight on the GPU at once.
//
// A slot's work is its compute command buffer, optionally with copies on the device's copy
// queues around it (QueueRole): an upload that runs before the compute work and a download that
// runs after it, ordered by semaphores of the slot. Each queue keeps its own order, so the copy
// engines move one frame across the bus while the compute queue runs the kernels of another.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "batch.hpp"
#include "commands.hpp"
#include "device.hpp"

namespace vkc {

class CommandRing {
 public:
  // A timed submission is not free: in a chain of five elements at 1080p (NVIDIA H100), timing one
  // frame in 8 cost 7 % of the frame rate (4 117 against 4 414 frames/s untimed), one in 64 about 1 %.
  static constexpr uint32_t kTimestampInterval = 64;

  // kTimestampInterval, or GST_VKCOMPUTE_TIMESTAMP_INTERVAL when set (0: time none), for
  // comparing the cost of the timestamps themselves (docs/benchmarks.md).
  static uint32_t default_timestamp_interval();

  // Times one submission in `timestamp_interval` (see gpu_time_ns()); 0 times none.
  CommandRing(std::shared_ptr<Device> device, uint32_t depth, const char* name,
              uint32_t timestamp_interval = kTimestampInterval);
  ~CommandRing();

  uint32_t depth() const { return uint32_t(slots_.size()); }

  // Begins recording into `slot`, whose previous submission must have completed (see wait()). The
  // commands reach the driver at submit(), unless the slot's command buffer holds the same ones
  // already: it is then submitted again as it is (commands.hpp).
  Commands begin(uint32_t slot);
  // Starts timing the slot's work here, when this submission is one of the timed ones: after the
  // barrier that orders it after earlier work, so the time is its own (gpu_time_ns()).
  void start_timing(uint32_t slot);
  // Begins recording the slot's upload: copies on the upload queue that complete before any of
  // the slot's compute work starts. Call after begin(); ordered by a semaphore, so the copies
  // need no barrier of their own.
  Commands begin_upload(uint32_t slot);
  // Begins recording the slot's download: copies on the download queue that start once the
  // slot's compute work is complete (its writes visible to them). Call after begin().
  Commands begin_download(uint32_t slot);
  // Makes the slot's next compute work (recorded since begin()) wait until the timeline semaphore
  // `semaphore` reaches `value`: work of another API that writes what the slot reads (a CUDA copy
  // signalling an ExportedTimeline). Its writes are then visible to the compute work's commands.
  void wait_before(uint32_t slot, vk::Semaphore semaphore, uint64_t value);
  // Makes the slot's next compute work signal the timeline semaphore `semaphore` with `value` when
  // done: another API's readers of what it writes (GStreamer's, of its images) wait for it.
  void signal_after(uint32_t slot, vk::Semaphore semaphore, uint64_t value);
  // Ends recording and submits the slot's work (upload, compute, download, in that order); the
  // slot is complete when the last of them reaches its point on its queue's timeline. With
  // `defer`, the work joins the calling thread's batch when one is open (batch.hpp).
  void submit(uint32_t slot, bool defer = false);
  // Where the compute work of the slot's last submission ends (its kernels' writes are done there,
  // before any download): what a frame written in device memory carries (vkmemory.hpp).
  std::shared_ptr<const SubmitPoint> compute_point(uint32_t slot) const { return slots_[slot].compute_done; }
  // Where the whole of the slot's last submission ends (its download, else its compute work).
  std::shared_ptr<const SubmitPoint> end_point(uint32_t slot) const { return slots_[slot].done; }
  // Waits up to `timeout_ns` for the slot's last submission.
  Completion wait(uint32_t slot, uint64_t timeout_ns) const;
  // Where the slot's last submission stands, without waiting: at most one read of its queue's
  // timeline. Work still in the calling thread's batch is submitted first; in another thread's
  // batch it is pending. For pending work, `eta_ns` (when given) is how long the submissions
  // ahead of it on its queue will take at the queue's recent pace (Timeline::ahead_ns()).
  Completion status(uint32_t slot, uint64_t* eta_ns = nullptr) const;
  // Whether the slot's last submission is known to be complete, from the points seen so far and
  // at most one read of a timeline: unlike status(), never submits a batch, never throws.
  bool idle(uint32_t slot) const;
  // Waits up to `timeout_ns` for every slot's last submission.
  Completion wait_all(uint64_t timeout_ns) const;
  // GPU time of the slot's completed submission, in nanoseconds, from timestamp queries from
  // start_timing() to the end of its commands. Negative when the submission was not timed (not one
  // in the interval, or start_timing() not called) or the queue has no timestamps.
  // By default one submission in kTimestampInterval is timed: a timestamp at the end of a command
  // buffer waits for all of its work, which keeps consecutive frames from overlapping on the GPU.
  double gpu_time_ns(uint32_t slot) const;
  // When the slot's timed submission ended on the GPU, as CLOCK_MONOTONIC ns (Device::host_ns_of()):
  // 0 when not timed or the device cannot tell.
  uint64_t gpu_end_host_ns(uint32_t slot) const;
  // Whether the slot's last submission is one of the timed ones (gpu_time_ns() reads its queries).
  bool timed(uint32_t slot) const { return slots_[slot].started; }
  // Submissions of compute work so far, and those whose command buffer was recorded for them (the
  // others were submitted again as recorded for an earlier frame).
  uint64_t submissions() const { return submissions_; }
  uint64_t recordings() const { return recordings_; }

 private:
  struct Slot;
  // Waits for the completion of every slot in `slots` (submitted ones).
  Completion wait_slots(const std::vector<const Slot*>& slots, uint64_t timeout_ns) const;
  // The points where the submitted slots in `slots` complete.
  static std::vector<const SubmitPoint*> completions(const std::vector<const Slot*>& slots);

  // A command buffer, in a transient pool of its own (reset whole before each recording: cheaper in
  // drivers than resetting one command buffer of a shared pool, NVIDIA's advice), and the commands
  // written down for it.
  struct Recording {
    vk::raii::CommandPool pool = nullptr;  // declared before cmd: destroyed after it
    vk::raii::CommandBuffer cmd = nullptr;
    CommandLog next;      // written down since begin(), for this submission
    CommandLog recorded;  // what cmd holds, recorded while the device's release count was `released`
    uint64_t released = 0;
    bool valid = false;
    // The command buffer holding `next`: `cmd` as it is when it holds the same commands, recorded
    // since no object of `device` was destroyed; else `cmd` recorded anew (`recorded_now`).
    vk::CommandBuffer finish(const Device& device, bool& recorded_now);
  };
  // A pool for the queue family of `role`, and one primary command buffer in it.
  void make_commands(QueueRole role, Recording& recording);

  // Command buffers of one copy queue for a slot, made on first use.
  struct Copies {
    Recording recording;
    vk::raii::Semaphore semaphore = nullptr;  // upload: copies done; download: compute work done
    bool begun = false;
  };
  Commands begin_copies(Copies& copies, QueueRole role);

  struct Slot {
    Recording recording;
    // Where the slot's last submission ends (its download, else its compute work, which in a batch
    // shares the batch's point); its value is 0 while the batch is still with the thread that
    // made it: nothing to wait for yet.
    std::shared_ptr<const SubmitPoint> done;
    std::shared_ptr<const SubmitPoint> compute_done;  // its compute work's (done without a download)
    Copies upload;
    Copies download;
    std::vector<vk::Semaphore> waits;  // wait_before() since begin(), with their values
    std::vector<uint64_t> wait_values;
    std::vector<vk::Semaphore> signals;  // signal_after() since begin(), with their values
    std::vector<uint64_t> signal_values;
    bool submitted = false;
    bool timed = false;    // one of the submissions to time
    bool started = false;  // start_timing() wrote its first timestamp
  };

  std::shared_ptr<Device> device_;
  std::string name_;
  const char* label_;  // name_, interned: the label of the ring's submissions (Timeline::submit())
  // Per slot of a timed submission: when the queue reached its commands, when its own work started
  // (after the barrier that waits for earlier work) and when it ended. Null without timestamps.
  enum Query : uint32_t { kReached, kStarted, kEnded, kQueries };
  vk::raii::QueryPool timestamps_ = nullptr;
  // The timed slot's query results; false when the slot's submission was not timed.
  bool read_ticks(uint32_t slot, uint64_t (&ticks)[kQueries]) const;
  double timestamp_period_ns_ = 0;
  std::vector<Slot> slots_;
  uint32_t timestamp_interval_;
  uint64_t begun_ = 0;  // submissions begun, for choosing the timed ones
  uint64_t submissions_ = 0;
  uint64_t recordings_ = 0;
};

// Records `commands` (transfers) into a command buffer of its own and submits it on `device`'s
// compute queue, ordered after every command submitted there before and made visible to the host
// (and to later work once the CPU has seen it done). Returns
// the ring, whose slot 0 is the submission: hand it to release_after_gpu() with what the commands
// use, or wait on it.
template <typename Record>
std::unique_ptr<CommandRing> submit_commands(const std::shared_ptr<Device>& device, const char* name,
                                             Record commands) {
  using Stage = vk::PipelineStageFlagBits;
  using Access = vk::AccessFlagBits;
  auto ring = std::make_unique<CommandRing>(device, 1, name, 0);
  Commands cmd = ring->begin(0);
  vk::MemoryBarrier before{.srcAccessMask = Access::eShaderWrite | Access::eTransferWrite,
                           .dstAccessMask = Access::eTransferRead | Access::eTransferWrite};
  cmd.pipelineBarrier(Stage::eComputeShader | Stage::eTransfer, Stage::eTransfer, {}, before, nullptr,
                      nullptr);
  commands(cmd);
  vk::MemoryBarrier after{.srcAccessMask = Access::eTransferWrite, .dstAccessMask = Access::eHostRead};
  cmd.pipelineBarrier(Stage::eTransfer, Stage::eHost, {}, after, nullptr, nullptr);
  ring->submit(0);
  return ring;
}

}  // namespace vkc
