// An element's frames in GStreamer's CUDA memory, copied on the GPU (gst/cuda/bridge.hpp) to and
// from device-local buffers of ours (CudaCopy), which the frame's work reads and writes as frames in
// device memory: no CPU copy, no CPU wait between CUDA's work and ours.
// - input (a decoder's frames): CUDA copies the frame into a buffer of the slot, or, for a frame the
//   element passes on, into one that rides on the frame for our elements after it (cudacopies.hpp);
//   the slot's work waits for the copy on the GPU (CommandRing::wait_before()).
// - output (a filter's, for CUDA elements downstream): the slot's work writes a buffer of ours;
//   once the frame is done, CUDA copies the buffer into the output frame, which carries the buffer
//   on (for our elements after it), and the frame is pushed once that copy is done (GStreamer's CUDA elements
//   read a frame they receive at once, on streams of their own). A copy queued at submission, waiting on the
//   GPU for the frame's point on the compute queue's timeline (exported), gave the same frames/s and CPU on
//   an H200 (8 streams of morph from nvh264dec: 3.31-3.36 s against 3.29-3.35 s) and needs every queue's
//   timeline exportable: not kept.
// One CUDA context per element: its input's and its output's (they share the decoder's context
// through GStreamer's context negotiation, gst/cuda/elementcontext.hpp).
#pragma once

#include <gst/video/video.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuda/bridge.hpp"
#include "cudacopies.hpp"
#include "frame.hpp"

namespace vkc {

class CudaFrames {
 public:
  CudaFrames(std::shared_ptr<Device> device, uint32_t slots)
      : device_(std::move(device)), inputs_(slots), outputs_(slots), bound_outputs_(slots) {}
  ~CudaFrames();  // the targets go before the bridge

  // Queues the copy of `buffer` (GStreamer's CUDA memory, laid out as `info` or its GstVideoMeta)
  // into a device-local buffer for `slot`, whose previous frame has completed, and returns that
  // copy: the slot's work reads it (its `layout`, the planes as `info` places them) once it has
  // waited for its `cuda_value` of the bridge's semaphore (CommandRing::wait_before()). With
  // `shared` (the frame goes on to elements that may be ours; `buffer` writable), a copy of its own
  // that rides on the frame (cudacopies.hpp), while fewer than kSharedCopies are out; else the slot's.
  // Null with `error` set.
  std::shared_ptr<const CudaCopy> bind_input(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info,
                                             bool shared, std::string& error);
  // Notes that a frame's work reads `copy`, made by another element (cuda_copy_of()): release_if_lost()
  // then covers its bridge too.
  void note_read(const CudaCopy& copy);

  // Sets `layout` to a device-local buffer, which `slot`'s work writes in place of `buffer`
  // (GStreamer's CUDA memory, laid out as `info` or its GstVideoMeta); false with `error` set.
  bool bind_output(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info, FrameLayout& layout,
                   std::string& error);
  // Once the slot's work is done: queues the copy of the slot's output buffer into the frame
  // bind_output() took. False with `error` set.
  bool copy_output(uint32_t slot, std::string& error);
  // Waits until that copy is done (the frame may then be pushed); then, with `share` (the frame
  // reaches elements of ours), puts what the work wrote on `*frame`, the frame bind_output() took
  // (made writable when it must be), for them to read (cudacopies.hpp). False with `error` set.
  bool wait_output(uint32_t slot, GstBuffer** frame, bool share, std::string& error);

  // Lets the frames whose copies in a lost CUDA context will never finish run on (their inputs'
  // contents undefined), so that they complete and free what they hold instead of waiting forever
  // on the compute queue (cuda::Bridge::release_if_lost()). Whether the context is lost.
  bool release_if_lost();

  // How many copies of frames may ride on frames at once, beyond the ring's: they hold device memory
  // as long as the frames live (a queue of frames between two elements of ours); past it, the frames
  // go on without theirs (the next element of ours copies the frame again).
  static constexpr size_t kSharedCopies = 16;

 private:
  // Where a frame's planes are in CUDA memory and in a target.
  struct Planes {
    std::vector<cuda::CudaPlane> cuda;
    std::vector<uint32_t> offsets;  // in the target, as `info` places them
    std::vector<uint32_t> strides;
  };
  using Copies = std::vector<std::shared_ptr<CudaCopy>>;
  // Maps `buffer` on the GPU (`flags`: GST_MAP_READ or GST_MAP_WRITE) and sets `planes` and the
  // layout of its target, creating the bridge for the memory's CUDA context on first use.
  bool map(GstBuffer* buffer, const GstVideoInfo& info, GstMapFlags flags, Planes& planes,
           FrameLayout& layout, std::string& error);
  // A copy for a frame of `info`, whose target is made or grown to hold it: `slot`'s of `by_slot`, or
  // with `shared` one of `pool` that nothing else holds, or a new one while the pool is not full.
  // Null with `error` set.
  std::shared_ptr<CudaCopy> copy_for(Copies& by_slot, Copies& pool, uint32_t slot, bool shared,
                                     const GstVideoInfo& info, const char* name, std::string& error);

  std::shared_ptr<Device> device_;
  void* context_ = nullptr;  // the CUcontext bridge_ serves
  std::shared_ptr<cuda::Bridge> bridge_;
  // Of the copies of other elements read last: set on the streaming thread, read by the thread that
  // finds a frame late (release_if_lost()).
  std::mutex read_bridge_lock_;
  std::shared_ptr<cuda::Bridge> read_bridge_;  // read_bridge_lock_
  Copies inputs_, outputs_;                    // by slot
  Copies shared_inputs_, shared_outputs_;      // may ride on frames
  // bind_output()'s, by slot: the copy the work writes, and where the frame's planes are.
  std::vector<std::pair<std::shared_ptr<CudaCopy>, Planes>> bound_outputs_;
};

}  // namespace vkc
