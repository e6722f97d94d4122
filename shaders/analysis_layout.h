// Shared by the analysis kernels (lumamax, histogram) and gst/base/analysis.cpp; see layout_common.h.
#ifndef VKC_SHADER_ANALYSIS_LAYOUT_H
#define VKC_SHADER_ANALYSIS_LAYOUT_H

#include "layout_common.h"

#ifdef __cplusplus
namespace vkc::shader::analysis {
#endif

// Luma of 8-bit R, G, B is the integer kr*R + kg*G + kb*B, the coefficients in units of
// 2^-kLumaBits (vkc::luma_coefficients() rounds them to sum to exactly 1 << kLumaBits): white is
// 255 << kLumaBits, and a Y sample v is the luma v << kLumaBits.
const uint kLumaBits = 16u;

#ifdef __cplusplus
}  // namespace vkc::shader::analysis
#endif

#endif
