// Input buffers of any lumamax format in the memory layouts upstream elements produce, and the
// reference analysis of a buffer exactly as the element will read it.
#pragma once

#include <gst/video/video.h>

#include <optional>
#include <string>

#include "reference/lumamax_ref.h"
#include "test_frame.h"

namespace lumamax_test {

enum class Memory {
  kProposed,  // from the pool (or allocator) the element proposed in the ALLOCATION query
  kSystem,    // one block of system memory, custom layout described by GstVideoMeta
  kSplit,     // the same bytes split over two GstMemory blocks inside a row of plane 0
};

struct Placement {
  Memory memory = Memory::kProposed;
  int stride_padding = 0;  // bytes added to every plane's rows (system and split memory)
  gsize offset = 0;        // of plane 0 in the buffer (system and split memory)

  std::string Describe() const;  // "system stride=row+7 offset=5"
};

// A buffer of system (or split) memory holding `frame` laid out with the placement's strides and
// offsets (planes separated by odd gaps), with a GstVideoMeta describing that layout. Bytes that
// hold no pixel carry a 0x00/0xff pattern.
GstBuffer* NewSystemBuffer(const TestFrame& frame, const Placement& placement);

// Copies `frame` into a writable buffer laid out as frame.info or as its GstVideoMeta says.
void WriteFrame(const TestFrame& frame, GstBuffer* buffer);

// The reference analysis of `buffer` (mapped as `info`, honouring its GstVideoMeta).
std::optional<lumamax_ref::Result> AnalyzeBuffer(GstBuffer* buffer, const GstVideoInfo& info,
                                                 const lumamax_ref::Params& params);

}  // namespace lumamax_test
