#include "vulkanbridge.hpp"

#include <cstring>
#include <numeric>

#include "decodedcopies.hpp"
#include "deviceshare.hpp"
#include "frame.hpp"
#include "framestream.hpp"
#include "gstvk/abi.hpp"

namespace vkc {

namespace {

// Bytes per texel of the single-plane formats GStreamer's Vulkan elements make a frame's plane
// images in (gst_vulkan_format_from_video_info_2 with one image per plane); 0 for others.
guint texel_bytes(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8_UNORM: return 1;
    case VK_FORMAT_R8G8_UNORM:
    case VK_FORMAT_R16_UNORM: return 2;
    case VK_FORMAT_R8G8B8_UNORM:
    case VK_FORMAT_B8G8R8_UNORM: return 3;
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_R16G16_UNORM:
    case VK_FORMAT_A2R10G10B10_UNORM_PACK32:
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32: return 4;
    case VK_FORMAT_R16G16B16A16_UNORM: return 8;
    default: return 0;
  }
}

// The planes of a multi-planar VkFormat of 4:2:0 (a Vulkan Video decoder's frames), their texels'
// bytes in `texels`; 0 for other formats.
guint multi_planar_420(VkFormat format, guint texels[3]) {
  switch (format) {
    case VK_FORMAT_G8_B8R8_2PLANE_420_UNORM: texels[0] = 1, texels[1] = 2; return 2;
    case VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16:
    case VK_FORMAT_G16_B16R16_2PLANE_420_UNORM: texels[0] = 2, texels[1] = 4; return 2;
    case VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM: texels[0] = texels[1] = texels[2] = 1; return 3;
    default: return 0;
  }
}

std::string hex(guint64 value) {
  gchar* text = g_strdup_printf("0x%" G_GINT64_MODIFIER "x", value);
  std::string result = text;
  g_free(text);
  return result;
}

}  // namespace

bool in_vulkan_image_memory(GstBuffer* buffer) {
  if (gst_buffer_n_memory(buffer) == 0) return false;
  GstMemory* first = gst_buffer_peek_memory(buffer, 0);
  // Only memory of GStreamer's allocators can be its image memory: the library is not loaded for
  // system memory or ours.
  if (!first->allocator || g_strcmp0(first->allocator->mem_type, "VulkanImage") != 0) return false;
  std::string why;
  const gstvk::GstVulkanLibrary* library = gstvk::gst_vulkan_library(why);
  return library && library->is_image_memory(first);
}

std::unique_ptr<VulkanBridge> VulkanBridge::make(GstBuffer* buffer, const QueueOf& queue_of, uint32_t slots,
                                                 std::string& error) {
  const gstvk::GstVulkanLibrary* library = gstvk::gst_vulkan_library(error);
  if (!library) return nullptr;
  gstvk::ImageHead head;
  if (!gstvk::read_image(*library, gst_buffer_peek_memory(buffer, 0), head)) {
    error = "the frame is not in GStreamer's Vulkan image memory";
    return nullptr;
  }
  // The fields read and written below are where gstvk/abi.hpp says on this device's library.
  if (!gstvk::check_layout(head.device, error)) return nullptr;
  gstvk::met_instance(gstvk::fields(head.device).instance);
  // The queue object the elements that made the frame share, else one of its queues: the first of the
  // compute family from 1.24, the device's first before (1.22 opens one queue, of the first graphics
  // family, which holds compute too). A queue object made here has a submit lock of its own.
  GstVulkanQueue* queue = queue_of(head.device);
  if (!queue && library->device_select_queue)
    queue = library->device_select_queue(head.device, VK_QUEUE_COMPUTE_BIT);
  else if (!queue)
    queue = library->device_get_queue(head.device, 0, 0);
  if (!queue) {
    error = "GStreamer's Vulkan device " + describe_gst_device(head.device) +
            " has no queue to copy the frame on";
    return nullptr;
  }
  std::unique_ptr<VulkanBridge> bridge(new VulkanBridge(*library, head.device, queue, slots));
  gst_object_unref(queue);
  const VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                                          VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                          gstvk::fields(bridge->queue_).family};
  VkResult result = vkCreateCommandPool(bridge->vk_device_, &pool_info, nullptr, &bridge->pool_);
  if (result == VK_SUCCESS) {
    const VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr,
                                            bridge->pool_, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    result = vkAllocateCommandBuffers(bridge->vk_device_, &alloc, &bridge->commands_);
  }
  if (result == VK_SUCCESS) {
    const VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
    result = vkCreateFence(bridge->vk_device_, &fence_info, nullptr, &bridge->done_);
  }
  if (result != VK_SUCCESS) {
    error = "GStreamer's Vulkan device " + bridge->device_name_ +
            " could not make a command buffer and fence (" + std::to_string(int(result)) + ")";
    return nullptr;
  }
  return bridge;
}

VulkanBridge::VulkanBridge(const gstvk::GstVulkanLibrary& library, GstVulkanDevice* device,
                           GstVulkanQueue* queue, uint32_t slots)
    : library_(library),
      device_(static_cast<GstVulkanDevice*>(gst_object_ref(device))),
      queue_(static_cast<GstVulkanQueue*>(gst_object_ref(queue))),
      vk_device_(gstvk::fields(device).device),
      device_name_(describe_gst_device(device)),
      hosts_(slots, nullptr),
      outputs_(slots) {}

VulkanBridge::~VulkanBridge() {
  // A copy that failed its wait may still run: its fence goes first.
  if (in_flight_) vkWaitForFences(vk_device_, 1, &done_, VK_TRUE, frame_timeout_ns());
  if (done_) vkDestroyFence(vk_device_, done_, nullptr);
  if (pool_) vkDestroyCommandPool(vk_device_, pool_, nullptr);  // its command buffer with it
  for (GstMemory* host : hosts_)
    if (host) gst_memory_unref(host);
  gst_object_unref(queue_);
  gst_object_unref(device_);
}

bool VulkanBridge::serves(GstBuffer* buffer) const {
  gstvk::ImageHead head;
  return gstvk::read_image(library_, gst_buffer_peek_memory(buffer, 0), head) && head.device == device_;
}

GstMemory* VulkanBridge::host_memory(uint32_t slot, gsize bytes, std::string& error) {
  GstMemory*& host = hosts_[slot];
  if (host && host->size >= bytes) return host;
  if (host) gst_memory_unref(host);
  host = library_.buffer_memory_alloc(
      device_, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (!host)
    error = "GStreamer's Vulkan device " + device_name_ + " could not allocate " + std::to_string(bytes) +
            " bytes of host-visible memory";
  return host;
}

bool VulkanBridge::planes_of(GstBuffer* buffer, const GstVideoInfo& info, Direction direction,
                             std::vector<Plane>& copies, gsize& bytes, std::string& error) const {
  if (broken_) {
    error = "GStreamer's Vulkan device " + device_name_ + " did not finish an earlier copy";
    return false;
  }
  const guint planes = GST_VIDEO_INFO_N_PLANES(&info);
  // An image per plane (GStreamer's upload and pools), or one image of all planes (its decoders').
  const bool one_image = gst_buffer_n_memory(buffer) == 1 && planes > 1;
  if (gst_buffer_n_memory(buffer) != planes && !one_image) {
    error = std::to_string(gst_buffer_n_memory(buffer)) + " memories for " + std::to_string(planes) +
            " planes (GStreamer's Vulkan frames hold an image per plane, or one image of them all)";
    return false;
  }
  const bool reads = direction == Direction::kToHost;
  const VkImageUsageFlags usage = reads ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  copies.assign(planes, Plane{});
  bytes = 0;
  for (guint p = 0; p < planes; ++p) {
    Plane& c = copies[p];
    c.memory = gst_buffer_peek_memory(buffer, one_image ? 0 : p);
    if (!gstvk::read_image(library_, c.memory, c.head) || c.head.device != device_ ||
        !gstvk::read_barrier(library_, c.memory, c.state)) {
      error = "plane " + std::to_string(p) + " is not an image of GStreamer's Vulkan device " + device_name_;
      return false;
    }
    VkExtent3D extent = c.head.create_info.extent;
    c.texel = texel_bytes(c.head.create_info.format);
    if (one_image) {
      guint texels[3] = {};
      if (multi_planar_420(c.head.create_info.format, texels) != planes) {
        error = "the frame's one image has VkFormat " + std::to_string(int(c.head.create_info.format)) +
                ", which is not of the caps' " + std::to_string(planes) + " planes of 4:2:0";
        return false;
      }
      c.texel = texels[p];
      c.aspect = VkImageAspectFlagBits(VK_IMAGE_ASPECT_PLANE_0_BIT << p);
      c.first_of_image = p == 0;
      if (p > 0) extent = {(extent.width + 1) / 2, (extent.height + 1) / 2, 1};
    }
    plane_extent(info, p, c.rows, c.row_bytes);
    if (c.texel == 0 || c.row_bytes % c.texel != 0) {
      error = "plane " + std::to_string(p) + "'s image has VkFormat " +
              std::to_string(int(c.head.create_info.format)) + ", which does not hold the plane's samples";
      return false;
    }
    if (extent.width < c.row_bytes / c.texel || extent.height < c.rows) {
      error = "plane " + std::to_string(p) + "'s image is " + std::to_string(extent.width) + "x" +
              std::to_string(extent.height) + ", smaller than the caps' plane";
      return false;
    }
    if (!(c.head.usage & usage)) {
      error = "plane " + std::to_string(p) + "'s image, of GStreamer's Vulkan device " + device_name_ +
              ", cannot be copied " + (reads ? "from" : "into") + " (its usage " + hex(c.head.usage) +
              " has no " + (reads ? "VK_IMAGE_USAGE_TRANSFER_SRC_BIT" : "VK_IMAGE_USAGE_TRANSFER_DST_BIT") +
              ")";
      return false;
    }
    // Rows of the plane's bytes, each starting at a multiple of 4 bytes and of the texel (Vulkan's
    // rule for a copy's buffer offset and row length).
    const gsize align = std::lcm(gsize(4), gsize(c.texel));
    c.stride = (c.row_bytes + align - 1) / align * align;
    c.offset = (bytes + align - 1) / align * align;
    bytes = c.offset + c.stride * c.rows;
  }
  return true;
}

vk::ImageMemoryBarrier VulkanBridge::plane_barrier(const Plane& c, Direction direction) {
  const bool reads = direction == Direction::kToHost;
  // After whatever used the image before, whatever its stage (a render pass's on a graphics queue, a
  // decoder's beyond 32 bits; for an output, the readers of the pool's image before it came back): all
  // commands, reads and writes, as GStreamer's own download does, which also covers a semaphore wait
  // at all commands. An output's old contents are not kept. Queue families ignored: the images are
  // used on the family of the queue we submit on, or made concurrent.
  return vk::ImageMemoryBarrier{
      .srcAccessMask = reads ? vk::AccessFlags(vk::AccessFlagBits::eMemoryWrite)
                             : vk::AccessFlagBits::eMemoryRead | vk::AccessFlagBits::eMemoryWrite,
      .dstAccessMask = reads ? vk::AccessFlagBits::eTransferRead : vk::AccessFlagBits::eTransferWrite,
      .oldLayout = reads ? vk::ImageLayout(c.state.image_layout) : vk::ImageLayout::eUndefined,
      .newLayout = reads ? vk::ImageLayout::eTransferSrcOptimal : vk::ImageLayout::eTransferDstOptimal,
      .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .image = c.head.image,
      .subresourceRange = {vk::ImageAspectFlagBits::eColor, 0, 1, 0, 1}};
}

gstvk::BarrierState VulkanBridge::state_after(const Plane& c, Direction direction) {
  const bool reads = direction == Direction::kToHost;
  gstvk::BarrierState state = c.state;
  state.pipeline_stages = VK_PIPELINE_STAGE_TRANSFER_BIT;
  state.access_flags = reads ? VK_ACCESS_TRANSFER_READ_BIT : VK_ACCESS_TRANSFER_WRITE_BIT;
  state.image_layout = reads ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  return state;
}

void VulkanBridge::take_turn(const Plane& c, Direction direction,
                             std::vector<std::pair<VkSemaphore, uint64_t>>& waits,
                             std::vector<std::pair<VkSemaphore, uint64_t>>& signals) const {
  gstvk::BarrierState state = state_after(c, direction);
  if (state.semaphore) {
    waits.emplace_back(state.semaphore, state.semaphore_value);
    signals.emplace_back(state.semaphore, ++state.semaphore_value);
  }
  gstvk::write_barrier(library_, c.memory, state);
}

vk::BufferImageCopy VulkanBridge::plane_region(const Plane& c) {
  return vk::BufferImageCopy{.bufferOffset = c.offset,
                             .bufferRowLength = uint32_t(c.stride / c.texel),
                             .bufferImageHeight = 0,
                             .imageSubresource = {vk::ImageAspectFlagBits(c.aspect), 0, 0, 1},
                             .imageOffset = {0, 0, 0},
                             .imageExtent = {uint32_t(c.row_bytes / c.texel), c.rows, 1}};
}

bool VulkanBridge::record_read(Commands cmd, GstBuffer* buffer, const GstVideoInfo& info,
                               const Target& target, FrameLayout& layout,
                               std::vector<std::pair<VkSemaphore, uint64_t>>& waits,
                               std::vector<std::pair<VkSemaphore, uint64_t>>& signals, std::string& error) {
  layout = FrameLayout{};
  layout.device_local = true;
  // A frame of a Vulkan decoder that reached us through another thread was copied on the decoder's
  // (decodedcopies.hpp): its images are not ours to touch here, that copy is read in their place.
  if (const DecodedCopy* decoded = decoded_copy(buffer, device_)) {
    layout.buffer = vk::Buffer(decoded->buffer);
    for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
      layout.offset[p] = uint32_t(decoded->offsets[p]);
      layout.stride[p] = uint32_t(decoded->strides[p]);
    }
    return true;
  }
  std::vector<Plane> copies;
  gsize bytes = 0;
  if (!planes_of(buffer, info, Direction::kToHost, copies, bytes, error)) return false;
  layout.buffer = target(bytes);
  for (size_t p = 0; p < copies.size(); ++p) {
    const Plane& c = copies[p];
    if (c.first_of_image)
      cmd.imageBarrier(vk::PipelineStageFlagBits::eAllCommands, vk::PipelineStageFlagBits::eTransfer,
                       plane_barrier(c, Direction::kToHost));
    cmd.copyImageToBuffer(c.head.image, vk::ImageLayout::eTransferSrcOptimal, layout.buffer, plane_region(c));
    layout.offset[p] = uint32_t(c.offset);
    layout.stride[p] = uint32_t(c.stride);
    if (!c.first_of_image) continue;
    // A Vulkan decoder uses the frames it gave out as references while we hold them: its next barrier,
    // from the layout stored here, and its reads must wait for our read, not run beside it (lost
    // devices on NVIDIA). It reads and stores this state on its streaming thread, unlocked: safe
    // when we record on that thread too, as we do with no queue between it and us (with one, the
    // frame was copied on its thread, above).
    take_turn(c, Direction::kToHost, waits, signals);
  }
  return true;
}

bool VulkanBridge::transfer(const std::vector<Plane>& copies, GstMemory* memory, Direction direction,
                            std::string& error, bool leave_state) {
  const bool reads = direction == Direction::kToHost;
  const VkBuffer host_buffer =
      reinterpret_cast<const gstvk::BufferMemoryFields<gstvk::BarrierMemoryInfo32>*>(memory)->buffer;
  const VkImageLayout layout =
      reads ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
  vkBeginCommandBuffer(commands_, &begin);
  std::vector<VkSemaphore> semaphores;
  std::vector<uint64_t> waits, signals;
  for (const Plane& c : copies) {
    const VkImageMemoryBarrier barrier = plane_barrier(c, direction);
    if (c.first_of_image)
      vkCmdPipelineBarrier(commands_, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                           0, nullptr, 0, nullptr, 1, &barrier);
    const VkBufferImageCopy region = plane_region(c);
    if (reads)
      vkCmdCopyImageToBuffer(commands_, c.head.image, layout, host_buffer, 1, &region);
    else
      vkCmdCopyBufferToImage(commands_, host_buffer, c.head.image, layout, 1, &region);
    if (c.first_of_image && c.state.semaphore) {
      semaphores.push_back(c.state.semaphore);
      waits.push_back(c.state.semaphore_value);
      if (!leave_state) signals.push_back(c.state.semaphore_value + 1);
    }
  }
  if (leave_state) {
    // Each image back in the layout its last user stored (one the copy discarded nothing of).
    for (const Plane& c : copies) {
      if (!c.first_of_image || c.state.image_layout == VK_IMAGE_LAYOUT_UNDEFINED) continue;
      VkImageMemoryBarrier back = plane_barrier(c, direction);
      std::swap(back.oldLayout, back.newLayout);
      back.srcAccessMask = 0;  // after reads: an execution dependency is enough
      back.dstAccessMask = 0;
      vkCmdPipelineBarrier(commands_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0,
                           0, nullptr, 0, nullptr, 1, &back);
    }
  }
  if (reads) {
    // The copies' writes made visible to the host, which reads them once the fence is signalled.
    // (The host's writes into an output's memory are visible to the copies from the submission on.)
    const VkBufferMemoryBarrier to_host{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                        nullptr,
                                        VK_ACCESS_TRANSFER_WRITE_BIT,
                                        VK_ACCESS_HOST_READ_BIT,
                                        VK_QUEUE_FAMILY_IGNORED,
                                        VK_QUEUE_FAMILY_IGNORED,
                                        host_buffer,
                                        0,
                                        VK_WHOLE_SIZE};
    vkCmdPipelineBarrier(commands_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, nullptr,
                         1, &to_host, 0, nullptr);
  }
  vkEndCommandBuffer(commands_);

  // From 1.24, after the value each image's last user signals, and one higher when done.
  const std::vector<VkPipelineStageFlags> wait_stages(semaphores.size(), VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
  const VkTimelineSemaphoreSubmitInfo timeline{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                               nullptr,
                                               uint32_t(waits.size()),
                                               waits.data(),
                                               uint32_t(signals.size()),
                                               signals.data()};
  const VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO,
                            semaphores.empty() ? nullptr : &timeline,
                            uint32_t(semaphores.size()),
                            semaphores.data(),
                            wait_stages.data(),
                            1,
                            &commands_,
                            uint32_t(signals.size()),
                            semaphores.data()};
  library_.queue_submit_lock(queue_);
  VkResult result = vkQueueSubmit(gstvk::fields(queue_).queue, 1, &submit, done_);
  library_.queue_submit_unlock(queue_);
  if (result == VK_SUCCESS) {
    in_flight_ = true;
    // The images' new state, as GStreamer's elements store theirs after their work: stored once
    // submitted, as the semaphores reach their new values whether or not the wait below sees it.
    for (const Plane& c : copies) {
      if (!c.first_of_image || leave_state) continue;
      gstvk::BarrierState state = state_after(c, direction);
      if (state.semaphore) state.semaphore_value++;
      gstvk::write_barrier(library_, c.memory, state);
    }
    result = vkWaitForFences(vk_device_, 1, &done_, VK_TRUE, frame_timeout_ns());
  }
  if (result != VK_SUCCESS) {
    // A copy still pending keeps its command buffer and fence: the bridge takes no other frame.
    broken_ = true;
    error = "GStreamer's Vulkan device " + device_name_ + " did not copy the frame (" +
            (result == VK_TIMEOUT ? "not done in " + std::to_string(frame_timeout_ns() / 1'000'000) + " ms"
                                  : "VkResult " + std::to_string(int(result))) +
            ")";
    return false;
  }
  in_flight_ = false;
  vkResetFences(vk_device_, 1, &done_);
  vkResetCommandBuffer(commands_, 0);
  return true;
}

GstBuffer* VulkanBridge::copy(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info,
                              std::string& error) {
  std::vector<Plane> copies;
  gsize bytes = 0;
  if (!planes_of(buffer, info, Direction::kToHost, copies, bytes, error)) return nullptr;
  GstMemory* host = host_memory(slot, bytes, error);
  if (!host || !transfer(copies, host, Direction::kToHost, error)) return nullptr;
  GstBuffer* out = gst_buffer_new();
  gst_buffer_append_memory(out, gst_memory_ref(host));
  gsize offsets[GST_VIDEO_MAX_PLANES] = {};
  gint strides[GST_VIDEO_MAX_PLANES] = {};
  for (size_t p = 0; p < copies.size(); ++p) {
    offsets[p] = copies[p].offset;
    strides[p] = gint(copies[p].stride);
  }
  gst_buffer_add_video_meta_full(out, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(&info),
                                 GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info),
                                 guint(copies.size()), offsets, strides);
  return out;
}

GstMemory* VulkanBridge::copy_to_device(GstBuffer* buffer, const GstVideoInfo& info,
                                        const MemoryFor& memory_for, gsize offsets[], gsize strides[],
                                        std::string& error) {
  std::vector<Plane> copies;
  gsize bytes = 0;
  if (!planes_of(buffer, info, Direction::kToHost, copies, bytes, error)) return nullptr;
  GstMemory* memory = memory_for(bytes, error);
  if (!memory) return nullptr;
  if (!transfer(copies, memory, Direction::kToHost, error, true)) {
    gst_memory_unref(memory);
    return nullptr;
  }
  for (size_t p = 0; p < copies.size(); ++p) {
    offsets[p] = copies[p].offset;
    strides[p] = copies[p].stride;
  }
  return memory;
}

GstMemory* VulkanBridge::device_memory(gsize bytes, std::string& error) const {
  GstMemory* memory =
      library_.buffer_memory_alloc(device_, bytes,
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                   VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (!memory)
    error = "GStreamer's Vulkan device " + device_name_ + " could not allocate " + std::to_string(bytes) +
            " bytes of device memory";
  return memory;
}

bool VulkanBridge::bind_output(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info, bool on_gpu,
                               gsize offsets[], gsize strides[], gsize& bytes, std::string& error) {
  Output& out = outputs_[slot];
  out = Output{};
  if (!planes_of(buffer, info, Direction::kToImages, out.copies, bytes, error)) return false;
  if (!on_gpu) {
    out.host = host_memory(slot, bytes, error);
    if (!out.host) return false;
  }
  out.bytes = bytes;
  for (size_t p = 0; p < out.copies.size(); ++p) {
    offsets[p] = out.copies[p].offset;
    strides[p] = out.copies[p].stride;
  }
  return true;
}

void VulkanBridge::record_write(uint32_t slot, Commands cmd, vk::Buffer from,
                                std::vector<std::pair<VkSemaphore, uint64_t>>& waits,
                                std::vector<std::pair<VkSemaphore, uint64_t>>& signals) {
  Output& out = outputs_[slot];
  // The kernels' writes of the frame, and any copy into it, before the copies read it.
  const vk::MemoryBarrier written{
      .srcAccessMask = vk::AccessFlagBits::eShaderWrite | vk::AccessFlagBits::eTransferWrite,
      .dstAccessMask = vk::AccessFlagBits::eTransferRead};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer,
                      vk::PipelineStageFlagBits::eTransfer, {}, written, nullptr, nullptr);
  for (const Plane& c : out.copies) {
    if (c.first_of_image)
      cmd.imageBarrier(vk::PipelineStageFlagBits::eAllCommands, vk::PipelineStageFlagBits::eTransfer,
                       plane_barrier(c, Direction::kToImages));
    cmd.copyBufferToImage(from, c.head.image, vk::ImageLayout::eTransferDstOptimal, plane_region(c));
    if (c.first_of_image) take_turn(c, Direction::kToImages, waits, signals);
  }
  out = Output{};
}

bool VulkanBridge::same_device(const Device& device) const {
  return device.adopted() && gstvk::fields(device_).device == static_cast<VkDevice>(*device.device());
}

bool VulkanBridge::copy_out(uint32_t slot, const uint8_t* frame, std::string& error) {
  Output& out = outputs_[slot];
  GstMapInfo map;
  if (!out.host || !gst_memory_map(out.host, &map, GST_MAP_WRITE)) {
    error = "GStreamer's Vulkan device " + device_name_ + "'s host memory for the output could not be mapped";
    return false;
  }
  std::memcpy(map.data, frame, out.bytes);
  gst_memory_unmap(out.host, &map);
  const bool copied = transfer(out.copies, out.host, Direction::kToImages, error);
  out = Output{};
  return copied;
}

}  // namespace vkc
