// A frame's commands, written down before they reach the driver, so that a command buffer recorded
// for an earlier frame of the same slot is submitted again when the new frame's commands are the
// same (CommandRing): NVIDIA's driver took 28 us of CPU per frame to reset, begin, record and end a
// slot's command buffer when each frame came cold (docs/benchmarks.md, run 112), and a stream's
// frames of one size, read from and written to the same buffers, record the same commands.
//
// Commands is a handle with the calls of vk::CommandBuffer that the plugin records; CommandLog holds
// what they wrote down (every argument by value, and the data of updateBuffer and pushConstants).
// Two logs compare equal when the commands and their arguments are. What a log cannot see must
// change a log or the ring's release count: a descriptor set rewritten with other buffers carries a
// new version into bindDescriptorSets (Kernel), and a buffer, descriptor set or pipeline destroyed,
// whose handle a new one may take, counts on the device (Device::note_released()).
// GST_VKCOMPUTE_COMMAND_REUSE=0 records every submission anew (to compare).
#pragma once

#include <cstdint>
#include <vector>

#include "vk.hpp"

namespace vkc {

class CommandLog {
 public:
  void clear() { words_.clear(); }
  bool empty() const { return words_.empty(); }
  bool operator==(const CommandLog& other) const { return words_ == other.words_; }
  // Records the commands into `cmd` (begun by the caller).
  void replay(vk::CommandBuffer cmd) const;

 private:
  friend class Commands;
  enum class Op : uint64_t {
    kBarrier,
    kCopy,
    kFill,
    kUpdate,
    kBindPipeline,
    kBindSet,
    kPushConstants,
    kDispatch,
    kTimestamp,
    kResetQueries,
    kImageBarrier,
    kCopyImage,
    kCopyToImage
  };
  void put(uint64_t word) { words_.push_back(word); }
  template <typename Handle>
  void put_handle(Handle handle) {
    put(uint64_t(reinterpret_cast<uintptr_t>(static_cast<typename Handle::CType>(handle))));
  }
  void put_bytes(const void* data, size_t bytes);
  std::vector<uint64_t> words_;
};

class Commands {
 public:
  Commands() = default;
  // Writes the commands down in `log`.
  explicit Commands(CommandLog& log) : log_(&log) {}
  // Records them into `cmd` at once (a command buffer of the caller's own, as bench/'s).
  Commands(vk::CommandBuffer cmd) : cmd_(cmd) {}  // NOLINT(google-explicit-constructor)

  // The plugin's barriers are global memory barriers, but for the images of GStreamer's frames.
  void pipelineBarrier(vk::PipelineStageFlags src, vk::PipelineStageFlags dst, vk::DependencyFlags flags,
                       const vk::MemoryBarrier& barrier, std::nullptr_t, std::nullptr_t);
  // One image's barrier (its layout changed), with no other.
  void imageBarrier(vk::PipelineStageFlags src, vk::PipelineStageFlags dst,
                    const vk::ImageMemoryBarrier& barrier);
  void copyImageToBuffer(vk::Image image, vk::ImageLayout layout, vk::Buffer buffer,
                         const vk::BufferImageCopy& region);
  void copyBufferToImage(vk::Buffer buffer, vk::Image image, vk::ImageLayout layout,
                         const vk::BufferImageCopy& region);
  void copyBuffer(vk::Buffer src, vk::Buffer dst, vk::ArrayProxy<const vk::BufferCopy> const& regions);
  void fillBuffer(vk::Buffer buffer, vk::DeviceSize offset, vk::DeviceSize size, uint32_t data);
  void updateBuffer(vk::Buffer buffer, vk::DeviceSize offset, vk::DeviceSize size, const void* data);
  void bindPipeline(vk::PipelineBindPoint point, vk::Pipeline pipeline);
  // `version` tells the set's contents apart (Kernel::update()); it never reaches the driver.
  void bindDescriptorSets(vk::PipelineBindPoint point, vk::PipelineLayout layout, uint32_t first,
                          vk::DescriptorSet set, uint64_t version);
  void pushConstants(vk::PipelineLayout layout, vk::ShaderStageFlags stages, uint32_t offset, uint32_t size,
                     const void* data);
  void dispatch(uint32_t x, uint32_t y, uint32_t z);
  void writeTimestamp(vk::PipelineStageFlagBits stage, vk::QueryPool pool, uint32_t query);
  void resetQueryPool(vk::QueryPool pool, uint32_t first, uint32_t count);

 private:
  CommandLog* log_ = nullptr;
  vk::CommandBuffer cmd_;
};

}  // namespace vkc
