// The elements' own kernels (lumamax's scan, histogram, rgb2yuv RGBA to NV12, lut) outside their
// elements, on a device-resident frame, with the push constants their elements give them for a
// whole RGBA frame: their GPU time with nothing else around them (bench/kernel_floor.cpp).
#pragma once

#include <memory>

#include "timed_work.hpp"
#include "vk/device.hpp"

namespace bench {

// Times and prints each kernel on the w x h RGBA frame in `src` (rgb2yuv writes `dst`), with
// `before` recorded ahead of each (see time_submissions()), `context` ending each line.
void print_element_kernels(const std::shared_ptr<vkc::Device>& device, vkc::CommandRing& ring, uint32_t w,
                           uint32_t h, vk::Buffer src, vk::Buffer dst, const Recorder& before,
                           const char* context);

// Times histogram's and lut's kernels on frames of different content (random, random colours
// with alpha 255, smooth, one colour), with fewer values counted (histogram) and each
// interpolation (lut): what their time depends on.
void print_content_lab(const std::shared_ptr<vkc::Device>& device, vkc::CommandRing& ring, uint32_t w,
                       uint32_t h);

}  // namespace bench
