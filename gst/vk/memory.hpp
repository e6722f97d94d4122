// Vulkan buffers with their own memory: host-visible ones the CPU reads and writes in place,
// device-local ones, imports of memory the CPU already owns (VK_EXT_external_memory_host), and
// device-local memory exported to another API (VK_KHR_external_memory_fd).
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "device.hpp"
#include "memory_blocks.hpp"

namespace vkc {

class Buffer {
 public:
  // A host-visible, host-coherent buffer, persistently mapped and zeroed. Prefers host-cached
  // memory so that CPU reads of GPU results are fast. The size is rounded up to whole 32-bit words because
  // the kernels address buffers as uint arrays.
  static std::unique_ptr<Buffer> create_host(std::shared_ptr<Device> device, vk::DeviceSize size,
                                             const char* name);

  // A device-local buffer the CPU cannot map: intermediate images and tables that only kernels
  // and transfers touch, read at the GPU's own memory bandwidth. Rounded to whole words too.
  static std::unique_ptr<Buffer> create_device(std::shared_ptr<Device> device, vk::DeviceSize size,
                                               const char* name);

  // A buffer over the CPU memory [data, data + size), imported without a copy. The import covers
  // whole pages (the device's import alignment), so the returned buffer may start before `data`;
  // offset_of() gives where `data` lies inside it. Returns nullptr (with `error` set) when the
  // device cannot import this memory.
  static std::unique_ptr<Buffer> import_host(std::shared_ptr<Device> device, const void* data,
                                             vk::DeviceSize size, const char* name, std::string& error);

  // A device-local buffer in memory of its own that another API can import (CUDA:
  // cuImportExternalMemory) through export_fd(). Returns nullptr (with `error` set) when the device
  // cannot export memory as file descriptors (DeviceFeatures::memory_fd_export).
  static std::unique_ptr<Buffer> create_exported(std::shared_ptr<Device> device, vk::DeviceSize size,
                                                 const char* name, std::string& error);
  // A new file descriptor of an exported buffer's memory, which the caller owns (an import takes it);
  // -1 with `error` set when the buffer is not exported or the driver fails.
  int export_fd(std::string& error) const;
  // The size of the buffer's memory as allocated (what an import must name): at least size().
  vk::DeviceSize allocation_size() const { return allocated_; }

  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  vk::Buffer handle() const { return *buffer_; }
  vk::DeviceSize size() const { return size_; }
  // CPU address of the buffer's first byte (nullptr when not host-visible).
  uint8_t* mapped() const { return mapped_; }
  // Byte offset of `host_address` inside the buffer.
  vk::DeviceSize offset_of(const void* host_address) const {
    return vk::DeviceSize(static_cast<const uint8_t*>(host_address) - mapped_);
  }
  const Device& device() const { return *device_; }
  // Whether freeing this buffer and allocating it again would move it out of a sparse memory
  // block into a fuller one (MemoryBlocks::worth_moving()).
  bool worth_moving() const { return range_ && device_->blocks().worth_moving(range_); }

 private:
  // What `device`'s buffers and memory blocks hold now, as the debug log says it.
  static std::string holdings(const Device& device);
  static std::unique_ptr<Buffer> allocate(std::shared_ptr<Device> device, vk::DeviceSize size,
                                          vk::MemoryPropertyFlags required, vk::MemoryPropertyFlags preferred,
                                          const char* name);
  Buffer(std::shared_ptr<Device> device, vk::DeviceSize size) : device_(std::move(device)), size_(size) {}

  std::shared_ptr<Device> device_;
  vk::DeviceSize size_;
  vk::raii::DeviceMemory memory_ =
      nullptr;        // an import's or exported buffer's own memory; declared before buffer_: freed after it
  BlockRange range_;  // otherwise: where in the device's blocks (memory_blocks.hpp)
  vk::raii::Buffer buffer_ = nullptr;
  uint8_t* mapped_ = nullptr;
  std::atomic<uint64_t>* held_ = nullptr;  // the device's count this buffer's memory is in
  vk::DeviceSize allocated_ = 0;
  bool exported_ = false;  // memory_ may be exported (create_exported())
};

}  // namespace vkc
