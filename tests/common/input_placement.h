// Where a test puts a frame's bytes for the element under test: the kinds of input memory an
// element meets upstream, a placement within one (padded strides, the frame at an offset), and
// the placements the memory tests push every format in.
#pragma once

#include <gst/gst.h>

#include <string>

namespace vktest {

enum class MemoryKind {
  kUpstreamPool,   // acquired from the pool the element proposed in the ALLOCATION query
  kHarnessBuffer,  // gst_harness_create_buffer(): the proposed pool as GstHarness configures it
  kSystem,         // gst_buffer_new_allocate(NULL, ...) with a GstVideoMeta for its layout
  kSplit,          // two GstMemory blocks, split inside a row: no single mapping covers a row
};

// "proposed-pool", "harness-buffer", "system", "split".
const char* ToString(MemoryKind kind);

struct InputPlacement {
  MemoryKind memory = MemoryKind::kUpstreamPool;
  int stride_padding = 0;  // bytes added to each plane's rows (system and split memory)
  gsize offset = 0;        // of the first plane in the buffer (system and split memory)

  // "system stride=row+7 offset=5"; the kind alone for the pools, whose layout is theirs.
  std::string Describe() const;
};

// Every kind of memory, the system and split ones also with padded strides and odd offsets.
inline constexpr InputPlacement kEveryInputPlacement[] = {
    {MemoryKind::kUpstreamPool, 0, 0}, {MemoryKind::kHarnessBuffer, 0, 0}, {MemoryKind::kSystem, 0, 0},
    {MemoryKind::kSystem, 12, 64},     {MemoryKind::kSystem, 7, 5},        {MemoryKind::kSplit, 0, 0},
    {MemoryKind::kSplit, 5, 7},
};

}  // namespace vktest
