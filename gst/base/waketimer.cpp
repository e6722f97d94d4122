#include "waketimer.hpp"

#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <system_error>

namespace vkc {

WakeTimer::WakeTimer() : fd_(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC)) {
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "timerfd_create");
}

WakeTimer::~WakeTimer() {
  close(fd_);
}

void WakeTimer::set(Clock::time_point when) {
  itimerspec spec{};  // zero: disarmed
  if (when != Clock::time_point::max()) {
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(when.time_since_epoch()).count();
    // A moment passed (or 0, which would disarm) fires at once: 1 ns after the clock's start.
    const int64_t at = ns > 0 ? ns : 1;
    spec.it_value.tv_sec = time_t(at / 1'000'000'000);
    spec.it_value.tv_nsec = long(at % 1'000'000'000);
  }
  // Setting the timer also clears an expiry not read yet: a sleeper then waits for the new moment.
  timerfd_settime(fd_, TFD_TIMER_ABSTIME, &spec, nullptr);
}

void WakeTimer::sleep() {
  uint64_t expiries;
  while (read(fd_, &expiries, sizeof(expiries)) < 0 && errno == EINTR) {
  }
}

}  // namespace vkc
