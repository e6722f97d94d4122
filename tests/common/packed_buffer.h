// Input buffers for single-plane packed video formats, in the kinds of memory an element meets
// upstream (input_placement.h): plain system memory, and a frame scattered over two blocks; and
// the block of system memory they are made of.
#pragma once

#include <gst/video/video.h>

#include <cstdint>

namespace vktest {

// Where the rows of the plane go inside the buffer.
struct Placement {
  int stride;    // bytes from one row to the next, >= the row's own bytes
  gsize offset;  // of the first row from the start of the buffer
};

// A buffer of system memory holding `height` rows of `row_bytes` bytes (read from `rows`, which
// are tightly packed) at `placement`; a GstVideoMeta describing the layout is attached (also
// for the default layout: upstream elements commonly do). Padding bytes hold a 0x00/0xff
// pattern so that reading them shows up in the converted output.
GstBuffer* NewSystemMemoryBuffer(const GstVideoInfo& info, const uint8_t* rows, int row_bytes,
                                 const Placement& placement);

// The same content as NewSystemMemoryBuffer(), split into two GstMemory blocks at a byte in the
// middle of the row at the middle of the frame (for one-row frames, inside that row).
GstBuffer* NewSplitMemoryBuffer(const GstVideoInfo& info, const uint8_t* rows, int row_bytes,
                                const Placement& placement);

// A block of system memory holding a copy of `size` bytes.
GstMemory* NewSystemMemory(const uint8_t* bytes, gsize size);

// Copies tightly packed rows into a writable buffer whose layout is `info` or its GstVideoMeta.
void FillPackedBuffer(GstBuffer* buffer, const GstVideoInfo& info, const uint8_t* rows, int row_bytes);

}  // namespace vktest
