// What the floor kernels (floor_*.comp) share with bench/kernel_floor.cpp, in the common subset of
// C++ and GLSL of shaders/layout_common.h.
#ifndef VKC_BENCH_FLOOR_LAYOUT_H
#define VKC_BENCH_FLOOR_LAYOUT_H

#include "layout_common.h"

#ifdef __cplusplus
namespace vkc::shader::bench_floor {
#endif

const uint kGroupSize = 256u;  // invocations of a workgroup (local_size_x)
const uint kMaxVecs = 4u;      // the most 16-byte vectors an invocation takes (VECS)

// The push constants of floor_copy.comp and floor_read.comp.
struct FloorParams {
  uint count;  // 16-byte vectors in the frame
};

#ifdef __cplusplus
VKC_LAYOUT_SIZE(FloorParams, 4);
VKC_LAYOUT_OFFSET(FloorParams, count, 0);
}  // namespace vkc::shader::bench_floor
#endif

#endif
