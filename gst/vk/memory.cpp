#include "memory.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <shared_mutex>

#include "reaper.hpp"

#define GST_CAT_DEFAULT gst_vkcompute_runtime_debug

namespace vkc {

namespace {

constexpr vk::BufferUsageFlags kUsage = vk::BufferUsageFlagBits::eStorageBuffer |
                                        vk::BufferUsageFlagBits::eTransferSrc |
                                        vk::BufferUsageFlagBits::eTransferDst;

// Every buffer may be touched by the compute queue and the copy queues (device.hpp): shared by
// their families, so that no ownership transfers are needed between them. Buffers, unlike
// images, lose nothing to concurrent sharing.
vk::BufferCreateInfo buffer_info(const Device& device, vk::DeviceSize size, const void* next = nullptr) {
  const auto& families = device.queue_families();
  vk::BufferCreateInfo info{.pNext = next, .size = size, .usage = kUsage};
  if (families.size() > 1) {
    info.sharingMode = vk::SharingMode::eConcurrent;
    info.queueFamilyIndexCount = uint32_t(families.size());
    info.pQueueFamilyIndices = families.data();
  }
  return info;
}

vk::DeviceSize round_up(vk::DeviceSize value, vk::DeviceSize align) {
  return (value + align - 1) / align * align;
}

// Frees the device's empty memory blocks beyond the spare, one each MemoryBlocks::kDriverFreeGapUs,
// on the reaper's thread (a driver's free may take milliseconds and hold the GPU's work): each
// drain, released there, asks for the next while blocks are left. It does not keep the device: a
// device that closes frees its blocks at once.
struct BlockDrain {
  std::weak_ptr<Device> device;
  ~BlockDrain() {
    if (std::shared_ptr<Device> held = device.lock())
      if (held->blocks().drain()) drain_blocks_later(held);
  }
  static void drain_blocks_later(const std::shared_ptr<Device>& device) {
    auto drain = std::make_shared<BlockDrain>();  // made in place: a copy's end would drain at once
    drain->device = device;
    release_at(std::chrono::steady_clock::now() + std::chrono::microseconds(MemoryBlocks::kDriverFreeGapUs),
               std::move(drain));
  }
};

}  // namespace

std::unique_ptr<Buffer> Buffer::allocate(std::shared_ptr<Device> device, vk::DeviceSize size,
                                         vk::MemoryPropertyFlags required, vk::MemoryPropertyFlags preferred,
                                         const char* name) {
  std::unique_ptr<Buffer> buffer(
      new Buffer(std::move(device), round_up(std::max<vk::DeviceSize>(size, 4), 4)));
  const Device& dev = *buffer->device_;
  buffer->buffer_ = vk::raii::Buffer(dev.device(), buffer_info(dev, buffer->size_));
  auto needs = buffer->buffer_.getMemoryRequirements();
  int type = dev.find_memory_type(needs.memoryTypeBits, required, preferred);
  if (type < 0) throw std::runtime_error("the Vulkan device has no memory type " + vk::to_string(required));
  const bool host_visible = bool(dev.memory_properties().memoryTypes[type].propertyFlags &
                                 vk::MemoryPropertyFlagBits::eHostVisible);
  buffer->range_ = dev.blocks().allocate(uint32_t(type), needs.size, needs.alignment, host_visible);
  buffer->buffer_.bindMemory(buffer->range_.memory, buffer->range_.offset);
  buffer->mapped_ = buffer->range_.mapped;
  dev.set_name(*buffer->buffer_, name);
  // Counted by what it was asked for: a CPU device's (lavapipe's) one memory type serves both.
  const bool device_local = !(required & vk::MemoryPropertyFlagBits::eHostVisible);
  MemoryHeld& held = dev.memory_held();
  buffer->held_ = device_local ? &held.device_local : &held.host_visible;
  buffer->allocated_ = needs.size;
  *buffer->held_ += needs.size;
  GST_DEBUG("allocated %s: %" G_GUINT64_FORMAT " bytes of %s memory; %s", name, guint64(needs.size),
            device_local ? "device-local" : "host-visible", holdings(dev).c_str());
  return buffer;
}

std::string Buffer::holdings(const Device& device) {
  const MemoryHeld& held = device.memory_held();
  char text[256];
  std::snprintf(text, sizeof text,
                "Vulkan device %d holds %" G_GUINT64_FORMAT " bytes of device-local and %" G_GUINT64_FORMAT
                " of host-visible memory, in %" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT
                " bytes allocated from the driver",
                device.index(), guint64(held.device_local.load()), guint64(held.host_visible.load()),
                guint64(held.allocated_device_local.load()), guint64(held.allocated_host_visible.load()));
  return text;
}

Buffer::~Buffer() {
  if (held_) *held_ -= allocated_;
  if (exported_) device_->memory_held().allocated_device_local -= allocated_;
  if (*buffer_) device_->note_released();  // recorded commands may name it (commands.hpp)
  {
    std::unique_lock<std::shared_mutex> destroying(device_->destroy_lock());
    buffer_ = nullptr;  // before its memory goes back to the block
  }
  if (range_ && device_->blocks().free(range_)) BlockDrain::drain_blocks_later(device_);
  if (held_)
    GST_DEBUG("freed %" G_GUINT64_FORMAT " bytes of %s memory; %s", guint64(allocated_),
              held_ == &device_->memory_held().device_local ? "device-local" : "host-visible",
              holdings(*device_).c_str());
}

std::unique_ptr<Buffer> Buffer::create_host(std::shared_ptr<Device> device, vk::DeviceSize size,
                                            const char* name) {
  using M = vk::MemoryPropertyFlagBits;
  auto buffer = allocate(std::move(device), size, M::eHostVisible | M::eHostCoherent, M::eHostCached, name);
  // Vulkan leaves new memory undefined. Zeroed once here, the bytes no kernel writes (row
  // padding, gaps between planes) read the same in every run, and nothing of what the memory
  // held before leaks into a frame.
  std::memset(buffer->mapped_, 0, buffer->size_);
  return buffer;
}

std::unique_ptr<Buffer> Buffer::create_device(std::shared_ptr<Device> device, vk::DeviceSize size,
                                              const char* name) {
  // Software devices (lavapipe) have no device-local type apart from host memory, which is fine.
  return allocate(std::move(device), size, {}, vk::MemoryPropertyFlagBits::eDeviceLocal, name);
}

std::unique_ptr<Buffer> Buffer::import_host(std::shared_ptr<Device> device, const void* data,
                                            vk::DeviceSize size, const char* name, std::string& error) {
  const Device& dev = *device;
  if (!dev.features().host_pointer_import) {
    error = "the device lacks VK_EXT_external_memory_host";
    return nullptr;
  }
  const vk::DeviceSize align = dev.features().host_pointer_alignment;
  // Pages are the unit of mapping, so the whole pages around [data, data + size) are mapped too.
  auto first = uintptr_t(data) / align * align;
  auto length = round_up(uintptr_t(data) + size, align) - first;
  void* base = reinterpret_cast<void*>(first);

  const auto handle_type = vk::ExternalMemoryHandleTypeFlagBits::eHostAllocationEXT;
  vk::MemoryHostPointerPropertiesEXT host_props;
  try {
    host_props = dev.device().getMemoryHostPointerPropertiesEXT(handle_type, base);
  } catch (const vk::SystemError& e) {
    error = std::string("the driver refuses this host pointer: ") + e.what();
    return nullptr;
  }

  std::unique_ptr<Buffer> buffer(new Buffer(std::move(device), length));
  vk::ExternalMemoryBufferCreateInfo external{.handleTypes = handle_type};
  buffer->buffer_ = vk::raii::Buffer(dev.device(), buffer_info(dev, length, &external));
  auto needs = buffer->buffer_.getMemoryRequirements();
  int type = dev.find_memory_type(needs.memoryTypeBits & host_props.memoryTypeBits, {},
                                  vk::MemoryPropertyFlagBits::eHostCoherent);
  if (type < 0 || needs.size > length) {
    error = "no memory type can import this host pointer";
    return nullptr;
  }
  vk::ImportMemoryHostPointerInfoEXT import{.handleType = handle_type, .pHostPointer = base};
  try {
    buffer->memory_ = vk::raii::DeviceMemory(
        dev.device(), vk::MemoryAllocateInfo{
                          .pNext = &import, .allocationSize = length, .memoryTypeIndex = uint32_t(type)});
  } catch (const vk::SystemError& e) {
    error = std::string("importing the host pointer failed: ") + e.what();
    return nullptr;
  }
  buffer->buffer_.bindMemory(*buffer->memory_, 0);
  buffer->mapped_ = static_cast<uint8_t*>(base);
  dev.set_name(*buffer->buffer_, name);
  // Each import pins the pages in the driver, and freeing it unpins them: dear enough to be seen.
  GST_DEBUG("imported %s: %" G_GUINT64_FORMAT " bytes of host memory at %p on Vulkan device %d", name,
            guint64(length), base, dev.index());
  return buffer;
}

std::unique_ptr<Buffer> Buffer::create_exported(std::shared_ptr<Device> device, vk::DeviceSize size,
                                                const char* name, std::string& error) {
  const Device& dev = *device;
  if (!dev.features().memory_fd_export) {
    error = "the Vulkan device lacks VK_KHR_external_memory_fd";
    return nullptr;
  }
  const auto handle_type = vk::ExternalMemoryHandleTypeFlagBits::eOpaqueFd;
  std::unique_ptr<Buffer> buffer(
      new Buffer(std::move(device), round_up(std::max<vk::DeviceSize>(size, 4), 4)));
  vk::ExternalMemoryBufferCreateInfo external{.handleTypes = handle_type};
  buffer->buffer_ = vk::raii::Buffer(dev.device(), buffer_info(dev, buffer->size_, &external));
  auto needs = buffer->buffer_.getMemoryRequirements();
  const int type = dev.find_memory_type(needs.memoryTypeBits, {}, vk::MemoryPropertyFlagBits::eDeviceLocal);
  if (type < 0) {
    error = "no memory type can hold an exported buffer";
    return nullptr;
  }
  // Memory of its own, dedicated to the buffer: what an importer maps is then the buffer, at offset 0.
  vk::MemoryDedicatedAllocateInfo dedicated{.buffer = *buffer->buffer_};
  vk::ExportMemoryAllocateInfo export_info{.pNext = &dedicated, .handleTypes = handle_type};
  try {
    buffer->memory_ =
        vk::raii::DeviceMemory(dev.device(), vk::MemoryAllocateInfo{.pNext = &export_info,
                                                                    .allocationSize = needs.size,
                                                                    .memoryTypeIndex = uint32_t(type)});
  } catch (const vk::SystemError& e) {
    error = std::string("allocating exportable memory failed: ") + e.what();
    return nullptr;
  }
  buffer->buffer_.bindMemory(*buffer->memory_, 0);
  buffer->exported_ = true;
  dev.set_name(*buffer->buffer_, name);
  MemoryHeld& held = dev.memory_held();
  buffer->held_ = &held.device_local;
  buffer->allocated_ = needs.size;
  *buffer->held_ += needs.size;
  held.allocated_device_local += needs.size;  // from the driver, for this buffer alone
  GST_DEBUG("allocated %s: %" G_GUINT64_FORMAT " bytes of exportable device-local memory; %s", name,
            guint64(needs.size), holdings(dev).c_str());
  return buffer;
}

int Buffer::export_fd(std::string& error) const {
  if (!exported_) {
    error = "the buffer was not made to be exported";
    return -1;
  }
  try {
    return device_->device().getMemoryFdKHR(vk::MemoryGetFdInfoKHR{
        .memory = *memory_, .handleType = vk::ExternalMemoryHandleTypeFlagBits::eOpaqueFd});
  } catch (const vk::SystemError& e) {
    error = std::string("exporting the memory failed: ") + e.what();
    return -1;
  }
}

}  // namespace vkc
