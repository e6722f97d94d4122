// Frames in GStreamer's Vulkan image memory (memory:VulkanImage) on a GstVulkanDevice that our
// element does not run on: GStreamer 1.22's devices, which have no Vulkan feature and so cannot be
// shared, and, until our elements run on GStreamer's device, every release's. That device's GPU
// copies each frame into host-visible memory of its own (GStreamer's buffer memory), and the element
// reads that copy as a frame of system memory: imported in place where our device can
// (VK_EXT_external_memory_host), else copied once more by the CPU. The CPU never maps GStreamer's
// images. The copy follows GStreamer's protocol for its memory: from the stages, access and layout
// that the last writer stored in it, on GStreamer's queue under its submit lock, after its timeline
// semaphore's value from 1.24 (then signalled one higher), and the memory's new state stored after.
// The streaming thread waits for the copy (a fence), as GStreamer's vulkandownload waits for its own.
// On the device our element runs on (GStreamer's, adopted: deviceshare.hpp), an input frame is read
// on the GPU instead: the copy of its images into device memory of ours is recorded into the frame's
// own commands (record_read()), with no CPU wait and no host memory.
#pragma once

#include <gst/video/video.h>
#include <vulkan/vulkan.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "frame.hpp"
#include "gstvk/abi.hpp"
#include "gstvk/library.hpp"
#include "vk/device.hpp"

namespace vkc {

// Whether `buffer` holds GStreamer's image memory (its first memory: a frame is in one memory kind).
bool in_vulkan_image_memory(GstBuffer* buffer);

class VulkanBridge {
 public:
  // On the device of `buffer`'s images, for `slots` frames in flight at most, submitting on the queue
  // `queue_of` gives for that device (a new reference: the queue object the elements that made the
  // frame share, whose submit lock is theirs), else on one of the device's: null with `error` set when
  // that device has no queue to copy on or its objects cannot be made.
  using QueueOf = std::function<GstVulkanQueue*(GstVulkanDevice* device)>;
  static std::unique_ptr<VulkanBridge> make(GstBuffer* buffer, const QueueOf& queue_of, uint32_t slots,
                                            std::string& error);
  // Waits for the copy in progress, if any, and lets go of GStreamer's objects.
  ~VulkanBridge();
  VulkanBridge(const VulkanBridge&) = delete;
  VulkanBridge& operator=(const VulkanBridge&) = delete;

  // Whether `buffer`'s images are on this bridge's device.
  bool serves(GstBuffer* buffer) const;
  // `buffer` (an image per plane of `info`) copied into `slot`'s host memory, whose previous frame
  // has completed: a new buffer of that memory with a GstVideoMeta. Null with `error` naming the
  // fault (a memory of another kind or device, an image that cannot be read or is too small).
  GstBuffer* copy(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info, std::string& error);

  // On the device the element runs on, when it is this bridge's (adopted): records into `cmd`, the
  // frame's own commands, the copy of `buffer`'s images (an image per plane of `info`) into the device
  // memory that `target` gives for the bytes it needs, points `layout` at it, and stores the images' new
  // state (transfer read). `waits` gets the timeline points (GStreamer 1.24 and later) the frame's work
  // must wait for: the images' last users, on whatever queue; `signals` the points it signals once
  // done, one higher, which the images' next users wait for. False with `error` naming the fault.
  using Target = std::function<vk::Buffer(gsize bytes)>;
  bool record_read(Commands cmd, GstBuffer* buffer, const GstVideoInfo& info, const Target& target,
                   FrameLayout& layout, std::vector<std::pair<VkSemaphore, uint64_t>>& waits,
                   std::vector<std::pair<VkSemaphore, uint64_t>>& signals, std::string& error);

  // On the thread that made `buffer` (decodedcopies.hpp): its images (an image per plane of `info`)
  // copied into device-local memory that `memory_for` gives for the bytes they take (of this device:
  // device_memory()), and waited for, the images' state left as their maker stored it; `offsets` and
  // `strides` get the planes' place in it. The memory, a new reference, or null with `error` naming the
  // fault.
  using MemoryFor = std::function<GstMemory*(gsize bytes, std::string& error)>;
  GstMemory* copy_to_device(GstBuffer* buffer, const GstVideoInfo& info, const MemoryFor& memory_for,
                            gsize offsets[], gsize strides[], std::string& error);
  // Device-local memory of this device that our kernels read (a storage buffer) and copies fill:
  // GStreamer's buffer memory, a new reference, or null with `error` set.
  GstMemory* device_memory(gsize bytes, std::string& error) const;

  // Binds `buffer` (an image per plane of `info`, from GStreamer's pool) as `slot`'s output: the frame
  // is to be laid out as `offsets`, `strides` and `bytes` give (the slot's host memory's layout), and
  // copy_out() then moves it into the images; or, on the device the element runs on (`on_gpu`), the
  // frame's own commands do (record_write()). False with `error` naming the fault.
  bool bind_output(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info, bool on_gpu, gsize offsets[],
                   gsize strides[], gsize& bytes, std::string& error);
  // On the device the element runs on: records into `cmd`, after the frame's kernels, the copy of
  // `from` (device memory of ours, laid out as bind_output() said) into the images bound to `slot`,
  // and stores their new state (transfer write). `waits` gets the timeline points of the images'
  // earlier users and `signals` the points this write signals (GStreamer 1.24 and later), for the
  // frame's submission: the readers downstream, on any queue, wait for them.
  void record_write(uint32_t slot, Commands cmd, vk::Buffer from,
                    std::vector<std::pair<VkSemaphore, uint64_t>>& waits,
                    std::vector<std::pair<VkSemaphore, uint64_t>>& signals);
  // Whether the bridge's device is the VkDevice that `device` runs on (adopted: deviceshare.hpp).
  bool same_device(const Device& device) const;
  // Once the frame is done: `frame` (laid out as bind_output() said) copied by the CPU into the slot's
  // host memory, and from there by GStreamer's device into the output's images, whose new state is
  // stored in them. Waits for the copy.
  bool copy_out(uint32_t slot, const uint8_t* frame, std::string& error);

  // The device's name, for messages.
  const std::string& device_name() const { return device_name_; }
  // GStreamer's device the bridge copies on (valid while the bridge lives).
  GstVulkanDevice* gst_device() const { return device_; }

 private:
  VulkanBridge(const gstvk::GstVulkanLibrary& library, GstVulkanDevice* device, GstVulkanQueue* queue,
               uint32_t slots);
  // `slot`'s host memory, made or grown to `bytes`; null with `error` set.
  GstMemory* host_memory(uint32_t slot, gsize bytes, std::string& error);

  // One plane's image and where it lies in host memory.
  struct Plane {
    GstMemory* memory = nullptr;
    gstvk::ImageHead head{};
    gstvk::BarrierState state{};
    guint texel = 0, rows = 0;
    gsize row_bytes = 0, offset = 0, stride = 0;
    // One plane of a multi-planar image (a decoder's frame) is copied through its plane's aspect; the
    // image's barrier, state and timeline go with its first plane only.
    VkImageAspectFlagBits aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    bool first_of_image = true;
  };
  enum class Direction { kToHost, kToImages };
  // The copy of plane `c` between its image and its place in a buffer laid out as planes_of() says.
  static vk::BufferImageCopy plane_region(const Plane& c);
  // The barrier before that copy, from what the image's last user stored in it; and the state to store
  // in it after the copy (its timeline point as it was).
  static vk::ImageMemoryBarrier plane_barrier(const Plane& c, Direction direction);
  static gstvk::BarrierState state_after(const Plane& c, Direction direction);
  // GstVulkanOperation's protocol for the image of `c`, whose copy the frame's commands now hold:
  // they wait for the value its last user signalled and signal one higher, which its next user waits
  // for; its new state is stored now, as GStreamer's elements store theirs once their work is recorded.
  void take_turn(const Plane& c, Direction direction, std::vector<std::pair<VkSemaphore, uint64_t>>& waits,
                 std::vector<std::pair<VkSemaphore, uint64_t>>& signals) const;
  // The planes of `buffer` (an image per plane of `info`, of this device, which the copy's direction
  // may use) and the host memory they take, `bytes`; false with `error` naming the fault.
  bool planes_of(GstBuffer* buffer, const GstVideoInfo& info, Direction direction, std::vector<Plane>& copies,
                 gsize& bytes, std::string& error) const;
  // Copies between the images and `memory` (GStreamer's buffer memory: host-visible, or device-local for
  // a copy that stays on the GPU), on GStreamer's queue, and waits; the images' new state stored. With
  // `leave_state`, a read leaves the images as it found them: after their last user's point, back in
  // its layout, no point signalled and nothing stored (the CPU's wait orders the copy before
  // whatever the thread submits next).
  bool transfer(const std::vector<Plane>& copies, GstMemory* memory, Direction direction, std::string& error,
                bool leave_state = false);
  // An output bound to a slot (bind_output()) until copy_out().
  struct Output {
    std::vector<Plane> copies;
    GstMemory* host = nullptr;  // the slot's host memory (hosts_ holds it)
    gsize bytes = 0;
  };

  const gstvk::GstVulkanLibrary& library_;
  GstVulkanDevice* device_;  // a reference
  GstVulkanQueue* queue_;    // a reference
  VkDevice vk_device_;
  std::string device_name_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  VkFence done_ = VK_NULL_HANDLE;
  bool in_flight_ = false;         // a copy was submitted and not seen done: done_ will be signalled
  bool broken_ = false;            // a copy's wait failed: its command buffer may still be pending
  std::vector<GstMemory*> hosts_;  // by slot: GstVulkanBufferMemory, host-visible, or null
  std::vector<Output> outputs_;    // by slot
};

}  // namespace vkc
