// Input buffers of a TestFrame in the memory layouts upstream elements produce: the proposed
// pool is the stream's (harness_driver.h), system and split memory are built here.
#pragma once

#include <gst/video/video.h>

#include "common/input_placement.h"
#include "test_frame.h"

namespace analysis_test {

// A buffer of system memory (placement.memory kSystem) holding `frame` laid out with the
// placement's strides and offsets (planes separated by odd gaps), with a GstVideoMeta describing
// that layout; for kSplit the same bytes split over two GstMemory blocks inside the middle row of
// plane 0. Bytes that hold no pixel carry a 0x00/0xff pattern.
GstBuffer* NewSystemBuffer(const TestFrame& frame, const vktest::InputPlacement& placement);

// Copies `frame` into a writable buffer laid out as frame.info or as its GstVideoMeta says.
void WriteFrame(const TestFrame& frame, GstBuffer* buffer);

// Bytes of one row of `plane` that hold pixels: no stride padding at all, so that a custom
// stride of row + padding really is as tight (and as unaligned) as the placement says.
int RowBytes(const GstVideoInfo& info, guint plane);

// Rows of `plane` (fewer than the frame's for subsampled chroma planes).
int PlaneRows(const GstVideoInfo& info, guint plane);

}  // namespace analysis_test
