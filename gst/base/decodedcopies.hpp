// Frames of GStreamer's Vulkan decoders that reach an element of ours through a thread of their own
// (`vulkanh264dec ! queue ! lumamax`). Such a decoder keeps using the frames it gave out as its
// references, and reads and stores their images' state (layout, timeline value) on its streaming
// thread, unlocked: a reader on another thread that takes its turn on that state races the decoder
// for it (the same value signalled twice, a wait for a value no one signals: a hang, as GStreamer's own
// `vulkanh264dec ! queue ! vulkandownload` shows). So each frame is copied where the decoder's thread
// is, in a buffer probe on its source pad: into device-local memory of GStreamer's device, after the
// point the decoder stored, and waited for there, the images left in the layout and at the point the
// decoder stored (it never learns of the copy: its next work on them starts once the wait is over); the
// copy rides on the frame as a meta (carried onto copies of the frame, dropped when it goes back to
// the decoder's pool), and our elements on that device read it and leave the images alone.
// The copy costs one submission and wait on the decoder's thread and a device copy (0.2 ms per 1080p
// frame, lent H200); with no thread between the decoder and us there is no copy.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include <vulkan/vulkan.h>

#include <memory>

#include "gstvk/library.hpp"
#include "vk/device.hpp"

namespace vkc {

// At `element`'s allocation query (which comes before a decoder's frames, on its thread): whether its
// frames come from a Vulkan decoder of GStreamer's (through elements of one sink pad). When they come
// through another thread, the decoder's frames are copied from then on as they leave it, on the queue
// object whose lock the element's `device` (GStreamer's, adopted) takes to submit (deviceshare.hpp),
// so that the copies and our elements' work never submit on that VkQueue at once; once per decoder
// source pad, for its lifetime.
bool take_decoded_frames(GstElement* element, const std::shared_ptr<const Device>& device);

// The frames a Vulkan decoder's pool is asked to make up front when its frames reach our elements (the
// least number of buffers in its allocation query): GStreamer's image pool gives each new image its
// first layout on a queue object of its own, on the queue we submit on, whose lock no one else takes,
// on the decoder's thread; a pool that grows while an element of ours submits from another thread
// (behind a queue, right after the decoder or after more of ours) races it (lost devices: 32 H.265
// streams behind queues on the lent H200, in the first second, as the pools grew). Enough for the
// decoder's references (16 at most) and the frames on their way through a queue and our elements.
constexpr guint kDecodedFramesUpFront = 32;

// The copy of a decoded frame: a GstVulkanBufferMemory of the decoder's device, and the planes'
// offsets and strides in it (VulkanBridge::record_read()'s layout).
struct DecodedCopy {
  GstMemory* memory = nullptr;        // a reference
  GstVulkanDevice* device = nullptr;  // the memory's
  VkBuffer buffer = VK_NULL_HANDLE;
  gsize offsets[GST_VIDEO_MAX_PLANES] = {};
  gsize strides[GST_VIDEO_MAX_PLANES] = {};
};
// The copy made of `buffer`'s images as its decoder pushed it, on `device`; null when there is none.
const DecodedCopy* decoded_copy(GstBuffer* buffer, GstVulkanDevice* device);

}  // namespace vkc
