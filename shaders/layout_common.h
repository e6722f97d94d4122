// The common subset of C++ and GLSL that the shaders' *_layout.h headers are written in. Each of
// them holds what one kernel family shares with its element: constants, the push-constant structs
// and buffer layouts. The shaders include them (glslangValidator -I shaders/) and so do the
// elements, the benchmark and tests/test_kernel_layouts.cpp; nothing is defined twice.
//
// Both languages read `const uint kName = 4u;`, structs of uint, float, vec4 and arrays of them,
// and the preprocessor. C++ sees the contents in namespace vkc::shader::<family>, with `uint` a
// uint32_t and `vec4` four floats. A shader declares a push-constant struct as its block's only
// member, so that its code reads `p.width` as before:
//
//   layout(push_constant) uniform PushConstants { ScanParams p; };
//
// GLSL lays the struct out by std430, C++ by its own rules: the two agree for 4-byte members and
// arrays of them, and for vec4 at a multiple of 16 bytes (bool, vec2, vec3 and 8- or 16-bit types
// would not). Below each struct, static_asserts state its size and every member's offset, and
// test_kernel_layouts compares the struct with what glslangValidator compiled: member names,
// offsets and size, specialization-constant ids, buffer array strides.
#ifndef VKC_SHADER_LAYOUT_COMMON_H
#define VKC_SHADER_LAYOUT_COMMON_H

#ifdef __cplusplus
#include <array>
#include <cstddef>
#include <cstdint>

namespace vkc::shader {
using uint = uint32_t;
using vec4 = std::array<float, 4>;
static_assert(sizeof(vec4) == 16, "a vec4 is four floats");
}  // namespace vkc::shader

// A struct's size, and a member's offset, as std430 lays the struct out in the shader.
#define VKC_LAYOUT_SIZE(type, bytes) \
  static_assert(sizeof(type) == (bytes), #type " is " #bytes " bytes in the shader")
#define VKC_LAYOUT_OFFSET(type, member, bytes) \
  static_assert(offsetof(type, member) == (bytes), #type "::" #member " is at " #bytes " in the shader")
#endif

#endif
