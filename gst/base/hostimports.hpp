// Imports of host memory (VK_EXT_external_memory_host) that the kernels read a frame through,
// cached on the memory, and let go of off the frame path.
//
// Freeing an import unpins its pages: 0.6-0.9 ms for a 1080p RGBA frame on the H200. A cached
// import goes with its memory, whose last reference goes with the last buffer holding it,
// wherever that buffer dies: in a sink replacing its last sample (on the thread that pushed the
// next frame into it: the completion service's, for an analysis), or in the element itself. So a
// buffer whose plain system memory we imported keeps a reference to that memory, and when the
// buffer goes, the reaper's thread drops it: the unpin and the free happen there.
#pragma once

#include <gst/gst.h>

#include <cstdint>
#include <memory>
#include <string>

#include "vk/memory.hpp"

namespace vkc {

// The import of `mem` (mapped at `data`) into `device`, made on first use and cached on `mem`;
// null with `error` set when the device refuses it. Plain system memory is handed to the reaper
// when `buf` goes (see above); our own host memory (another device's) is kept by our pools.
const Buffer* cached_host_import(const std::shared_ptr<Device>& device, GstBuffer* buf, GstMemory* mem,
                                 const uint8_t* data, std::string& error);

// Waits at most `timeout_ns` until the memory that buffers handed to the reaper before this call
// is freed: a stopping element, so that an application's wrapped memory is back (its notify
// called) when the state change returns, as a stock element's would be.
void wait_for_host_memory_released(uint64_t timeout_ns);

}  // namespace vkc
