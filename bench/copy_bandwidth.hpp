// The device's copy bandwidth between host memory and its own memory (vkCmdCopyBuffer, GPU time
// from timestamp queries): what a kernel that streams a frame in from the host and out again can
// at best approach.
#pragma once

#include <string>

namespace bench {

struct CopyBandwidth {
  std::string device;
  double host_to_device_gbs = 0;  // GB/s (1e9 bytes)
  double device_to_host_gbs = 0;
  // Both directions at once (two copies with nothing ordering them), bytes of both per second:
  // what a kernel that reads its input and writes its output concurrently could reach.
  double both_ways_gbs = 0;
  std::string error;  // set when it could not be measured
};

CopyBandwidth measure_copy_bandwidth();

}  // namespace bench
