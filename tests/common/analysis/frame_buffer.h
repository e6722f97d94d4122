// Input buffers of a TestFrame in the memory layouts upstream elements produce: the proposed
// pool is the stream's (analysis_stream.h), the others are built here.
#pragma once

#include <gst/video/video.h>

#include <string>

#include "test_frame.h"

namespace analysis_test {

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

// Bytes of one row of `plane` that hold pixels: no stride padding at all, so that a custom
// stride of row + padding really is as tight (and as unaligned) as the placement says.
int RowBytes(const GstVideoInfo& info, guint plane);

// Rows of `plane` (fewer than the frame's for subsampled chroma planes).
int PlaneRows(const GstVideoInfo& info, guint plane);

}  // namespace analysis_test
