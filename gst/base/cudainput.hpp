// An element's input frames in CUDA memory (a decoder's), copied on the GPU into a device-local
// buffer of the frame's ring slot, which the slot's work then reads as a frame in device memory
// (gst/cuda/bridge.hpp): no CPU copy, no CPU wait.
#pragma once

#include <gst/video/video.h>

#include <memory>
#include <string>
#include <vector>

#include "cuda/bridge.hpp"
#include "frame.hpp"

namespace vkc {

class CudaInput {
 public:
  CudaInput(std::shared_ptr<Device> device, uint32_t slots) : device_(std::move(device)), targets_(slots) {}
  ~CudaInput();  // the targets go before the bridge

  // Queues the copy of `buffer` (GStreamer's CUDA memory, laid out as `info` or its GstVideoMeta)
  // into `slot`'s buffer, whose previous frame has completed, and sets `layout` to it (the planes
  // as `info` places them). Returns the value of semaphore() the slot's work must wait for
  // (CommandRing::wait_before()), or 0 with `error` set.
  uint64_t bind(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info, FrameLayout& layout,
                std::string& error);
  vk::Semaphore semaphore() const { return bridge_->semaphore(); }

 private:
  std::shared_ptr<Device> device_;
  void* context_ = nullptr;  // the CUcontext bridge_ serves
  std::unique_ptr<cuda::Bridge> bridge_;
  std::vector<std::unique_ptr<cuda::Target>> targets_;  // by slot
};

}  // namespace vkc
