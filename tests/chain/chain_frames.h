// What the chain tests (test_chain, test_chain_lifecycle) and test_many_streams share: seeded random
// frames in, the visible bytes of frames out, and which memory the buffers on a pad are in.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <atomic>
#include <random>
#include <string>
#include <vector>

namespace chaintest {

constexpr GstClockTime kTimeout = 120 * GST_SECOND;
inline const char* const kFeature = "memory:VkComputeDevice";
inline const char* const kDeviceMemory = "VkComputeDeviceMemory";

// lut with the test data's lookup image.
std::string Lut();

// A frame of seeded random bytes, timestamped as frame `n` of a 30 frames/s stream.
GstBuffer* RandomFrame(std::mt19937& rng, const GstVideoInfo& info, guint n);

// Pushes `count` frames (RandomFrame(), seeded by the seed named `seed_name`) into the appsrc
// `src`, then EOS.
void PushRandomFrames(GstElement* src, const GstVideoInfo& info, const std::string& seed_name, guint count);

// The visible bytes of a frame, row by row (strides may differ between runs).
std::string VisibleBytes(GstSample* sample);

// Pulls `count` frames from the appsink `sink` (their visible bytes), expects EOS after them, then
// stops the pipeline and drops it, its appsrc `src` and `sink`.
std::vector<std::string> PullAllAndStop(GstElement* pipeline, GstElement* src, GstElement* sink, guint count,
                                        const std::string& description);

// Messages ("source: structure", vktest::DescribeElementMessage()) grouped by their source, each
// source's in the order posted: the elements of a chain post from different threads, so only
// each element's own order is fixed.
void GroupBySource(std::vector<std::string>& messages);

// Counts the buffers that pass a pad, and those of them in device memory.
struct MemoryCount {
  std::atomic<int> buffers{0}, in_device{0};
};

// Adds a probe to `element`'s pad `pad_name` that counts into `count` (which must outlive it).
void CountMemoryAt(GstElement* element, const char* pad_name, MemoryCount* count);

}  // namespace chaintest
