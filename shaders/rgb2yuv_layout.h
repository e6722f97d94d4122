// What rgb2yuv.comp shares with gst/elements/rgb2yuv.cpp; see layout_common.h.
#ifndef VKC_SHADER_RGB2YUV_LAYOUT_H
#define VKC_SHADER_RGB2YUV_LAYOUT_H

#include "layout_common.h"

#ifdef __cplusplus
namespace vkc::shader::rgb2yuv {
#endif

// The LAYOUT specialization constant: how the output planes hold Y, U and V.
const uint kLayoutPlanar = 0u;
const uint kLayoutSemiPlanar = 1u;
const uint kLayoutPacked422 = 2u;
const uint kLayoutAyuv = 3u;

// Pixels per invocation (the BLOCK specialization constant): kBlockWidth, or kAyuvBlockWidth for
// AYUV, whose 4 pixels are one 16-byte store (neighbouring invocations then write neighbouring 16
// bytes).
const uint kBlockWidth = 8u;
const uint kAyuvBlockWidth = 4u;

// The workgroup (specialization constants 0 and 1: local_size_x, local_size_y).
const uint kGroupX = 16u;
const uint kGroupY = 4u;

// Params::src_order's byte index of alpha when the input has none: opaque.
const uint kNoAlpha = 0xffu;

// The push constants of rgb2yuv.comp.
struct Params {
  uint width;
  uint height;
  uint src_offset;     // byte offset of the first pixel in src
  uint src_stride;     // bytes; any value
  uint dst_offset[3];  // byte offsets of the Y, U and V planes (multiples of 4)
  uint dst_stride[3];  // multiples of 4
  uint src_order;      // where R, G, B, A start in a pixel, 8 bits each: the byte at 8 bits a channel,
                       // the bit at 10 and 16; A = kNoAlpha: opaque
  uint dst_order;      // packed: byte index of Y0,U,Y1,V (4:2:2) or A,Y,U,V (AYUV); semi-planar: 0 for
                       // U first, 1 for V first
  vec4 coef_y;         // output code value = dot(coef.xyz, rgb) + coef.w, rgb in input code values
  vec4 coef_u;
  vec4 coef_v;
};

#ifdef __cplusplus
VKC_LAYOUT_SIZE(Params, 96);
VKC_LAYOUT_OFFSET(Params, width, 0);
VKC_LAYOUT_OFFSET(Params, height, 4);
VKC_LAYOUT_OFFSET(Params, src_offset, 8);
VKC_LAYOUT_OFFSET(Params, src_stride, 12);
VKC_LAYOUT_OFFSET(Params, dst_offset, 16);
VKC_LAYOUT_OFFSET(Params, dst_stride, 28);
VKC_LAYOUT_OFFSET(Params, src_order, 40);
VKC_LAYOUT_OFFSET(Params, dst_order, 44);
VKC_LAYOUT_OFFSET(Params, coef_y, 48);
VKC_LAYOUT_OFFSET(Params, coef_u, 64);
VKC_LAYOUT_OFFSET(Params, coef_v, 80);
}  // namespace vkc::shader::rgb2yuv
#endif

#endif
