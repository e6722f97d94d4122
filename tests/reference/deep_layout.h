// Where the samples of the formats deeper than 8 bits lie, shared by the CPU references of every
// element. Written out by hand from GStreamer's definition of each format (its documentation and
// pack functions), not read from GstVideoFormatInfo, so that a mistake in the format table (1.22
// has one: P010's V offset) cannot hide a matching one in the elements.
#pragma once

#include <gst/video/video.h>

#include <cstdint>

namespace reference {

// One component: its little-endian sample of `bytes` bytes at `offset` in each step of
// `pixel_stride` bytes of its plane; the value is (sample >> shift) & (2^depth - 1).
struct DeepComponent {
  int plane;
  int pixel_stride;
  int offset;
  int bytes;
  int shift;
  int depth;
};

struct DeepLayout {
  GstVideoFormat format;
  bool rgb;
  int components;  // R, G, B, A or Y, U, V, as GStreamer numbers them
  int sx, sy;      // chroma subsampling
  DeepComponent c[4];
};

// GRAY16_LE, P010_10LE, P016_LE, I420_10LE, I420_12LE, I422_10LE, Y444_10LE, Y444_16LE,
// RGBA64_LE, BGR10A2_LE, RGB10A2_LE; null for any other format.
const DeepLayout* FindDeepLayout(GstVideoFormat format);

// The value of component `c` at sample (x, y) of a plane starting at `plane` with `stride` bytes
// a row.
uint32_t DeepSample(const uint8_t* plane, int stride, const DeepComponent& c, int x, int y);

// Stores `value` there, leaving the sample's other bits (another component of a packed word,
// P010's low bits) as they were.
void StoreDeepSample(uint8_t* plane, int stride, const DeepComponent& c, int x, int y, uint32_t value);

}  // namespace reference
