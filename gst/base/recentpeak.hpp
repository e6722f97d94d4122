// The most of something in use at once lately: in the current window of kWindowNs and the ones
// before, two at first. What a stream's frames and copies are kept by: a burst (every stream of a process
// starting at once, the GPU falling behind for a moment) grows them, and what it grew goes once the stream
// has run steadily for the windows remembered, while what a steady stream uses is never given back between
// two of its frames.
//
// A stream whose bursts come back (a late source catching up again and again) would give back and
// make again at every one: on the lent H200, 400 live NV12 streams knocked late by a 3 s CPU hog
// stayed late for good, their pools freeing and making 840 frames a second, each new frame zeroed
// and filled again (docs/benchmarks.md). So something made again within the windows remembered
// after a give-back doubles them (up to kMaxWindows): a stream whose bursts come back that soon keeps
// their frames after a few of them. Bursts further apart are still given back between them: making a
// few frames again now and then costs little; the start of 400 streams, when the windows grew with
// any make within 32 s of a give-back, held 6-7 MiB per stream 25 s in instead of 3 (run 82).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

namespace vkc {

class RecentPeak {
 public:
  static constexpr int64_t kWindowNs = 1'000'000'000;
  static constexpr uint32_t kMaxWindows = 32;

  // The count is `in_use` from `now_ns` (monotonic) on.
  void note(uint32_t in_use, int64_t now_ns) {
    const int64_t passed = (now_ns - window_start_ns_) / kWindowNs;
    if (passed > 0) {
      // Between two notes the count stayed at the last one: windows with no note in them saw only it.
      close_window(peak_);
      for (int64_t i = 1; i < std::min<int64_t>(passed, kMaxWindows); i++) close_window(last_);
      peak_ = last_;
      window_start_ns_ = now_ns;
    }
    peak_ = std::max(peak_, in_use);
    last_ = in_use;
  }

  // How many to keep: the most in use at once in this window and the ones remembered before it.
  uint32_t keep() const {
    uint32_t most = peak_;
    for (uint32_t i = 1; i < windows_; i++)
      most = std::max(most, closed_[(next_ + kMaxWindows - i) % kMaxWindows]);
    return most;
  }

  // Something was given back at `now_ns` (more was made than keep()).
  void gave_back(int64_t now_ns) { gave_back_ns_ = now_ns; }
  // Something was made at `now_ns`: within the windows remembered after a give-back, they double.
  void made(int64_t now_ns) {
    if (gave_back_ns_ >= 0 && now_ns - gave_back_ns_ < int64_t(windows_) * kWindowNs)
      windows_ = std::min(2 * windows_, kMaxWindows);
    gave_back_ns_ = -1;
  }
  // How many windows keep() looks at: 2 until bursts came back.
  uint32_t windows() const { return windows_; }

 private:
  void close_window(uint32_t peak) {
    closed_[next_] = peak;
    next_ = (next_ + 1) % kMaxWindows;
  }

  uint32_t peak_ = 0;                           // in the current window
  std::array<uint32_t, kMaxWindows> closed_{};  // the windows before, a ring: the last at next_ - 1
  uint32_t next_ = 0;
  uint32_t windows_ = 2;  // remembered, with the current one
  uint32_t last_ = 0;     // the count now
  int64_t window_start_ns_ = 0;
  int64_t gave_back_ns_ = -1;  // the last give-back not yet followed by a make, or -1
};

}  // namespace vkc
