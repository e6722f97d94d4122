#include "kernel.hpp"

#include <string>

namespace vkc {

Kernel::Kernel(std::shared_ptr<Device> device, const KernelInfo& info)
    : device_(std::move(device)),
      name_(info.name),
      bindings_(info.bindings),
      push_bytes_(info.push_constant_bytes) {
  const auto& dev = device_->device();
  std::vector<vk::DescriptorSetLayoutBinding> slots(bindings_);
  for (uint32_t i = 0; i < bindings_; ++i)
    slots[i] = vk::DescriptorSetLayoutBinding{.binding = i,
                                              .descriptorType = vk::DescriptorType::eStorageBuffer,
                                              .descriptorCount = 1,
                                              .stageFlags = vk::ShaderStageFlagBits::eCompute};
  set_layout_ = vk::raii::DescriptorSetLayout(
      dev, vk::DescriptorSetLayoutCreateInfo{.bindingCount = bindings_, .pBindings = slots.data()});

  vk::PushConstantRange range{
      .stageFlags = vk::ShaderStageFlagBits::eCompute, .offset = 0, .size = push_bytes_};
  vk::DescriptorSetLayout set_layout = *set_layout_;
  layout_ = vk::raii::PipelineLayout(
      dev, vk::PipelineLayoutCreateInfo{.setLayoutCount = 1,
                                        .pSetLayouts = &set_layout,
                                        .pushConstantRangeCount = push_bytes_ ? 1u : 0u,
                                        .pPushConstantRanges = &range});

  vk::raii::ShaderModule module(
      dev, vk::ShaderModuleCreateInfo{.codeSize = info.spirv_bytes, .pCode = info.spirv});
  std::vector<vk::SpecializationMapEntry> entries(info.specialization.size());
  for (uint32_t i = 0; i < entries.size(); ++i)
    entries[i] = vk::SpecializationMapEntry{.constantID = i, .offset = i * 4, .size = 4};
  vk::SpecializationInfo spec{.mapEntryCount = uint32_t(entries.size()),
                              .pMapEntries = entries.data(),
                              .dataSize = info.specialization.size() * 4,
                              .pData = info.specialization.data()};
  vk::ComputePipelineCreateInfo pipeline_info{.stage = {.stage = vk::ShaderStageFlagBits::eCompute,
                                                        .module = *module,
                                                        .pName = "main",
                                                        .pSpecializationInfo = &spec},
                                              .layout = *layout_};
  pipeline_ = vk::raii::Pipeline(dev, nullptr, pipeline_info);
  device_->set_name(*pipeline_, name_);
  device_->set_name(*layout_, name_);
}

vk::DescriptorSet Kernel::descriptor_set(uint32_t index) const {
  const auto& dev = device_->device();
  while (sets_.size() <= index) {
    vk::DescriptorPoolSize size{.type = vk::DescriptorType::eStorageBuffer, .descriptorCount = bindings_};
    pools_.emplace_back(
        dev, vk::DescriptorPoolCreateInfo{.flags = vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet,
                                          .maxSets = 1,
                                          .poolSizeCount = 1,
                                          .pPoolSizes = &size});
    vk::DescriptorSetLayout layout = *set_layout_;
    vk::raii::DescriptorSets allocated(
        dev, vk::DescriptorSetAllocateInfo{
                 .descriptorPool = *pools_.back(), .descriptorSetCount = 1, .pSetLayouts = &layout});
    sets_.push_back(std::move(allocated.front()));
    device_->set_name(*sets_.back(), name_);
  }
  return *sets_[index];
}

void Kernel::update(uint32_t set, std::initializer_list<Binding> buffers) const {
  vk::DescriptorSet descriptors = descriptor_set(set);
  std::vector<vk::DescriptorBufferInfo> infos;
  std::vector<vk::WriteDescriptorSet> writes;
  infos.reserve(buffers.size());
  for (const Binding& b : buffers) {
    infos.push_back(vk::DescriptorBufferInfo{.buffer = b.buffer, .offset = 0, .range = VK_WHOLE_SIZE});
    writes.push_back(vk::WriteDescriptorSet{.dstSet = descriptors,
                                            .dstBinding = uint32_t(writes.size()),
                                            .descriptorCount = 1,
                                            .descriptorType = vk::DescriptorType::eStorageBuffer,
                                            .pBufferInfo = &infos.back()});
  }
  device_->device().updateDescriptorSets(writes, nullptr);
}

void Kernel::dispatch(vk::CommandBuffer cmd, uint32_t set, const void* push_constants, uint32_t groups_x,
                      uint32_t groups_y) const {
  // A grid larger than the device dispatches at once (maxComputeWorkGroupCount: 65 535 workgroups
  // in a direction on lavapipe, in Y on NVIDIA's GPUs) cannot be recorded: the kernels index their
  // rows from the workgroup's place in one dispatch, and a dispatch's base may not reach past the
  // limit either. The element reports the frame as too large for the device.
  const auto& most = device_->properties().limits.maxComputeWorkGroupCount;
  if (groups_x > most[0] || groups_y > most[1])
    throw GridTooLarge(std::string(name_) + " needs " + std::to_string(groups_x) + " x " +
                       std::to_string(groups_y) + " workgroups in one dispatch; the device takes at most " +
                       std::to_string(most[0]) + " x " + std::to_string(most[1]) +
                       " (maxComputeWorkGroupCount)");
  cmd.bindPipeline(vk::PipelineBindPoint::eCompute, *pipeline_);
  cmd.bindDescriptorSets(vk::PipelineBindPoint::eCompute, *layout_, 0, descriptor_set(set), nullptr);
  if (push_bytes_)
    cmd.pushConstants(*layout_, vk::ShaderStageFlagBits::eCompute, 0, push_bytes_, push_constants);
  cmd.dispatch(groups_x, groups_y, 1);
}

void compute_barrier(vk::CommandBuffer cmd) {
  vk::MemoryBarrier barrier{
      .srcAccessMask = vk::AccessFlagBits::eShaderWrite,
      .dstAccessMask = vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eShaderWrite};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader, vk::PipelineStageFlagBits::eComputeShader,
                      {}, barrier, nullptr, nullptr);
}

void transfer_to_compute_barrier(vk::CommandBuffer cmd) {
  vk::MemoryBarrier barrier{
      .srcAccessMask = vk::AccessFlagBits::eTransferWrite,
      .dstAccessMask = vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eShaderWrite};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eComputeShader, {},
                      barrier, nullptr, nullptr);
}

void compute_to_transfer_barrier(vk::CommandBuffer cmd) {
  vk::MemoryBarrier barrier{
      .srcAccessMask = vk::AccessFlagBits::eShaderWrite,
      .dstAccessMask = vk::AccessFlagBits::eTransferRead | vk::AccessFlagBits::eTransferWrite};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader, vk::PipelineStageFlagBits::eTransfer, {},
                      barrier, nullptr, nullptr);
}

void clear_buffer(vk::CommandBuffer cmd, vk::Buffer buffer) {
  cmd.fillBuffer(buffer, 0, VK_WHOLE_SIZE, 0);
  transfer_to_compute_barrier(cmd);
}

}  // namespace vkc
