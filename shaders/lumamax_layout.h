// What the lumamax kernels (lumamax_scan.comp, lumamax_reduce.comp, lumamax_frame.comp,
// include/lumamax.glsl) share with gst/elements/lumamax.cpp; see layout_common.h.
#ifndef VKC_SHADER_LUMAMAX_LAYOUT_H
#define VKC_SHADER_LUMAMAX_LAYOUT_H

#include "analysis_layout.h"
#include "layout_common.h"

#ifdef __cplusplus
namespace vkc::shader::lumamax {
using analysis::kLumaBits;
#endif

// The scan's tiles. Wide, short tiles: a GPU reads host memory faster in long runs of a row
// (docs/benchmarks/history.md, "wide, short workgroup tiles").
const uint kPixelsPerInvocation = 4u;  // of a row, read as words (words.glsl's load_quad)
const uint kTileWidth = 256u;          // pixels
const uint kTileHeight = 4u;           // rows, one per invocation
// The scan's workgroup (specialization constants 0 and 1: local_size_x, local_size_y), and the
// invocations of every lumamax workgroup (the reduce pass's local_size_x).
const uint kScanGroupX = kTileWidth / kPixelsPerInvocation;
const uint kScanGroupY = kTileHeight;
const uint kGroupInvocations = kScanGroupX * kScanGroupY;

// The frame kernel (lumamax_frame.comp: count = 1 over the frame or one region, pixels of 1, 2 or 4
// bytes). The region's rows, laid end to end, are read as kLoadBytes loads; a tile is
// kGroupInvocations consecutive loads, one per invocation; a grid of at most kFrameGroups
// workgroups of kGroupInvocations strides over the tiles, each invocation issuing kFrameLoads loads
// (of as many tiles) before it uses them. The grid is a workgroup per kFrameLoads tiles,
// kFrameMinGroups at least (while there are tiles for them) and kFrameGroups at most: a 1080p RGBA
// frame is 2 025 tiles, 128 workgroups. Frames of a stream overlap on the GPU (they wait for earlier
// work only where they must: gst/base/framebarriers.hpp), so fewer workgroups a frame finish sooner,
// their last one reducing fewer partial results. H200, 16 random frames in device memory (run 196),
// us a frame in 64-128 / 128-256 / 256-512 workgroups: 1080p RGBA 5.7 / 6.4 / 7.3, NV12 3.7 / 3.7 /
// 4.7, P010 4.5 / 5.2 / 5.2; 4K RGBA 15.3 / 15.6 / 16.1; 360p RGBA 2.5 / 2.7 / 3.4.
const uint kLoadBytes = 16u;  // one uvec4
const uint kFrameLoads = 4u;
const uint kFrameMinGroups = 64u;
const uint kFrameGroups = 128u;

// The most peaks a frame reports (the element's count property).
const uint kMaxPeaks = 64u;

// A luma L of 8-bit samples is below 256 << kLumaBits: the minimum key orders pixels by
// kMaxLuma - L. At depth d (10 to 16 bits) L is below 2^d << kLumaBits, and ScanParams::max_luma
// takes kMaxLuma's place: (2^d << kLumaBits) - 1 (at 16 bits, 2^32 - 1).
const uint kMaxLuma = (256u << kLumaBits) - 1u;

// The sums add L >> kLumaSumShift at 8 bits (L >> d at depth d: ScanParams::sum_shift), so that a
// workgroup's sum fits in 32 bits.
const uint kLumaSumShift = 8u;

// The scratch buffer, in uints. Its first kTiles uints are the results the CPU reads (the
// host-visible result buffer of a count = 1 frame holds the same there).
//   [kMaxKey, +1] maximum key   [kMinKey, +1] minimum key   [kLumaSum, +1] sum (lo, hi)
//   [kFinished]   scan workgroups finished (zero between frames)
//   [kPeaks + 2k, +1]  key of peak k, k < kMaxPeaks
//   [kTiles + 2t, +1]  per tile t of T: maximum key of the pixels not yet suppressed
//   [kTiles + 2T + 2t, +1]  per tile: minimum key      [kTiles + 4T + t]  per tile: sum
const uint kMaxKey = 0u;
const uint kMinKey = 2u;
const uint kLumaSum = 4u;
const uint kFinished = 6u;
const uint kPeaks = 8u;
const uint kTiles = 256u;
const uint kWordsPerTile = 5u;
// The frame kernel's workgroups write partials of the same kind at `partials` (FrameParams), with
// G their number: [2g, +1] maximum key, [2G + 2g, +1] minimum key, [4G + 2g, +1] sum (lo, hi): a
// workgroup may sum more than 2^32.
const uint kWordsPerPartial = 6u;

// Several regions (ScanParams::regions > 0): region r's results take the block of kTiles uints at
// r * kTiles, laid out as above (its finished counter, its peaks); the region table at `table`
// holds kRegionWords uints per region; the tiles of every region follow one another at
// `tiles_base` (region r's from its first_tile), in the layout above with T the tiles of all
// regions. One region alone uses block 0, at `tiles_base` too, with the rectangle in the push
// constants.
const uint kRegionWords = 8u;
const uint kRegionX0 = 0u;  // the region, [x0, x1) x [y0, y1)
const uint kRegionY0 = 1u;
const uint kRegionX1 = 2u;
const uint kRegionY1 = 3u;
const uint kRegionTilesX = 4u;     // tiles across the region
const uint kRegionTiles = 5u;      // tiles in all
const uint kRegionFirstTile = 6u;  // the tiles of the regions before it

// The push constants of lumamax_scan.comp (scan and rescan).
struct ScanParams {
  uint width;  // frame size, for raster indices
  uint height;
  uint offset;                          // byte offset of the luma (or RGB) plane in src
  uint stride;                          // its stride in bytes
  uint roi_x0, roi_y0, roi_x1, roi_y1;  // region of interest, [x0, x1) x [y0, y1)
  uint tiles_x;                         // tiles across the region
  uint tiles;                           // tiles in all
  uint order;                           // RGB: byte index of R, G, B inside a pixel, 8 bits each
  uint kr, kg, kb;                      // RGB: luma coefficients (analysis_layout.h)
  uint peak;                            // rescan: index of the newest peak
  uint min_dist2;                       // rescan: max(min-distance, 1)^2
  uint reach;                           // rescan: largest |dx| or |dy| a suppressed pixel can have
  uint finish;                          // 1: the last workgroup reduces the tiles into `result`
  uint peak_floor;                      // finish: the least L peak 0 may have (peak-threshold)
  uint regions;      // 0: the one region above; else how many the table holds (scan: one workgroup
                     // per tile of every region, the grid's rows laid end to end)
  uint region_base;  // rescan: the first region of this dispatch (rescan_rows rows of workgroups each)
  uint rescan_rows;  // rescan of several regions: rows of workgroups per region
  uint table;        // word offset of the region table in the scratch buffer
  uint tiles_base;   // word offset of the tiles' slots
  uint tiles_total;  // tiles of every region (the tile layout's T)
  uint shifts;       // a value: (its sample >> its shift, bits 8c..8c+7 for R, G, B or Y) & value_mask
  uint value_mask;   // 2^depth - 1
  uint max_luma;     // (2^depth << kLumaBits) - 1
  uint sum_shift;    // the sums add L >> sum_shift: the depth
};

// The push constants of lumamax_reduce.comp.
struct ReduceParams {
  uint tiles;
  uint peak;        // index of the peak this pass chooses
  uint peak_floor;  // the least L a peak may have (peak-threshold)
  uint regions;     // 0: one region, block 0; else one workgroup per region of the table
  uint table;       // as ScanParams
  uint tiles_base;
  uint tiles_total;
};

// The push constants of lumamax_frame.comp.
struct FrameParams {
  uint width;       // frame width, for raster indices
  uint offset;      // byte offset of the luma (or RGB) plane in src
  uint stride;      // its stride in bytes
  uint x0, y0;      // the region's first pixel
  uint x1;          // the column after its last
  uint rows;        // its rows
  uint row_loads;   // kLoadBytes loads per row of the region (its last may reach past the row's end)
  uint kr, kg, kb;  // as ScanParams
  uint peak_floor;  // as ScanParams
  uint partials;    // word offset of the workgroups' partials in the scratch buffer
  uint value_mask;  // as ScanParams
  uint max_luma;    // as ScanParams
  uint sum_shift;   // as ScanParams
};

#ifdef __cplusplus
static_assert(kPeaks + 2 * kMaxPeaks <= kTiles, "the peaks' keys fit before the tiles");
static_assert(kMaxPeaks <= kGroupInvocations, "a rescan workgroup loads one peak per invocation");

VKC_LAYOUT_SIZE(ScanParams, 116);
VKC_LAYOUT_OFFSET(ScanParams, width, 0);
VKC_LAYOUT_OFFSET(ScanParams, height, 4);
VKC_LAYOUT_OFFSET(ScanParams, offset, 8);
VKC_LAYOUT_OFFSET(ScanParams, stride, 12);
VKC_LAYOUT_OFFSET(ScanParams, roi_x0, 16);
VKC_LAYOUT_OFFSET(ScanParams, roi_y0, 20);
VKC_LAYOUT_OFFSET(ScanParams, roi_x1, 24);
VKC_LAYOUT_OFFSET(ScanParams, roi_y1, 28);
VKC_LAYOUT_OFFSET(ScanParams, tiles_x, 32);
VKC_LAYOUT_OFFSET(ScanParams, tiles, 36);
VKC_LAYOUT_OFFSET(ScanParams, order, 40);
VKC_LAYOUT_OFFSET(ScanParams, kr, 44);
VKC_LAYOUT_OFFSET(ScanParams, kg, 48);
VKC_LAYOUT_OFFSET(ScanParams, kb, 52);
VKC_LAYOUT_OFFSET(ScanParams, peak, 56);
VKC_LAYOUT_OFFSET(ScanParams, min_dist2, 60);
VKC_LAYOUT_OFFSET(ScanParams, reach, 64);
VKC_LAYOUT_OFFSET(ScanParams, finish, 68);
VKC_LAYOUT_OFFSET(ScanParams, peak_floor, 72);
VKC_LAYOUT_OFFSET(ScanParams, regions, 76);
VKC_LAYOUT_OFFSET(ScanParams, region_base, 80);
VKC_LAYOUT_OFFSET(ScanParams, rescan_rows, 84);
VKC_LAYOUT_OFFSET(ScanParams, table, 88);
VKC_LAYOUT_OFFSET(ScanParams, tiles_base, 92);
VKC_LAYOUT_OFFSET(ScanParams, tiles_total, 96);
VKC_LAYOUT_OFFSET(ScanParams, shifts, 100);
VKC_LAYOUT_OFFSET(ScanParams, value_mask, 104);
VKC_LAYOUT_OFFSET(ScanParams, max_luma, 108);
VKC_LAYOUT_OFFSET(ScanParams, sum_shift, 112);

VKC_LAYOUT_SIZE(ReduceParams, 28);
VKC_LAYOUT_OFFSET(ReduceParams, tiles, 0);
VKC_LAYOUT_OFFSET(ReduceParams, peak, 4);
VKC_LAYOUT_OFFSET(ReduceParams, peak_floor, 8);
VKC_LAYOUT_OFFSET(ReduceParams, regions, 12);
VKC_LAYOUT_OFFSET(ReduceParams, table, 16);
VKC_LAYOUT_OFFSET(ReduceParams, tiles_base, 20);
VKC_LAYOUT_OFFSET(ReduceParams, tiles_total, 24);

VKC_LAYOUT_SIZE(FrameParams, 64);
VKC_LAYOUT_OFFSET(FrameParams, width, 0);
VKC_LAYOUT_OFFSET(FrameParams, offset, 4);
VKC_LAYOUT_OFFSET(FrameParams, stride, 8);
VKC_LAYOUT_OFFSET(FrameParams, x0, 12);
VKC_LAYOUT_OFFSET(FrameParams, y0, 16);
VKC_LAYOUT_OFFSET(FrameParams, x1, 20);
VKC_LAYOUT_OFFSET(FrameParams, rows, 24);
VKC_LAYOUT_OFFSET(FrameParams, row_loads, 28);
VKC_LAYOUT_OFFSET(FrameParams, kr, 32);
VKC_LAYOUT_OFFSET(FrameParams, kg, 36);
VKC_LAYOUT_OFFSET(FrameParams, kb, 40);
VKC_LAYOUT_OFFSET(FrameParams, peak_floor, 44);
VKC_LAYOUT_OFFSET(FrameParams, partials, 48);
VKC_LAYOUT_OFFSET(FrameParams, value_mask, 52);
VKC_LAYOUT_OFFSET(FrameParams, max_luma, 56);
VKC_LAYOUT_OFFSET(FrameParams, sum_shift, 60);
}  // namespace vkc::shader::lumamax
#endif

#endif
