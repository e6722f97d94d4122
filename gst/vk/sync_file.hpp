// A fence's completion as a Linux sync file (VK_KHR_external_fence_fd, SYNC_FD handles), so that
// a thread waiting for the GPU sleeps in the kernel until the fence's interrupt wakes it.
// Drivers' own fence waits may spin first (NVIDIA's does, for tens of microseconds of CPU per
// wait), which costs more CPU than a frame's whole submission when frames take 200 us.
#pragma once

#include <cstdint>

namespace vkc {

class SyncFile {
 public:
  explicit SyncFile(int fd) : fd_(fd) {}
  SyncFile(const SyncFile&) = delete;
  SyncFile& operator=(const SyncFile&) = delete;
  ~SyncFile();

  // True once the fence has signalled; false if it has not within `timeout_ns` (0: no wait).
  bool wait(uint64_t timeout_ns) const;

 private:
  int fd_;
};

}  // namespace vkc
