// The pool of a filter's output frames in GStreamer's CUDA memory (caps in memory:CUDAMemory, for
// CUDA elements downstream): the pool downstream offers when it is one of GStreamer's CUDA pools
// (cudadownload, cudaconvert and the encoders offer one in their context), else a new one in the
// element's CUDA context (gst/cuda/elementcontext.hpp: a neighbour's, or one made and shared).
#pragma once

#include <gst/gst.h>

#include <string>

#include "cuda/elementcontext.hpp"

namespace vkc {

// Sets the output pool in downstream's ALLOCATION query for CUDA caps: downstream's minimum plus
// `frames_in_flight` buffers, on CUDA device `ordinal` (the element's Vulkan device). False with
// `error` set when GStreamer's CUDA library or a context is missing, or the pool refuses the caps.
bool decide_cuda_pool(GstElement* element, GstQuery* query, cuda::ElementContext& context, int ordinal,
                      guint frames_in_flight, std::string& error);

}  // namespace vkc
