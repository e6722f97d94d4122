#include "kernel.hpp"

#include <algorithm>
#include <shared_mutex>
#include <string>

namespace vkc {

Kernel::Kernel(std::shared_ptr<Device> device, const KernelInfo& info)
    : device_(std::move(device)),
      name_(info.name),
      bindings_(info.bindings),
      push_bytes_(info.push_constant_bytes),
      compiling_(device_->kernels().get(info)) {}

Kernel::~Kernel() {
  if (!sets_.empty()) device_->note_released();
}

const CompiledKernel& Kernel::compiled() const {
  const CompiledKernel* compiled = compiled_.load(std::memory_order_acquire);
  if (compiled == nullptr) {
    compiled = compiling_.get().get();  // rethrows the compile's error
    compiled_.store(compiled, std::memory_order_release);
  }
  return *compiled;
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
    vk::DescriptorSetLayout layout = *compiled().set_layout;
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
  if (contents_.size() <= set) contents_.resize(set + 1);
  Contents& held = contents_[set];
  const uint64_t released = device_->released();
  if (held.released == released && held.buffers.size() == buffers.size() &&
      std::equal(buffers.begin(), buffers.end(), held.buffers.begin(),
                 [](const Binding& b, vk::Buffer h) { return b.buffer == h; }))
    return;
  held.buffers.clear();
  for (const Binding& b : buffers) held.buffers.push_back(b.buffer);
  held.released = released;
  held.version++;
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
  std::shared_lock<std::shared_mutex> writing(device_->destroy_lock());
  device_->device().updateDescriptorSets(writes, nullptr);
}

void Kernel::dispatch(Commands cmd, uint32_t set, const void* push_constants, uint32_t groups_x,
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
  cmd.bindPipeline(vk::PipelineBindPoint::eCompute, *compiled().pipeline);
  cmd.bindDescriptorSets(vk::PipelineBindPoint::eCompute, *compiled().layout, 0, descriptor_set(set),
                         set < contents_.size() ? contents_[set].version : 0);
  if (push_bytes_)
    cmd.pushConstants(*compiled().layout, vk::ShaderStageFlagBits::eCompute, 0, push_bytes_, push_constants);
  cmd.dispatch(groups_x, groups_y, 1);
}

void compute_barrier(Commands cmd) {
  vk::MemoryBarrier barrier{
      .srcAccessMask = vk::AccessFlagBits::eShaderWrite,
      .dstAccessMask = vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eShaderWrite};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader, vk::PipelineStageFlagBits::eComputeShader,
                      {}, barrier, nullptr, nullptr);
}

void transfer_to_compute_barrier(Commands cmd) {
  vk::MemoryBarrier barrier{
      .srcAccessMask = vk::AccessFlagBits::eTransferWrite,
      .dstAccessMask = vk::AccessFlagBits::eShaderRead | vk::AccessFlagBits::eShaderWrite};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eComputeShader, {},
                      barrier, nullptr, nullptr);
}

void compute_to_transfer_barrier(Commands cmd) {
  vk::MemoryBarrier barrier{
      .srcAccessMask = vk::AccessFlagBits::eShaderWrite,
      .dstAccessMask = vk::AccessFlagBits::eTransferRead | vk::AccessFlagBits::eTransferWrite};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader, vk::PipelineStageFlagBits::eTransfer, {},
                      barrier, nullptr, nullptr);
}

void update_buffer(Commands cmd, vk::Buffer buffer, uint32_t offset, const std::vector<uint32_t>& words) {
  if (words.empty()) return;
  // The previous frame's kernels and transfers may have read or written there.
  vk::MemoryBarrier before{
      .srcAccessMask = vk::AccessFlagBits::eShaderWrite | vk::AccessFlagBits::eTransferWrite,
      .dstAccessMask = vk::AccessFlagBits::eTransferWrite};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer,
                      vk::PipelineStageFlagBits::eTransfer, {}, before, nullptr, nullptr);
  cmd.updateBuffer(buffer, vk::DeviceSize(offset) * sizeof(uint32_t), words.size() * sizeof(uint32_t),
                   words.data());
  transfer_to_compute_barrier(cmd);
}

void clear_buffer(Commands cmd, vk::Buffer buffer) {
  cmd.fillBuffer(buffer, 0, VK_WHOLE_SIZE, 0);
  transfer_to_compute_barrier(cmd);
}

}  // namespace vkc
