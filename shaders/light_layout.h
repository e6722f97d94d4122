// What lumamax_light.comp shares with gst/elements/lumamax_light.cpp (lumamax's HDR light
// statistics); see layout_common.h.
#ifndef VKC_SHADER_LIGHT_LAYOUT_H
#define VKC_SHADER_LIGHT_LAYOUT_H

#include "layout_common.h"

#ifdef __cplusplus
namespace vkc::shader::light {
#endif

// The workgroup (specialization constants 0 and 1) and its tile: each invocation takes
// kLightPixels pixels of a row, so a workgroup covers kLightTileWidth x kLightTileHeight pixels.
const uint kLightGroupX = 64u;
const uint kLightGroupY = 4u;
const uint kLightPixels = 4u;
const uint kLightTileWidth = kLightGroupX * kLightPixels;
const uint kLightTileHeight = kLightGroupY;

// The TRANSFER specialization constant.
const uint kTransferPq = 0u;   // SMPTE ST 2084
const uint kTransferHlg = 1u;  // ARIB STD-B67 (BT.2100 HLG)

// The push constants of lumamax_light.comp. Component c is R, G, B (RGB) or Y, U, V: its sample of
// pixel (x, y) starts at byte offset[c] + (y >> sub_y) * stride[c] + (x >> sub_x) * step[c] of the
// frame, holds (sample >> shift) & value_mask, and becomes the signal (value - black[c]) * gain[c]
// (R'G'B' in 0..1; Y' in 0..1, Cb and Cr in -0.5..0.5).
struct LightParams {
  vec4 black;           // xyz per component
  vec4 gain;            // xyz per component
  vec4 to_rgb;          // YUV: R' = Y' + x Cr, G' = Y' - y Cb - z Cr, B' = Y' + w Cb
  uint x0, y0, x1, y1;  // the region, [x0, x1) x [y0, y1)
  uint tiles_x;         // tiles across it
  uint first;           // its first tile's index in the partials
  uint offset[3];
  uint stride[3];
  uint step[3];
  uint shifts;       // bits 8c..8c+7: component c's shift
  uint subsampling;  // bits 8c..8c+3: log2 horizontal, 8c+4..8c+7: log2 vertical
  uint value_mask;
};

#ifdef __cplusplus
VKC_LAYOUT_SIZE(LightParams, 120);
VKC_LAYOUT_OFFSET(LightParams, black, 0);
VKC_LAYOUT_OFFSET(LightParams, gain, 16);
VKC_LAYOUT_OFFSET(LightParams, to_rgb, 32);
VKC_LAYOUT_OFFSET(LightParams, x0, 48);
VKC_LAYOUT_OFFSET(LightParams, y0, 52);
VKC_LAYOUT_OFFSET(LightParams, x1, 56);
VKC_LAYOUT_OFFSET(LightParams, y1, 60);
VKC_LAYOUT_OFFSET(LightParams, tiles_x, 64);
VKC_LAYOUT_OFFSET(LightParams, first, 68);
VKC_LAYOUT_OFFSET(LightParams, offset, 72);
VKC_LAYOUT_OFFSET(LightParams, stride, 84);
VKC_LAYOUT_OFFSET(LightParams, step, 96);
VKC_LAYOUT_OFFSET(LightParams, shifts, 108);
VKC_LAYOUT_OFFSET(LightParams, subsampling, 112);
VKC_LAYOUT_OFFSET(LightParams, value_mask, 116);
}  // namespace vkc::shader::light
#endif

#endif
