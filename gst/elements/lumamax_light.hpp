// lumamax's HDR light statistics: for frames whose caps' transfer is SMPTE ST 2084 (PQ) or ARIB
// STD-B67 (HLG), each region's largest and mean displayed light, in cd/m², and the stream's
// MaxCLL and MaxFALL (CTA-861.3). The kernel (shaders/lumamax_light.comp) writes a partial per
// tile of each region; the meter reduces them once the frame is done.
#pragma once

#include <gst/video/video.h>

#include <array>
#include <memory>
#include <vector>

#include "base/frame.hpp"
#include "base/operation.hpp"
#include "base/regions.hpp"
#include "light_layout.h"
#include "vk/device.hpp"
#include "vk/kernel.hpp"
#include "vk/readback.hpp"

namespace vkc::lumamax {

// A region's light in one frame.
struct Light {
  double max = 0;      // the largest max(R, G, B) of its pixels, cd/m²
  double average = 0;  // the mean of max(R, G, B), cd/m²
};

class LightMeter {
 public:
  // The meter for frames of `in`, or null when its transfer is neither PQ nor HLG.
  static std::unique_ptr<LightMeter> create(const std::shared_ptr<Device>& device, const GstVideoInfo& in);

  // Records the kernel over `regions` of `frame` (its input staged with every plane) and the copy
  // of the partials for the CPU. False, with `error`, when the partials would not fit a storage
  // buffer of the device.
  bool record(Frame& frame, const std::vector<const FrameRegion*>& regions, GError** error);

  // Region `i` of the frame recorded last in `slot`, once that frame is done.
  Light result(uint32_t slot, guint i) const;

 private:
  struct Slot {
    std::unique_ptr<Readback> partials;
    guint64 room = 0;             // tiles the partials hold
    guint64 tiles = 0;            // the frame's tiles
    std::vector<uint32_t> first;  // each region's first tile
    std::vector<guint64> pixels;  // each region's pixels
  };

  LightMeter(const std::shared_ptr<Device>& device, const GstVideoInfo& in, uint32_t transfer);

  std::shared_ptr<Device> device_;
  std::unique_ptr<Kernel> kernel_;
  shader::light::LightParams params_{};      // the frame's layout and the region filled per dispatch
  uint32_t plane_[3] = {}, within_[3] = {};  // each component's plane and byte in a pixel
  std::array<Slot, kVkComputeFramesInFlight> slots_;
};

// The stream's content light level (CTA-861.3) since it started or was flushed: MaxCLL, the
// largest max-light, and MaxFALL, the largest average-light of its frames.
struct ContentLight {
  double max_cll = 0;
  double max_fall = 0;
  void add(const Light& frame) {
    max_cll = frame.max > max_cll ? frame.max : max_cll;
    max_fall = frame.average > max_fall ? frame.average : max_fall;
  }
};

}  // namespace vkc::lumamax
