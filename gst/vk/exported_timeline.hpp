// A timeline semaphore that another API signals (CUDA: cuImportExternalSemaphore with the file
// descriptor of export_fd(), then cuSignalExternalSemaphoresAsync): the other API's work that
// writes a buffer signals the next value, and the Vulkan work that reads the buffer waits for it
// (CommandRing::wait_before()), with no CPU wait between them.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "device.hpp"

namespace vkc {

class ExportedTimeline {
 public:
  // Null with `error` set when the device cannot export semaphores
  // (DeviceFeatures::semaphore_fd_export) or the driver fails.
  static std::unique_ptr<ExportedTimeline> create(std::shared_ptr<Device> device, const char* name,
                                                  std::string& error);

  vk::Semaphore semaphore() const { return *semaphore_; }
  // A new file descriptor of the semaphore, which the caller owns (an import takes it); -1 with
  // `error` set when the driver fails.
  int export_fd(std::string& error) const;
  // The value for the next piece of work that signals the semaphore: one more than the last.
  uint64_t next_value() { return ++issued_; }
  // The semaphore's value now. Throws vk::DeviceLostError.
  uint64_t counter() const { return semaphore_.getCounterValue(); }
  // Signals, from the CPU, the last value next_value() gave, when the other API will signal nothing
  // more (its context is lost): Vulkan work that waits for a value it would have signalled runs
  // instead of holding the queue it waits on (every stream of the device) forever. Only then: a
  // signal of the other API's after it would go backwards. (The other API's signals it will never
  // run stay pending as far as it knows; Vulkan cannot see them.) Threads may call it at once. False
  // with `error` set when the driver fails.
  bool release(std::string& error);

 private:
  explicit ExportedTimeline(std::shared_ptr<Device> device) : device_(std::move(device)) {}

  std::shared_ptr<Device> device_;
  vk::raii::Semaphore semaphore_ = nullptr;
  std::atomic<uint64_t> issued_{0};
  std::mutex releasing_;  // release()'s look at the counter and its signal, one thread at a time
};

}  // namespace vkc
