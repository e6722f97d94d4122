#include "copy_bandwidth.hpp"

#include <algorithm>

#include "vk/memory.hpp"
#include "vk/submit.hpp"

namespace bench {

CopyBandwidth measure_copy_bandwidth() {
  CopyBandwidth result;
  std::string error;
  auto device = vkc::Device::acquire(-1, error);
  if (!device) {
    result.error = error;
    return result;
  }
  result.device = device->name();
  try {
    constexpr vk::DeviceSize kBytes = 256ull << 20;
    auto host = vkc::Buffer::create_host(device, kBytes, "bench host");
    auto local = vkc::Buffer::create_device(device, kBytes, "bench device");
    vkc::CommandRing ring(device, 1, "bench copies");
    // Best of several copies each way: the link's capacity, not scheduling noise.
    auto best_gbs = [&](vk::Buffer from, vk::Buffer to) {
      double best_ns = 0;
      for (int i = 0; i < 5; ++i) {
        vk::CommandBuffer cmd = ring.begin(0);
        cmd.copyBuffer(from, to, vk::BufferCopy{.size = kBytes});
        ring.submit(0);
        ring.wait(0, 10'000'000'000ull);
        const double ns = ring.gpu_time_ns(0);
        if (ns > 0 && (best_ns == 0 || ns < best_ns)) best_ns = ns;
      }
      return best_ns > 0 ? double(kBytes) / best_ns : 0.0;
    };
    result.host_to_device_gbs = best_gbs(host->handle(), local->handle());
    result.device_to_host_gbs = best_gbs(local->handle(), host->handle());
  } catch (const std::exception& e) {
    result.error = e.what();
  }
  return result;
}

}  // namespace bench
