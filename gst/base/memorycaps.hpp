// Caps and negotiation of the two memories a vkcompute pad offers: device-local memory
// (memory:VkComputeDevice, between two elements of ours on one device) and system memory
// (everywhere else). docs/design.md, "Frames in device memory between our elements", says why.
#pragma once

#include <gst/gst.h>

// The caps feature of frames in VkComputeDeviceMemory (vkmemory.hpp). Our own name: the memory is
// not libgstvulkan's GstVulkanBufferMemory, which memory:VulkanBuffer promises.
#define GST_CAPS_FEATURE_MEMORY_VKCOMPUTE_DEVICE "memory:VkComputeDevice"

namespace vkc {

// Whether `features` name device memory explicitly (ANY does not).
bool features_in_device_memory(const GstCapsFeatures* features);
// Whether fixed `caps` (their first structure) are in device memory.
bool caps_in_device_memory(GstCaps* caps);

// Whether `buffer` is one memory of device memory (VkComputeDeviceMemory, of any device).
bool in_device_memory(GstBuffer* buffer);
// Whether fixed `a` and `b` describe the same frames, whatever memory each is in.
bool same_frames(GstCaps* a, GstCaps* b);

// Every structure of `caps`, first in device memory, then in system memory (new caps).
GstCaps* in_both_memories(GstCaps* caps);
// Every structure of `caps` in system memory (new caps).
GstCaps* in_system_memory(GstCaps* caps);
// Takes `caps` and returns their structures in device memory (`device`) or in system memory, or
// `caps` unchanged when none is.
GstCaps* keep_memory(GstCaps* caps, bool device);

// Whether the element behind `src`'s peer is one of ours on the device `device_index`, so frames
// may stay in device memory on the link: its unfiltered caps list memory:VkComputeDevice
// explicitly (stock elements that take anything answer ANY), and it answers the device query
// (answer_device_query()) with that index, or does not answer it (a tee forwards it to one
// branch at most).
bool peer_takes_device_memory(GstPad* src, int device_index);

// Answers the device query with `device_index`; false when `query` is not the device query.
bool answer_device_query(GstQuery* query, int device_index);

}  // namespace vkc
