// A pushed buffer's planes, found as the element under test must find them: where its
// GstVideoMeta (or else the caps' default layout) puts each plane, across memory blocks. The
// references of a buffer (each suite's AnalyzeBuffer) read the frame from here.
#pragma once

#include <gst/video/video.h>

#include <cstdint>
#include <vector>

namespace analysis_test {

struct BufferPlanes {
  std::vector<uint8_t> bytes;               // the buffer's bytes, copied out
  gsize offset[GST_VIDEO_MAX_PLANES] = {};  // of each plane's first row in `bytes`
  int stride[GST_VIDEO_MAX_PLANES] = {};

  const uint8_t* Plane(guint plane) const { return bytes.data() + offset[plane]; }
};

// The planes of `buffer`, laid out as `info` or as its GstVideoMeta says. Fails the test (a test
// bug) when a plane's rows do not fit into the buffer.
BufferPlanes ReadBufferPlanes(GstBuffer* buffer, const GstVideoInfo& info);

}  // namespace analysis_test
