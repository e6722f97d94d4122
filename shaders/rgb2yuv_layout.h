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

// The workgroup (specialization constants 0 and 1: local_size_x, local_size_y): 256 invocations in
// kGroupY rows of kGroupX blocks, each row of blocks a run of 512 pixels (256 AYUV) of one frame row,
// so that a subgroup loads and stores contiguous bytes.
const uint kGroupX = 64u;
const uint kGroupY = 4u;

// The SRC_ORDER specialization constant's place of alpha when the input has none: opaque.
const uint kNoAlpha = 0xffu;

// The push constants of rgb2yuv.comp, the vec4s first (std430 places them at multiples of 16). The
// byte orders are specialization constants: SRC_ORDER and DST_ORDER.
struct Params {
  vec4 coef_y;  // output code value = dot(coef.xyz, rgb) + coef.w, rgb in input code values
  vec4 coef_u;
  vec4 coef_v;
  uint width;
  uint height;
  uint src_offset;     // byte offset of the first pixel in src
  uint src_stride;     // bytes; any value
  uint dst_offset[3];  // byte offsets of the Y, U and V planes (multiples of 4)
  uint dst_stride[3];  // multiples of 4
};

#ifdef __cplusplus
VKC_LAYOUT_SIZE(Params, 88);
VKC_LAYOUT_OFFSET(Params, coef_y, 0);
VKC_LAYOUT_OFFSET(Params, coef_u, 16);
VKC_LAYOUT_OFFSET(Params, coef_v, 32);
VKC_LAYOUT_OFFSET(Params, width, 48);
VKC_LAYOUT_OFFSET(Params, height, 52);
VKC_LAYOUT_OFFSET(Params, src_offset, 56);
VKC_LAYOUT_OFFSET(Params, src_stride, 60);
VKC_LAYOUT_OFFSET(Params, dst_offset, 64);
VKC_LAYOUT_OFFSET(Params, dst_stride, 76);
}  // namespace vkc::shader::rgb2yuv
#endif

#endif
