#include "kernel.hpp"

#include <algorithm>
#include <string>

namespace vkc {

Kernel::Kernel(std::shared_ptr<Device> device, const KernelInfo& info)
    : device_(std::move(device)),
      name_(info.name),
      bindings_(info.bindings),
      push_bytes_(info.push_constant_bytes),
      compiled_(device_->kernels().get(info)) {}

Kernel::~Kernel() {
  if (!sets_.empty()) device_->note_released();
}

Kernel::Variant Kernel::make_variant() const {
  const auto& dev = device_->device();
  Variant variant;
  vk::DescriptorPoolSize size{.type = vk::DescriptorType::eStorageBuffer, .descriptorCount = bindings_};
  variant.pool = vk::raii::DescriptorPool(
      dev, vk::DescriptorPoolCreateInfo{.flags = vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet,
                                        .maxSets = 1,
                                        .poolSizeCount = 1,
                                        .pPoolSizes = &size});
  vk::DescriptorSetLayout layout = *compiled_->set_layout;
  vk::raii::DescriptorSets allocated(
      dev, vk::DescriptorSetAllocateInfo{
               .descriptorPool = *variant.pool, .descriptorSetCount = 1, .pSetLayouts = &layout});
  variant.set = std::move(allocated.front());
  device_->set_name(*variant.set, name_);
  return variant;
}

Kernel::Set& Kernel::set_at(uint32_t index) const {
  if (sets_.size() <= index) sets_.resize(index + 1);
  Set& set = sets_[index];
  if (set.variants.empty()) set.variants.push_back(make_variant());
  return set;
}

void Kernel::update(uint32_t index, std::initializer_list<Binding> buffers) const {
  Set& set = set_at(index);
  const uint64_t released = device_->released();
  const auto holds = [&](const Variant& v) {
    return v.released == released && v.buffers.size() == buffers.size() &&
           std::equal(buffers.begin(), buffers.end(), v.buffers.begin(),
                      [](const Binding& b, vk::Buffer h) { return b.buffer == h; });
  };
  auto found = std::find_if(set.variants.begin(), set.variants.end(), holds);
  if (found == set.variants.end()) {
    // A variant never written, else a new one while there is room, else the least recently used.
    found = std::find_if(set.variants.begin(), set.variants.end(),
                         [](const Variant& v) { return v.version == 0; });
    if (found == set.variants.end() && set.variants.size() < kVariants) {
      set.variants.push_back(make_variant());
      found = set.variants.end() - 1;
    }
    if (found == set.variants.end())
      found = std::min_element(set.variants.begin(), set.variants.end(),
                               [](const Variant& a, const Variant& b) { return a.used < b.used; });
    Variant& v = *found;
    v.buffers.clear();
    for (const Binding& b : buffers) v.buffers.push_back(b.buffer);
    v.released = released;
    v.version = ++versions_;
    std::vector<vk::DescriptorBufferInfo> infos;
    std::vector<vk::WriteDescriptorSet> writes;
    infos.reserve(buffers.size());
    for (const Binding& b : buffers) {
      infos.push_back(vk::DescriptorBufferInfo{.buffer = b.buffer, .offset = 0, .range = VK_WHOLE_SIZE});
      writes.push_back(vk::WriteDescriptorSet{.dstSet = *v.set,
                                              .dstBinding = uint32_t(writes.size()),
                                              .descriptorCount = 1,
                                              .descriptorType = vk::DescriptorType::eStorageBuffer,
                                              .pBufferInfo = &infos.back()});
    }
    device_->device().updateDescriptorSets(writes, nullptr);
  }
  found->used = ++uses_;
  set.current = size_t(found - set.variants.begin());
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
  cmd.bindPipeline(vk::PipelineBindPoint::eCompute, *compiled_->pipeline);
  const Set& bound = set_at(set);
  const Variant& variant = bound.variants[bound.current];
  cmd.bindDescriptorSets(vk::PipelineBindPoint::eCompute, *compiled_->layout, 0, *variant.set,
                         variant.version);
  if (push_bytes_)
    cmd.pushConstants(*compiled_->layout, vk::ShaderStageFlagBits::eCompute, 0, push_bytes_, push_constants);
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
