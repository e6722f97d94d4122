// A frame in GStreamer's CUDA memory crosses into our device once per chain, not once per element
// of ours that reads it: the copy an element makes of it (CudaFrames) travels on with the frame as a
// meta, and every later element of ours on the same device reads that copy instead of copying the
// frame again. So `nvh264dec ! lumamax ! histogram` copies each decoded frame out of CUDA memory
// once, and so does a filter whose output goes into CUDA memory (for an encoder downstream) with an
// analysis of ours after it: its output, written in our memory first, rides on the frame in CUDA
// memory it was copied into.
//
// The meta follows GStreamer's rules for frames: carried onto copies of the whole frame (a frame made
// writable on the way: a results meta, a discontinuity mark), dropped when the frame goes back to its
// pool (GstBufferPool's reset) or is freed. A copy is reused only when no frame and no reader holds it
// any more.
#pragma once

#include <gst/video/video.h>

#include <memory>

#include "cuda/bridge.hpp"
#include "frame.hpp"

namespace vkc {

// A frame in CUDA memory as it lies in a device-local buffer of ours that CUDA writes (a target).
struct CudaCopy {
  std::shared_ptr<cuda::Bridge> bridge;  // the target's; outlives it (declared first)
  std::unique_ptr<cuda::Target> target;  // device-local, exported to CUDA
  const Device* device = nullptr;        // the target's
  FrameLayout layout;                    // the frame's planes in the target
  GstVideoFormat format = GST_VIDEO_FORMAT_UNKNOWN;
  gint width = 0, height = 0;
  // What a reader's work waits for before it reads the target: the value of the bridge's semaphore
  // that CUDA's copy into it signals; 0 for a frame our filter wrote there, whose work on the compute
  // queue was done before the frame left (a barrier after earlier work orders the read after it).
  uint64_t cuda_value = 0;
};

// Puts `copy`, the copy of `buffer`'s frame as laid out by `info`, on `buffer` (writable), in place
// of any copy it carried.
void attach_cuda_copy(GstBuffer* buffer, std::shared_ptr<const CudaCopy> copy);

// The copy that `buffer` carries of its own frame (not of a frame it was copied from: the same
// memory and timestamp as when it was put on), on `device` and laid out as `info`; null when there is
// none.
std::shared_ptr<const CudaCopy> cuda_copy_of(GstBuffer* buffer, const Device& device,
                                             const GstVideoInfo& info);

}  // namespace vkc
