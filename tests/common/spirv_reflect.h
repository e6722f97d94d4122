// What a compiled kernel declares to the code that runs it, read from its SPIR-V words: the
// push-constant struct's members and offsets, the specialization constants by id, the fixed
// workgroup size and the array stride of each storage buffer. A small reader of the decorations
// glslangValidator writes (OpName, OpMemberName, OpDecorate, OpMemberDecorate, types and
// constants), for tests/test_kernel_layouts.cpp; it understands no more of SPIR-V than that.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vktest::spirv {

struct Member {
  std::string name;
  uint32_t offset = 0;
  uint32_t bytes = 0;  // a bool is a 32-bit value in a block
};

// A struct as laid out in the module: members in declaration order, and its size up to the end of
// its last member (std430 adds no padding after it in a push-constant block).
struct Struct {
  std::string name;
  std::vector<Member> members;
  uint32_t bytes = 0;
};

struct Module {
  std::string error;  // empty when the words were read
  // The push-constant block; when its only member is a struct (shaders/layout_common.h's
  // convention), that struct. No members when the kernel has no push constants.
  Struct push_constants;
  // Specialization constants by SpecId: the constant's name, or local_size_x, _y, _z for the
  // workgroup size's.
  std::map<uint32_t, std::string> spec_constants;
  // OpExecutionMode LocalSize (1, 1, 1 when the size comes from specialization constants).
  std::array<uint32_t, 3> local_size = {0, 0, 0};
  // Storage buffers by binding (set 0): the ArrayStride of the runtime array that ends the block.
  std::map<uint32_t, uint32_t> buffer_strides;
};

// Reads `bytes` bytes of SPIR-V (a kernel's <name>_spv array).
Module Reflect(const uint32_t* words, size_t bytes);

}  // namespace vktest::spirv
