// A video frame held in GStreamer's default layout, element-independent: the analysis suites
// fill it in their own terms (luma extremes, random samples, solid colours) and push it in any
// memory layout (frame_buffer.h).
#pragma once

#include <gst/video/video.h>

#include <cstdint>
#include <string>
#include <vector>

namespace analysis_test {

struct TestFrame {
  GstVideoInfo info;           // default layout of format/size (30/1 fps)
  std::vector<uint8_t> bytes;  // info.size bytes laid out as `info`

  GstVideoFormat format() const { return GST_VIDEO_INFO_FORMAT(&info); }
  int width() const { return GST_VIDEO_INFO_WIDTH(&info); }
  int height() const { return GST_VIDEO_INFO_HEIGHT(&info); }
  std::string Describe() const;  // "RGBA 97x61"
};

// A zero-filled frame.
TestFrame NewTestFrame(GstVideoFormat format, int width, int height);

// The byte of component `c` (GStreamer's numbering: R, G, B, A or Y, U, V) at (x, y), in that
// component's own resolution. Located through GstVideoFormatInfo; the references use their own
// tables, so the two check each other.
uint8_t& Component(TestFrame& frame, int c, int x, int y);

}  // namespace analysis_test
