// What the tests of unusable table files need: the error a pipeline starting on one posts, the
// peak memory reading it cost, and a watchdog that frees a thread stuck opening a FIFO.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

namespace lut_test {

// The message of the RESOURCE error that a short pipeline with lut location=`location` (and
// `properties`, e.g. "png-kind=hald") posts; fails the test when there is none within 10 s or it
// is of another domain.
std::string StartErrorMessage(const std::string& location, const std::string& properties = "");

// This process's peak resident memory (VmHWM), reset when constructed.
class PeakMemory {
 public:
  PeakMemory();
  // How far the peak rose above the resident memory at construction.
  size_t GrowthBytes() const;

 private:
  size_t baseline_kb_;
};

// Unblocks a reader stuck opening `fifo` (by opening it for writing, then closing it) if the
// test has not ended after `seconds`: a test of a hang fails instead of hanging.
class FifoWatchdog {
 public:
  FifoWatchdog(std::string fifo, int seconds);
  ~FifoWatchdog();
  // Whether the watchdog had to unblock a reader.
  bool Fired();

 private:
  std::string fifo_;
  std::mutex lock_;
  std::condition_variable wake_;
  bool done_ = false, fired_ = false;  // lock_
  std::thread thread_;
};

}  // namespace lut_test
