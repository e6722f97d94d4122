// What the histogram kernels (histogram.comp, histogram_fast8.comp, histogram_draw.comp) share with
// gst/elements/histogram.cpp; see layout_common.h.
#ifndef VKC_SHADER_HISTOGRAM_LAYOUT_H
#define VKC_SHADER_HISTOGRAM_LAYOUT_H

#include "analysis_layout.h"
#include "layout_common.h"

#ifdef __cplusplus
namespace vkc::shader::histogram {
using analysis::kLumaBits;
#endif

// The counts buffer: kChannels histograms of W = Params::histogram_words uints (histogram h, bin b
// at h * W + b; W = kNarrowBins for up to that many bins, else the bins), then the count of
// finished workgroups at kChannels * W; zero between frames. The host-visible result buffer holds
// the histograms alone, at the same places.
const uint kChannels = 5u;  // R, G, B, luma, alpha; or Y, U, V
const uint kNarrowBins = 256u;
const uint kMaxBins = 65536u;  // the bins property's largest value
const uint kNoLuma = 0xffu;    // Params::luma_slot: no luma histogram

// A workgroup counts into histograms in shared memory when a plane's histograms times the bins fit
// in kSharedWords, else straight into the counts buffer. With the kernel's other shared variables
// that stays under 16 KiB, what every Vulkan device has (maxComputeSharedMemorySize).
const uint kSharedWords = 4032u;

// Several regions (Params::regions > 0): region r's histograms and counter take the
// kChannels * W + 1 uints from r * (kChannels * W + 1) of the counts buffer (and its histograms the
// same place of the result buffer). Each plane's dispatch reads its own region table, kRegionWords
// uints per region, at Params::table; one region alone uses block 0 with its rectangle in the push
// constants.
const uint kRegionWords = 8u;
const uint kRegionX0 = 0u;  // the region in this plane's samples, [x0, x1) x [y0, y1)
const uint kRegionY0 = 1u;
const uint kRegionX1 = 2u;
const uint kRegionY1 = 3u;
const uint kRegionBlocksX = 4u;     // blocks across it in this plane
const uint kRegionFirstBlock = 5u;  // this plane's blocks of the regions before it
const uint kRegionGroups = 6u;      // its workgroups over every plane's dispatch

// The counting kernel's workgroup, and the block of the plane it covers: kPixelsPerInvocation of
// a row (read as words, words.glsl's load_quad) in each of kRowsPerInvocation rows. Wide, short
// blocks: a GPU reads host memory faster in long runs of a row (docs/benchmarks/history.md, "wide,
// short workgroup tiles").
const uint kGroupX = 64u;
const uint kGroupY = 4u;
const uint kPixelsPerInvocation = 4u;
const uint kRowsPerInvocation = 4u;
const uint kBlockWidth = kGroupX * kPixelsPerInvocation;
const uint kBlockHeight = kGroupY * kRowsPerInvocation;

// The 8-bit kernel (histogram_fast8.comp: samples of 8 bits in pixels of 1, 2 or 4 bytes,
// kNarrowBins bins, one region). The region's rows, laid end to end, are read as kFastLoadBytes
// loads (16 bytes: kFastLoadBytes / bpp pixels each); a tile is kFastInvocations of them, one per
// invocation, and a grid of workgroups of kFastInvocations strides over the tiles
// (include/frame_loads.glsl), each invocation issuing kFastLoads loads before it counts their
// samples. Each workgroup adds its non-zero bins to the frame's counts with global atomics, so the
// grid is a workgroup per kFastTilesPerGroup tiles, from kFastMinGroups (while there are tiles for
// them) to kFastGroups: fewer workgroups add fewer, more count faster. H200, 16 random RGBA frames
// in device memory overlapping on the GPU (run 194), us a frame: 1080p (2 025 tiles) 8.9 / 7.8 /
// 8.6 in 64 / 128 / 256 workgroups; 4K (8 100) 23.2 in 254, 23.4 in 507 and 512. (Each frame
// alone, behind a barrier, runs 183-186: 1080p 19.7 in 128, 17.6 in 256.) Each workgroup counts into up to
// kFastCopies copies of its histograms in shared memory (as many as fit in kSharedWords),
// neighbouring invocations into different copies.
const uint kFastLoadBytes = 16u;
const uint kFastInvocations = 256u;
const uint kFastLoads = 4u;
const uint kFastTilesPerGroup = 16u;
const uint kFastMinGroups = 128u;
const uint kFastGroups = 512u;
const uint kFastCopies = 4u;

// The draw kernel's workgroup; an invocation owns kDrawPixelsPerInvocation neighbouring pixels of
// a row of the graph, in which up to kMaxDrawnChannels histograms are drawn.
const uint kDrawGroupX = 16u;
const uint kDrawGroupY = 4u;
const uint kDrawPixelsPerInvocation = 4u;
const uint kMaxDrawnChannels = 3u;

// The push constants of histogram.comp, and of histogram_fast8.comp, which reads the region,
// coefficients, groups, bins (kNarrowBins) and histogram_words of them.
struct Params {
  uint offset;          // byte offset of the plane in src
  uint stride;          // its stride in bytes
  uint x0, y0, x1, y1;  // region, in this plane's pixels
  uint channels;        // channels per pixel, 1..4
  uint order;           // byte index of channel c's sample inside a pixel: bits 8c..8c+7
  uint slots;           // histogram of channel c: bits 8c..8c+7
  uint luma_slot;       // histogram of the luma of channels 0..2 (R, G, B), or kNoLuma
  uint kr, kg, kb;      // luma coefficients (analysis_layout.h)
  uint bins;
  uint groups;           // workgroups of all of the frame's dispatches
  uint regions;          // 0: the one region above; else how many the table holds (one workgroup per block
                         // of every region, the grid's rows laid end to end)
  uint table;            // word offset of this plane's region table in the counts buffer
  uint blocks;           // several regions: blocks of every region in this plane
  uint shifts;           // channel c's value: its sample (SAMPLE_BYTES, little-endian) >> the shift in bits
  uint depths;           // 8c..8c+7, & (1 << the depth in bits 8c..8c+7) - 1; depth 8, 10, 12, 16 or 2
  uint histogram_words;  // W: uints from one histogram to the next in the counts buffer
};

// The push constants of histogram_draw.comp.
struct DrawParams {
  uint offset;  // byte offset of plane 0 of the output frame
  uint stride;  // its stride (a multiple of 4)
  uint top;     // first row of the graph
  uint width;   // graph size in pixels
  uint height;
  uint channels;  // histograms drawn, 1 or kMaxDrawnChannels
  uint order;     // byte index inside a pixel of the channel that histogram c is drawn into
  uint bins;
  uint shifts;  // and the shift and depth of its value in its sample, as Params
  uint depths;
  uint histogram_words;  // as Params: histogram c's counts from c * histogram_words
};

#ifdef __cplusplus
VKC_LAYOUT_SIZE(Params, 84);
VKC_LAYOUT_OFFSET(Params, offset, 0);
VKC_LAYOUT_OFFSET(Params, stride, 4);
VKC_LAYOUT_OFFSET(Params, x0, 8);
VKC_LAYOUT_OFFSET(Params, y0, 12);
VKC_LAYOUT_OFFSET(Params, x1, 16);
VKC_LAYOUT_OFFSET(Params, y1, 20);
VKC_LAYOUT_OFFSET(Params, channels, 24);
VKC_LAYOUT_OFFSET(Params, order, 28);
VKC_LAYOUT_OFFSET(Params, slots, 32);
VKC_LAYOUT_OFFSET(Params, luma_slot, 36);
VKC_LAYOUT_OFFSET(Params, kr, 40);
VKC_LAYOUT_OFFSET(Params, kg, 44);
VKC_LAYOUT_OFFSET(Params, kb, 48);
VKC_LAYOUT_OFFSET(Params, bins, 52);
VKC_LAYOUT_OFFSET(Params, groups, 56);
VKC_LAYOUT_OFFSET(Params, regions, 60);
VKC_LAYOUT_OFFSET(Params, table, 64);
VKC_LAYOUT_OFFSET(Params, blocks, 68);
VKC_LAYOUT_OFFSET(Params, shifts, 72);
VKC_LAYOUT_OFFSET(Params, depths, 76);
VKC_LAYOUT_OFFSET(Params, histogram_words, 80);

VKC_LAYOUT_SIZE(DrawParams, 44);
VKC_LAYOUT_OFFSET(DrawParams, offset, 0);
VKC_LAYOUT_OFFSET(DrawParams, stride, 4);
VKC_LAYOUT_OFFSET(DrawParams, top, 8);
VKC_LAYOUT_OFFSET(DrawParams, width, 12);
VKC_LAYOUT_OFFSET(DrawParams, height, 16);
VKC_LAYOUT_OFFSET(DrawParams, channels, 20);
VKC_LAYOUT_OFFSET(DrawParams, order, 24);
VKC_LAYOUT_OFFSET(DrawParams, bins, 28);
VKC_LAYOUT_OFFSET(DrawParams, shifts, 32);
VKC_LAYOUT_OFFSET(DrawParams, depths, 36);
VKC_LAYOUT_OFFSET(DrawParams, histogram_words, 40);
}  // namespace vkc::shader::histogram
#endif

#endif
