// The most of something in use at once lately: in the current window of kWindowNs and the one before.
// What a stream's frames and copies are kept by, when giving memory back is on (enabled()): a burst
// (every stream of a process starting at once, the GPU falling behind for a moment) grows them, and
// what it grew goes once the stream has run steadily for one to two windows, while what a steady
// stream uses is never given back between two of its frames.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace vkc {

class RecentPeak {
 public:
  static constexpr int64_t kWindowNs = 1'000'000'000;

  // The count is `in_use` from `now_ns` (monotonic) on.
  void note(uint32_t in_use, int64_t now_ns) {
    if (now_ns - window_start_ns_ >= kWindowNs) {
      // Between two notes the count stayed at the last one: windows with no note in them saw only it.
      previous_ = now_ns - window_start_ns_ < 2 * kWindowNs ? peak_ : last_;
      peak_ = last_;
      window_start_ns_ = now_ns;
    }
    peak_ = std::max(peak_, in_use);
    last_ = in_use;
  }

  // How many to keep: the most in use at once in this window and the one before; everything ever
  // made when giving back is off (enabled()).
  uint32_t keep() const { return enabled() ? std::max(peak_, previous_) : UINT32_MAX; }

  // On unless GST_VKCOMPUTE_TRIM=0. It was off while 64 to 120 live five-element chains on the lent
  // H200 stopped for good now and then with it on (docs/benchmarks.md, runs 15-18): the stop was a
  // GPU stall at the start that came without it too (the lut table's copy on the compute queue;
  // none in 53 starts since that moved, runs 32-42).
  static bool enabled() {
    static const bool on = [] {
      const char* value = std::getenv("GST_VKCOMPUTE_TRIM");
      return !value || std::strcmp(value, "0") != 0;
    }();
    return on;
  }

 private:
  uint32_t peak_ = 0;      // in the current window
  uint32_t previous_ = 0;  // in the one before
  uint32_t last_ = 0;      // the count now
  int64_t window_start_ns_ = 0;
};

}  // namespace vkc
