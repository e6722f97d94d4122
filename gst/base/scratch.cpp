#include "scratch.hpp"

#include <map>
#include <mutex>
#include <tuple>

namespace vkc {

SharedScratch::SharedScratch(const std::shared_ptr<Device>& device, const char* name, vk::DeviceSize bytes,
                             uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) buffers_.push_back(Buffer::create_device(device, bytes, name));
}

std::shared_ptr<const SharedScratch> SharedScratch::get(const std::shared_ptr<Device>& device,
                                                        const char* name, vk::DeviceSize bytes,
                                                        uint32_t count) {
  using Key = std::tuple<const Device*, std::string, vk::DeviceSize, uint32_t>;
  static std::mutex lock;
  static std::map<Key, std::weak_ptr<const SharedScratch>> shared;
  std::lock_guard<std::mutex> guard(lock);
  // Entries whose holders all let go: their buffers are gone, and a device opened later at the
  // same address must not find them.
  for (auto it = shared.begin(); it != shared.end();) it = it->second.expired() ? shared.erase(it) : ++it;
  auto& entry = shared[Key{device.get(), name, bytes, count}];
  auto scratch = entry.lock();
  if (!scratch) {
    scratch = std::make_shared<const SharedScratch>(device, name, bytes, count);
    entry = scratch;
  }
  return scratch;
}

}  // namespace vkc
