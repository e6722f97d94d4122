// The pool of a filter's output frames in another library's memory (GStreamer's CUDA or Vulkan
// memory), set in downstream's ALLOCATION query: cudapool.hpp and vulkanpool.hpp choose the pool.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <functional>
#include <string>

namespace vkc {

// The caps of an ALLOCATION query, and their video info; false with `error` set when they are not video.
bool allocation_caps(GstQuery* query, GstCaps*& caps, GstVideoInfo& info, std::string& error);

// The first pool of the query when it is of the type named `type_name` (a new reference), with the
// frames downstream asks for in `min_buffers`; null when downstream proposes none of that type.
GstBufferPool* proposed_pool(GstQuery* query, const char* type_name, guint& min_buffers);

// Configures `pool` (taken) for `caps` and `min_buffers`, without limit, with video meta and what `also`
// adds to its config, and sets it as the query's first pool. A pool that takes the settings only with
// changes of its own (sizes, alignment) is given those. False with `error` set when `pool` (named
// `what`) refuses the caps.
bool set_output_pool(GstQuery* query, GstBufferPool* pool, GstCaps* caps, const GstVideoInfo& info,
                     guint min_buffers, const char* what, std::string& error,
                     const std::function<void(GstStructure* config)>& also = {});

}  // namespace vkc
