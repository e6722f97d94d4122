#include "sync_file.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

namespace vkc {

SyncFile::~SyncFile() {
  close(fd_);
}

bool SyncFile::wait(uint64_t timeout_ns) const {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::nanoseconds(timeout_ns);
  pollfd file{.fd = fd_, .events = POLLIN, .revents = 0};
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - clock::now()).count();
    const timespec timeout{.tv_sec = time_t(std::max<int64_t>(left, 0) / 1'000'000'000),
                           .tv_nsec = long(std::max<int64_t>(left, 0) % 1'000'000'000)};
    const int ready = ppoll(&file, 1, &timeout, nullptr);
    if (ready > 0) return true;  // POLLIN, or POLLERR for a fence signalled with an error
    if (ready == 0 || errno != EINTR) return false;
  }
}

}  // namespace vkc
