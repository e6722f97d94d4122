#include "copy_bandwidth.hpp"

#include <algorithm>
#include <utility>
#include <vector>

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
    auto host = vkc::Buffer::create_host(device, 2 * kBytes, "bench host");
    auto local = vkc::Buffer::create_device(device, 2 * kBytes, "bench device");
    vkc::CommandRing ring(device, 1, "bench copies", 1);  // every copy timed
    // Best of several copies each way: the link's capacity, not scheduling noise.
    // Best of several runs: the link's capacity, not scheduling noise. `copies` are recorded with
    // no barrier between them, so the GPU may run them at once.
    auto best_gbs = [&](const std::vector<std::pair<vk::Buffer, vk::Buffer>>& copies) {
      double best_ns = 0;
      for (int i = 0; i < 5; ++i) {
        vkc::Commands cmd = ring.begin(0);
        ring.start_timing(0);
        for (vk::DeviceSize k = 0; k < copies.size(); ++k)
          cmd.copyBuffer(copies[k].first, copies[k].second,
                         vk::BufferCopy{.srcOffset = k * kBytes, .dstOffset = k * kBytes, .size = kBytes});
        ring.submit(0);
        ring.wait(0, 10'000'000'000ull);
        const double ns = ring.gpu_time_ns(0);
        if (ns > 0 && (best_ns == 0 || ns < best_ns)) best_ns = ns;
      }
      return best_ns > 0 ? double(copies.size() * kBytes) / best_ns : 0.0;
    };
    const vk::Buffer h = host->handle(), d = local->handle();
    result.host_to_device_gbs = best_gbs({{h, d}});
    result.device_to_host_gbs = best_gbs({{d, h}});
    // The second copy uses the other halves, so the two do not touch the same bytes.
    result.both_ways_gbs = best_gbs({{h, d}, {d, h}});
  } catch (const std::exception& e) {
    result.error = e.what();
  }
  return result;
}

}  // namespace bench
