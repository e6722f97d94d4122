// Submissions of one streaming thread gathered into one batch per queue.
//
// Each element of a chain in device memory records its frame's work while the buffer travels down
// the chain on one streaming thread, and used to submit it on its own: five elements, five
// vkQueueSubmit calls per frame. On NVIDIA's H200 the compute queue then stands idle about 10 us
// between two submissions, even when the next was queued long before (docs/benchmarks.md, the
// compute queue's timeline): a sixth of the five-element chain's time per frame. Gathered, the
// chain's kernels go to the compute queue as one batch of command buffers, each still starting with
// the barrier that orders it after the work before it.
//
// GST_VKCOMPUTE_BATCH=0 turns batches off (to compare). While a BatchScope lives on a thread,
// Device::submit() with `defer` keeps the submission in the thread's batch; any other submission from the
// thread, any wait for the GPU on it that finds work still running (CommandRing), and the end of the
// outermost scope submit the batch first; so does the thread before anything that may block it for long
// (the base class: before it waits for an element's completion thread, and before it pushes a finished
// frame downstream).
//
// A batch is the thread's, but any thread may send it: work deferred here may write memory that
// another thread reads before the batch goes (a pad probe that hands the frame to an application
// thread, a relinked branch). That reader finds the write's point unsubmitted, sends the batch
// that holds it (submit()), and orders its own work after it. So which thread submits, and when,
// decides only how soon work starts, never whether a read sees the write.
#pragma once

#include <memory>

#include "timeline.hpp"
#include "vk.hpp"

namespace vkc {

class Device;
enum class QueueRole;

// Opens a deferral scope on the calling thread; the outermost one submits the batch when it ends.
class BatchScope {
 public:
  BatchScope();
  ~BatchScope();
  BatchScope(const BatchScope&) = delete;
  BatchScope& operator=(const BatchScope&) = delete;

 private:
  bool opened_;
};

namespace batch {

// True while a BatchScope is open on the calling thread.
bool open();

// Keeps a submission for the thread's batch (the caller checked open()). The command buffers and
// semaphores must stay valid until the batch is submitted. Returns where the work will end: the
// batch's compute work on a device shares one point, each upload and download has its own; their
// values are set when the batch goes.
std::shared_ptr<const SubmitPoint> add(const Device& device, const vk::SubmitInfo& info, QueueRole role,
                                       const char* label = nullptr);

// Submits the calling thread's batch, if any: per device, its uploads, then all of its compute
// work as one submission (waiting for every semaphore any of it waited for, signalling every one
// any of it signalled), then its downloads; then sets their points.
void flush();

// Submits the batch that holds `point`, on whichever thread it was made, as flush() would: the
// point's work then precedes, in its queue, everything submitted after this returns. Nothing when
// the point is submitted already, or when its batch is the calling thread's own (work the thread
// defers later joins that batch behind it, and anything it submits at once sends the batch first).
void submit(const SubmitPoint& point);

}  // namespace batch
}  // namespace vkc
