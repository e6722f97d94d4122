// What lut.comp shares with gst/elements/lut.cpp (and lut_table.cpp: the table is one vec4 per
// entry, lut::kEntryFloats floats); see layout_common.h.
#ifndef VKC_SHADER_LUT_LAYOUT_H
#define VKC_SHADER_LUT_LAYOUT_H

#include "layout_common.h"

#ifdef __cplusplus
namespace vkc::shader::lut {
#endif

// How the table is looked up (specialization constant MODE).
const uint kMode3DNearest = 0u;
const uint kModeTrilinear = 1u;
const uint kModeTetrahedral = 2u;
const uint kMode1DNearest = 3u;
const uint kMode1DLinear = 4u;

// The workgroup (specialization constants 0 and 1: local_size_x, local_size_y); an invocation
// handles kPixelsPerInvocation pixels of a row.
const uint kGroupX = 64u;
const uint kGroupY = 4u;
const uint kPixelsPerInvocation = 4u;

// The push constants of lut.comp.
struct Params {
  vec4 domain_min;  // xyz: input value that maps onto entry 0
  vec4 scale;       // xyz: (size - 1) / (domain_max - domain_min)
  uint width;
  uint height;
  uint src_offset;  // bytes, any value
  uint src_stride;  // bytes, any value
  uint dst_offset;  // bytes, multiple of 4
  uint dst_stride;  // bytes, multiple of 4
  uint size;        // entries along each axis
  float intensity;  // 0..1: output = mix(input, lut(input), intensity) (MIXED)
};

// An entry of the packed table: R, G and B of 0..1 in 10 bits each (R lowest). 8-bit frames read
// it: a quarter of the float table's bytes, so a 33^3 table (144 KB) stays in the SMs' caches.
const uint kPackedBits = 10u;

#ifdef __cplusplus
VKC_LAYOUT_SIZE(Params, 64);
VKC_LAYOUT_OFFSET(Params, domain_min, 0);
VKC_LAYOUT_OFFSET(Params, scale, 16);
VKC_LAYOUT_OFFSET(Params, width, 32);
VKC_LAYOUT_OFFSET(Params, height, 36);
VKC_LAYOUT_OFFSET(Params, src_offset, 40);
VKC_LAYOUT_OFFSET(Params, src_stride, 44);
VKC_LAYOUT_OFFSET(Params, dst_offset, 48);
VKC_LAYOUT_OFFSET(Params, dst_stride, 52);
VKC_LAYOUT_OFFSET(Params, size, 56);
VKC_LAYOUT_OFFSET(Params, intensity, 60);
}  // namespace vkc::shader::lut
#endif

#endif
