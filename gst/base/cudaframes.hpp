// An element's frames in GStreamer's CUDA memory, copied on the GPU (gst/cuda/bridge.hpp) to and
// from device-local buffers of the frame's ring slot, which the slot's work reads and writes as
// frames in device memory: no CPU copy, no CPU wait between CUDA's work and ours.
// - input (a decoder's frames): CUDA copies the frame into the slot's input buffer; the slot's work
//   waits for the copy on the GPU (CommandRing::wait_before()).
// - output (a filter's, for CUDA elements downstream): the slot's work writes the slot's output
//   buffer; once the frame is done, CUDA copies the buffer into the output frame, and the frame is
//   pushed once that copy is done (GStreamer's CUDA elements read a frame they receive at once, on
//   streams of their own). A copy queued at submission, waiting on the GPU for the frame's point on
//   the compute queue's timeline (exported), gave the same frames/s and CPU on an H200 (8 streams of
//   morph from nvh264dec: 3.31-3.36 s against 3.29-3.35 s) and needs every queue's timeline
//   exportable: not kept.
// One CUDA context per element: its input's and its output's (they share the decoder's context
// through GStreamer's context negotiation, gst/cuda/elementcontext.hpp).
#pragma once

#include <gst/video/video.h>

#include <memory>
#include <string>
#include <vector>

#include "cuda/bridge.hpp"
#include "frame.hpp"

namespace vkc {

class CudaFrames {
 public:
  CudaFrames(std::shared_ptr<Device> device, uint32_t slots)
      : device_(std::move(device)), inputs_(slots), outputs_(slots) {}
  ~CudaFrames();  // the targets go before the bridge

  // Queues the copy of `buffer` (GStreamer's CUDA memory, laid out as `info` or its GstVideoMeta)
  // into `slot`'s input buffer, whose previous frame has completed, and sets `layout` to it (the
  // planes as `info` places them). Returns the value of input_semaphore() the slot's work must
  // wait for (CommandRing::wait_before()), or 0 with `error` set.
  uint64_t bind_input(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info, FrameLayout& layout,
                      std::string& error);
  vk::Semaphore input_semaphore() const { return bridge_->semaphore(); }

  // Sets `layout` to `slot`'s output buffer, which the slot's work writes in place of `buffer`
  // (GStreamer's CUDA memory, laid out as `info` or its GstVideoMeta); false with `error` set.
  bool bind_output(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info, FrameLayout& layout,
                   std::string& error);
  // Once the slot's work is done: queues the copy of the slot's output buffer into the frame
  // bind_output() took. False with `error` set.
  bool copy_output(uint32_t slot, std::string& error);
  // Waits until that copy is done (the frame may then be pushed); false with `error` set.
  bool wait_output(uint32_t slot, std::string& error);

  // Lets the frames whose copies in a lost CUDA context will never finish run on (their inputs'
  // contents undefined), so that they complete and free what they hold instead of waiting forever
  // on the compute queue (cuda::Bridge::release_if_lost()). Whether the context is lost.
  bool release_if_lost() { return bridge_ && bridge_->release_if_lost(); }

 private:
  // Where a frame's planes are in CUDA memory and in a target.
  struct Planes {
    std::vector<cuda::CudaPlane> cuda;
    std::vector<uint32_t> offsets;  // in the target, as `info` places them
    std::vector<uint32_t> strides;
  };
  // Maps `buffer` on the GPU (`flags`: GST_MAP_READ or GST_MAP_WRITE) and sets `planes` and the
  // layout of its target, creating the bridge for the memory's CUDA context on first use.
  bool map(GstBuffer* buffer, const GstVideoInfo& info, GstMapFlags flags, Planes& planes,
           FrameLayout& layout, std::string& error);
  // `slot`'s target in `targets`, made or grown to `bytes`; null with `error` set.
  cuda::Target* target(std::vector<std::unique_ptr<cuda::Target>>& targets, uint32_t slot, gsize bytes,
                       const char* name, std::string& error);

  std::shared_ptr<Device> device_;
  void* context_ = nullptr;  // the CUcontext bridge_ serves
  std::unique_ptr<cuda::Bridge> bridge_;
  std::vector<std::unique_ptr<cuda::Target>> inputs_;                         // by slot
  std::vector<std::unique_ptr<cuda::Target>> outputs_;                        // by slot
  std::vector<Planes> output_planes_ = std::vector<Planes>(outputs_.size());  // bind_output()'s frames
};

}  // namespace vkc
