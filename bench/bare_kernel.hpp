// floor_empty.comp with nothing around it: a compute pipeline whose layout has no descriptor set and
// no push constants, so that launching it reads nothing but what the driver records for the
// dispatch (bench/kernel_floor.cpp).
#pragma once

// The generated SPIR-V headers declare uint32_t arrays and include nothing themselves.
#include <cstdint>

#include "floor_empty.spv.h"
#include "vk/commands.hpp"
#include "vk/vk.hpp"

namespace bench {

class BareKernel {
 public:
  explicit BareKernel(const vk::raii::Device& device)
      : layout_(device, vk::PipelineLayoutCreateInfo{}), pipeline_(nullptr) {
    vk::raii::ShaderModule module(
        device, vk::ShaderModuleCreateInfo{.codeSize = sizeof(floor_empty_spv), .pCode = floor_empty_spv});
    pipeline_ = vk::raii::Pipeline(
        device, nullptr,
        vk::ComputePipelineCreateInfo{
            .stage = {.stage = vk::ShaderStageFlagBits::eCompute, .module = *module, .pName = "main"},
            .layout = *layout_});
  }
  vk::Pipeline pipeline() const { return *pipeline_; }
  // One workgroup.
  void dispatch(vkc::Commands cmd) const {
    cmd.bindPipeline(vk::PipelineBindPoint::eCompute, *pipeline_);
    cmd.dispatch(1, 1, 1);
  }

 private:
  vk::raii::PipelineLayout layout_;
  vk::raii::Pipeline pipeline_;
};

}  // namespace bench
