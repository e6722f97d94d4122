#include "deep_layout.h"

namespace reference {
namespace {

constexpr DeepComponent Y16(int depth, int shift = 0) {
  return {0, 2, 0, 2, shift, depth};
}
constexpr DeepComponent Plane16(int plane, int depth) {
  return {plane, 2, 0, 2, 0, depth};
}
// A component of a packed 32-bit word: 10-bit R, G, B and 2-bit A.
constexpr DeepComponent Packed10(int shift) {
  return {0, 4, 0, 4, shift, shift == 30 ? 2 : 10};
}

constexpr DeepLayout kDeepLayouts[] = {
    {GST_VIDEO_FORMAT_GRAY16_LE, false, 1, 1, 1, {Y16(16)}},
    // 10 bits in the high bits of each 16-bit word; U and V interleaved in plane 1.
    {GST_VIDEO_FORMAT_P010_10LE, false, 3, 2, 2, {Y16(10, 6), {1, 4, 0, 2, 6, 10}, {1, 4, 2, 2, 6, 10}}},
    {GST_VIDEO_FORMAT_P016_LE, false, 3, 2, 2, {Y16(16), {1, 4, 0, 2, 0, 16}, {1, 4, 2, 2, 0, 16}}},
    // Planar, the value in the low bits of each 16-bit word.
    {GST_VIDEO_FORMAT_I420_10LE, false, 3, 2, 2, {Y16(10), Plane16(1, 10), Plane16(2, 10)}},
    {GST_VIDEO_FORMAT_I420_12LE, false, 3, 2, 2, {Y16(12), Plane16(1, 12), Plane16(2, 12)}},
    {GST_VIDEO_FORMAT_I422_10LE, false, 3, 2, 1, {Y16(10), Plane16(1, 10), Plane16(2, 10)}},
    {GST_VIDEO_FORMAT_Y444_10LE, false, 3, 1, 1, {Y16(10), Plane16(1, 10), Plane16(2, 10)}},
    {GST_VIDEO_FORMAT_Y444_16LE, false, 3, 1, 1, {Y16(16), Plane16(1, 16), Plane16(2, 16)}},
    // R, G, B, A 16-bit words.
    {GST_VIDEO_FORMAT_RGBA64_LE,
     true,
     4,
     1,
     1,
     {{0, 8, 0, 2, 0, 16}, {0, 8, 2, 2, 0, 16}, {0, 8, 4, 2, 0, 16}, {0, 8, 6, 2, 0, 16}}},
    // One 32-bit word: B in bits 0-9, G 10-19, R 20-29, A 30-31.
    {GST_VIDEO_FORMAT_BGR10A2_LE, true, 4, 1, 1, {Packed10(20), Packed10(10), Packed10(0), Packed10(30)}},
    // R in bits 0-9, G 10-19, B 20-29, A 30-31.
    {GST_VIDEO_FORMAT_RGB10A2_LE, true, 4, 1, 1, {Packed10(0), Packed10(10), Packed10(20), Packed10(30)}},
};

uint8_t* SampleAt(uint8_t* plane, int stride, const DeepComponent& c, int x, int y) {
  return plane + static_cast<ptrdiff_t>(y) * stride + static_cast<ptrdiff_t>(x) * c.pixel_stride + c.offset;
}

}  // namespace

const DeepLayout* FindDeepLayout(GstVideoFormat format) {
  for (const DeepLayout& layout : kDeepLayouts) {
    if (layout.format == format) return &layout;
  }
  return nullptr;
}

uint32_t DeepSample(const uint8_t* plane, int stride, const DeepComponent& c, int x, int y) {
  const uint8_t* at = SampleAt(const_cast<uint8_t*>(plane), stride, c, x, y);
  uint32_t sample = 0;
  for (int b = 0; b < c.bytes; ++b) sample |= uint32_t(at[b]) << (8 * b);
  return (sample >> c.shift) & ((1u << c.depth) - 1);
}

void StoreDeepSample(uint8_t* plane, int stride, const DeepComponent& c, int x, int y, uint32_t value) {
  uint8_t* at = SampleAt(plane, stride, c, x, y);
  uint32_t sample = 0;
  for (int b = 0; b < c.bytes; ++b) sample |= uint32_t(at[b]) << (8 * b);
  const uint32_t mask = ((1u << c.depth) - 1) << c.shift;
  sample = (sample & ~mask) | ((value << c.shift) & mask);
  for (int b = 0; b < c.bytes; ++b) at[b] = uint8_t(sample >> (8 * b));
}

}  // namespace reference
