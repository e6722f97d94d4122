// Where each component's samples lie in a frame and how many bits they hold, for every format
// the elements take: 8-bit formats from GStreamer's format table, deeper ones from GStreamer's
// definition of each format (its pack functions). GstVideoFormatInfo does not say where a packed
// 10-bit sample lies (BGR10A2_LE lists shift 0 for every component) nor, in 1.22, at which byte
// P010's V sits, so those are written out here.
#pragma once

#include <gst/video/video.h>

namespace vkc {

struct SampleLayout {
  guint plane = 0;
  guint pixel_stride = 0;  // bytes from one sample of the component to the next in its plane
  guint offset = 0;        // byte of the sample inside a pixel
  guint bytes = 1;         // the sample's size: 1, 2 or 4 bytes, little-endian
  guint shift = 0;         // the value is (sample >> shift) & (2^depth - 1)
  guint depth = 8;
  guint w_sub = 0, h_sub = 0;  // log2 subsampling, as GstVideoFormatInfo
};

// Component `component` (GStreamer's order: R, G, B, A or Y, U, V) of `format`.
SampleLayout sample_layout(GstVideoFormat format, guint component);

// The formats deeper than 8 bits that sample_layout() knows.
bool is_deep_format(GstVideoFormat format);

}  // namespace vkc
