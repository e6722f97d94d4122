// Caps and negotiation of the two memories a vkcompute pad offers: device-local memory
// (memory:VkComputeDevice, between two elements of ours on one device) and system memory
// (everywhere else). docs/design.md, "Frames in device memory between our elements", says why.
#pragma once

#include <gst/gst.h>

// The caps feature of frames in VkComputeDeviceMemory (vkmemory.hpp). Our own name: the memory is
// not libgstvulkan's GstVulkanBufferMemory, which memory:VulkanBuffer promises.
#define GST_CAPS_FEATURE_MEMORY_VKCOMPUTE_DEVICE "memory:VkComputeDevice"

// GStreamer's caps features of its Vulkan elements' frames (gst/vulkan/gstvkimagememory.h and
// gstvkbuffermemory.h, whose headers we do not build with).
#define GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE "memory:VulkanImage"
#define GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER "memory:VulkanBuffer"

namespace vkc {

// Whether `features` name device memory explicitly (ANY does not).
bool features_in_device_memory(const GstCapsFeatures* features);
// Whether fixed `caps` (their first structure) are in device memory.
bool caps_in_device_memory(GstCaps* caps);
// Whether fixed caps are in GStreamer's Vulkan buffer memory (memory:VulkanBuffer).
bool caps_in_vulkan_buffer_memory(GstCaps* caps);

// Whether `buffer` is one memory of device memory (VkComputeDeviceMemory, of any device).
bool in_device_memory(GstBuffer* buffer);
// Whether fixed `a` and `b` describe the same frames, whatever memory each is in.
bool same_frames(GstCaps* a, GstCaps* b);

// Every structure of `caps`, first in device memory, then in system memory (new caps).
GstCaps* in_both_memories(GstCaps* caps);

// Adds always-pad templates "sink" and "src" to `klass`: the caps strings' structures, each in both
// memories and, those of formats it holds, in GStreamer's CUDA memory (memory:CUDAMemory), which
// every element reads and writes (gst/base/cudaframes.hpp), and in GStreamer's Vulkan memories as
// `vulkan` says: an analysis passes such frames on (both memories on both pads), a filter takes them
// in (both on the sink pad) and writes images (memory:VulkanImage on the src pad).
enum class VulkanMemoryOn { kImagesOut, kBothPads };
void add_pad_templates(GstElementClass* klass, const char* sink_caps, const char* src_caps,
                       VulkanMemoryOn vulkan);

// The structures of `formats` whose format GStreamer's Vulkan elements hold in an image of a plain
// texel per plane, in memory:VulkanImage and in memory:VulkanBuffer (new caps).
GstCaps* in_vulkan_memory(GstCaps* formats);
// The same in memory:VulkanImage only: what a filter writes (new caps).
GstCaps* in_vulkan_image_memory(GstCaps* formats);
// The structures of `caps` in GStreamer's Vulkan memories (new caps).
GstCaps* structures_in_vulkan_memory(GstCaps* caps);
// The structures of `caps` in neither GStreamer's CUDA memory nor its Vulkan memories (new caps).
GstCaps* structures_in_plain_memory(GstCaps* caps);

// The structures of `formats` whose format GStreamer's CUDA memory holds, in that memory (new caps).
GstCaps* in_cuda_memory(GstCaps* formats);

// The structures of `caps` in GStreamer's CUDA memory (`cuda`), or all the others (new caps).
GstCaps* structures_in_cuda_memory(GstCaps* caps, bool cuda);
// How many structures of `caps` are in GStreamer's CUDA memory.
guint structures_in_cuda_memory_count(GstCaps* caps);
// Takes `caps` and returns their structures in GStreamer's CUDA memory (`cuda`) or in the others, or
// `caps` unchanged when none is.
GstCaps* keep_cuda_memory(GstCaps* caps, bool cuda);
// Every structure of `caps` in system memory (new caps).
GstCaps* in_system_memory(GstCaps* caps);
// Takes `caps` and returns their structures in device memory (`device`) or in system memory, or
// `caps` unchanged when none is.
GstCaps* keep_memory(GstCaps* caps, bool device);

// The element whose sink pad the frames pushed on `src` enter (through the ghost pads of bins), or
// null when `src` is not linked. A new reference. From a sink pad: the element whose source pad
// feeds it.
GstElement* element_after(GstPad* src);

// Whether one of GStreamer's Vulkan elements (a pad template naming memory:VulkanImage or
// memory:VulkanBuffer) is next to `element`, upstream or downstream, through elements of one pad on
// that side (queues, capsfilters, ours): the elements whose device ours would share.
bool vulkan_element_near(GstElement* element);

// The source pad of the Vulkan decoder of GStreamer's (a video decoder whose pad template names
// memory:VulkanImage) whose frames reach `element`'s sink pad through elements of one sink pad (not
// through a filter of ours that makes frames of its own), a new reference, or null; `other_thread` says
// whether an element on the way pushes from a task of its own (a queue), so that the decoder's thread is not
// the element's.
GstPad* vulkan_decoder_upstream(GstElement* element, bool& other_thread);

// What the frames pushed on `src` meet first, through elements of one fixed source pad (queues,
// capsfilters, converters): an element of ours, an element whose source pads come and go (a tee:
// request or sometimes pads), or anything else (a sink, the end of the links).
// `device_index`, when given, is set to the device index that an element of ours downstream of `src`
// answered the device query with (the first the query reached, through any element), or -1.
enum class Downstream { kOurs, kFanOut, kOther };
Downstream downstream_of(GstPad* src, gint* device_index = nullptr);

// Whether the link from `src` may carry caps in device memory: the first element it meets
// (downstream_of()) is ours, on the device `device_index`, and the elements on the way take device
// memory. Not through a tee: a tee hands the caps of the moment to a branch linked later, whose
// converter may accept them first and refuse them in its queue's thread, where the refusal cannot be
// recovered; behind a tee the caps are in system memory (device_frames_behind_fan_out()).
bool peer_takes_device_memory(GstPad* src, int device_index);

// Whether frames pushed on `src` under caps in system memory are better in device memory: a tee
// comes first, and an element of ours on `device_index` is behind it (the device query goes to the
// tee's branches in turn). Our elements there bind the frames as they are; stock elements map them
// (a read back, vkmemory.hpp), as they would map frames of system memory.
bool device_frames_behind_fan_out(GstPad* src, int device_index);

// The device of the nearest element of ours next to `element` that runs on one or is set to one:
// upstream first (its frames come in that device's memory), else downstream; through any element
// that passes queries on (queues, capsfilters, converters, a tee). -1 when none answers.
gint device_of_neighbours(GstElement* element);

// Answers the device query for `element` with `device_index`; false when `query` is not the device
// query.
bool answer_device_query(GstQuery* query, GstElement* element, int device_index);

}  // namespace vkc
