#include "kernel_cache.hpp"

#include <pthread.h>

#include <array>
#include <atomic>
#include <chrono>

#include "device.hpp"

#define GST_CAT_DEFAULT gst_vkcompute_runtime_debug

namespace vkc {

namespace {

std::atomic<uint64_t> compiled{0};

// The pipeline cache data of devices that closed, by pipelineCacheUUID: a device opened again
// later in the process (after every pipeline using the GPU stopped) starts from it.
using CacheId = std::array<uint8_t, VK_UUID_SIZE>;
std::mutex saved_lock;
std::map<CacheId, std::vector<uint8_t>>& saved_caches() {
  static std::map<CacheId, std::vector<uint8_t>> saved;
  return saved;
}

CacheId cache_id(const Device& device) {
  CacheId id;
  const auto& uuid = device.properties().pipelineCacheUUID;
  std::copy(uuid.begin(), uuid.end(), id.begin());
  return id;
}

}  // namespace

KernelCache::KernelCache(const Device& device) : device_(device) {
  std::vector<uint8_t> data;
  {
    std::lock_guard<std::mutex> guard(saved_lock);
    auto it = saved_caches().find(cache_id(device_));
    if (it != saved_caches().end()) data = it->second;
  }
  // A driver checks the data's header (vendor, device, UUID) and ignores data that is not its own.
  pipeline_cache_ = vk::raii::PipelineCache(
      device_.device(),
      vk::PipelineCacheCreateInfo{.initialDataSize = data.size(), .pInitialData = data.data()});
}

KernelCache::~KernelCache() {
  // Compiles still running (their elements stopped first) use the device: they end before it closes.
  for (auto& [key, kernel] : kernels_) kernel.wait();
  try {
    std::vector<uint8_t> data = pipeline_cache_.getData();
    std::lock_guard<std::mutex> guard(saved_lock);
    saved_caches()[cache_id(device_)] = std::move(data);
  } catch (const vk::SystemError& e) {
    GST_WARNING("the pipeline cache of Vulkan device %d could not be read: %s", device_.index(), e.what());
  }
}

uint64_t KernelCache::compiled_count() {
  return compiled.load();
}

KernelCache::Compiled KernelCache::get(const KernelInfo& info) {
  Key key{info.spirv, info.spirv_bytes, info.bindings, info.push_constant_bytes, info.specialization};
  std::lock_guard<std::mutex> guard(lock_);
  Compiled& kernel = kernels_[key];
  // A compile that failed (the device out of memory, or lost) is tried again by the next element.
  if (kernel.valid() && kernel.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    try {
      kernel.get();
    } catch (...) {
      kernel = Compiled();
    }
  }
  if (kernel.valid()) return kernel;
  if (device_.is_cpu()) {
    // On a CPU implementation (lavapipe) here, on the caller's thread: its compiler shares the cores
    // the frames run on, so side by side gains nothing, and Debian 13's validation layers on it failed
    // compiles on threads of their own (VK_ERROR_UNKNOWN under GPU-assisted validation, a bogus
    // VUID-VkShaderModuleCreateInfo-pCode-08739 beside a device's creation) and ran 5x slower.
    std::promise<std::shared_ptr<const CompiledKernel>> compiled_here;
    try {
      compiled_here.set_value(compile(info));
    } catch (...) {
      compiled_here.set_exception(std::current_exception());
    }
    kernel = compiled_here.get_future().share();
    return kernel;
  }
  // The info's name and SPIR-V are the plugin's static data; its specialization is copied.
  kernel = std::async(std::launch::async, [this, info] {
             pthread_setname_np(pthread_self(), "vkc:compile");
             return compile(info);
           }).share();
  return kernel;
}

std::shared_ptr<const CompiledKernel> KernelCache::compile(const KernelInfo& info) const {
  const auto& dev = device_.device();
  auto kernel = std::make_shared<CompiledKernel>();
  std::vector<vk::DescriptorSetLayoutBinding> slots(info.bindings);
  for (uint32_t i = 0; i < info.bindings; ++i)
    slots[i] = vk::DescriptorSetLayoutBinding{.binding = i,
                                              .descriptorType = vk::DescriptorType::eStorageBuffer,
                                              .descriptorCount = 1,
                                              .stageFlags = vk::ShaderStageFlagBits::eCompute};
  kernel->set_layout = vk::raii::DescriptorSetLayout(
      dev, vk::DescriptorSetLayoutCreateInfo{.bindingCount = info.bindings, .pBindings = slots.data()});

  vk::PushConstantRange range{
      .stageFlags = vk::ShaderStageFlagBits::eCompute, .offset = 0, .size = info.push_constant_bytes};
  vk::DescriptorSetLayout set_layout = *kernel->set_layout;
  kernel->layout = vk::raii::PipelineLayout(
      dev, vk::PipelineLayoutCreateInfo{.setLayoutCount = 1,
                                        .pSetLayouts = &set_layout,
                                        .pushConstantRangeCount = info.push_constant_bytes ? 1u : 0u,
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
                                              .layout = *kernel->layout};
  kernel->pipeline = vk::raii::Pipeline(dev, pipeline_cache_, pipeline_info);
  device_.set_name(*kernel->pipeline, info.name);
  device_.set_name(*kernel->layout, info.name);
  const uint64_t count = ++compiled;
  GST_INFO("compiled kernel %s for Vulkan device %d (%" G_GUINT64_FORMAT " compiled in this process)",
           info.name, device_.index(), count);
  return kernel;
}

}  // namespace vkc
