// The frames the analysis suites' format tests push of every format, in one stream per format:
// odd sizes, each change renegotiating the element mid-stream, in every kind of input memory
// they build.
#pragma once

#include "common/input_placement.h"

namespace analysis_test {

struct FormatStep {
  int width;
  int height;
  vktest::InputPlacement placement;
};

inline constexpr FormatStep kFormatSteps[] = {
    {1, 1, {vktest::MemoryKind::kUpstreamPool, 0, 0}},   {2, 3, {vktest::MemoryKind::kUpstreamPool, 0, 0}},
    {97, 61, {vktest::MemoryKind::kUpstreamPool, 0, 0}}, {33, 17, {vktest::MemoryKind::kUpstreamPool, 0, 0}},
    {33, 17, {vktest::MemoryKind::kSystem, 12, 64}},  // padded strides, planes at an offset
    {97, 61, {vktest::MemoryKind::kSystem, 7, 5}},    // stride and offset not multiples of 4
    {2, 3, {vktest::MemoryKind::kSystem, 5, 3}},         {1, 1, {vktest::MemoryKind::kSystem, 1, 1}},
    {97, 61, {vktest::MemoryKind::kSplit, 3, 9}},  // no single memory block holds the middle row
};

}  // namespace analysis_test
