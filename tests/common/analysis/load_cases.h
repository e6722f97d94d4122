// What the analyses' kernels of 16-byte loads (shaders/lumamax_frame.comp,
// shaders/histogram_fast8.comp: a region's rows laid end to end as loads, a bounded grid striding
// over them) are tested on: rows aligned and not, regions that start inside a load, and frames of
// more tiles than the grid has workgroups.
#pragma once

#include <gst/video/video.h>

#include <string>

#include "common/format_names.h"
#include "common/input_placement.h"
#include "reference/luma_roi.h"

namespace analysis_test {

// Rows of 16-byte aligned words in place (row+12 makes 97 RGBA pixels 400 bytes, at 64), and rows
// at odd offsets and strides.
inline constexpr vktest::InputPlacement kLoadPlacements[] = {{vktest::MemoryKind::kUpstreamPool, 0, 0},
                                                             {vktest::MemoryKind::kSystem, 12, 64},
                                                             {vktest::MemoryKind::kSystem, 7, 5}};

struct LoadRoiCase {
  const char* label;
  reference::Roi roi;
};

// On 97x61 frames.
inline constexpr LoadRoiCase kLoadRoiCases[] = {
    {"odd x0", {1, 3, 60, 40}},
    {"odd x0 to the edges", {33, 7, 0, 0}},
    {"x0 at 16 bytes of every pixel size", {16, 2, 70, 50}},
    {"three pixels inside one load", {5, 10, 3, 20}},
    {"one column", {45, 0, 1, 0}},
    {"one pixel", {95, 60, 1, 1}},
};

// A frame of more tiles than the grid has workgroups, in `placement`, analysed over `roi`.
struct ManyTilesCase {
  GstVideoFormat format;
  int width, height;
  vktest::InputPlacement placement;
  reference::Roi roi;

  // "<prefix> FORMAT WxH"
  std::string Name(const std::string& prefix) const {
    return prefix + " " + vktest::FormatName(format) + " " + std::to_string(width) + "x" +
           std::to_string(height);
  }
};

}  // namespace analysis_test
