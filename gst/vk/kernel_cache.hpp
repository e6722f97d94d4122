// Compute pipelines compiled once per device: every kernel of every element instance on a device
// with the same SPIR-V, bindings, push constants and specialization shares one.
#pragma once

#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "vk.hpp"

namespace vkc {

class Device;

struct KernelInfo {
  const char* name;       // debug name, also in error messages
  const uint32_t* spirv;  // from the header glslangValidator generated
  size_t spirv_bytes;
  uint32_t bindings;  // storage buffers at bindings 0..n-1 of set 0
  uint32_t push_constant_bytes;
  // Specialization constants, value i for constant_id i (each shader documents its own ids).
  std::vector<uint32_t> specialization;
};

// What compiling a kernel makes: immutable once made, so any thread may record with it.
struct CompiledKernel {
  vk::raii::DescriptorSetLayout set_layout = nullptr;
  vk::raii::PipelineLayout layout = nullptr;
  vk::raii::Pipeline pipeline = nullptr;
};

// Owned by the Device (Device::kernels()); its pipelines live as long as the device, so a
// pipeline started after another one stopped compiles nothing while the device stays open. The
// VkPipelineCache behind it outlives the device too: its data is kept for the process and seeds
// the next device opened on the same GPU (same pipelineCacheUUID).
class KernelCache {
 public:
  explicit KernelCache(const Device& device);
  ~KernelCache();
  KernelCache(const KernelCache&) = delete;
  KernelCache& operator=(const KernelCache&) = delete;

  // The compiled kernel for `info`, ready once compiled (or holding the compile's error). On first
  // use on a GPU the compile starts on a thread of its own and this returns at once: each element
  // makes its kernels as the caps reach it, so a chain's kernels compile side by side while the caps
  // travel on, not one after another in front of the first frame (13 kernels for a five-element
  // chain: 0.6-0.7 s on an H200 whose driver cache was empty, run 157, which a live source's frames
  // waited behind). On a CPU device it compiles here (get()). Thread-safe; a kernel compiled or
  // compiling already is not compiled again.
  using Compiled = std::shared_future<std::shared_ptr<const CompiledKernel>>;
  Compiled get(const KernelInfo& info);

  // Kernels compiled by this process so far, on every device (logged, and counted by the tests
  // that a second pipeline compiles none).
  static uint64_t compiled_count();

 private:
  // The SPIR-V is embedded in the plugin and never moves, so its address names it.
  using Key = std::tuple<const uint32_t*, size_t, uint32_t, uint32_t, std::vector<uint32_t>>;
  std::shared_ptr<const CompiledKernel> compile(const KernelInfo& info) const;

  const Device& device_;
  vk::raii::PipelineCache pipeline_cache_ = nullptr;
  std::mutex lock_;  // guards kernels_
  std::map<Key, Compiled> kernels_;
};

}  // namespace vkc
