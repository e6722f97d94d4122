#include "decodedcopies.hpp"

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "deviceshare.hpp"
#include "memorycaps.hpp"
#include "vulkanbridge.hpp"

GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_filter_debug);
#define GST_CAT_DEFAULT gst_vkcompute_filter_debug

namespace vkc {

namespace {

GQuark copy_quark() {
  static const GQuark quark = g_quark_from_static_string("vkcompute-decoded-copy");
  return quark;
}

GQuark tapped_quark() {
  static const GQuark quark = g_quark_from_static_string("vkcompute-decoder-tapped");
  return quark;
}

void free_copy(gpointer data) {
  auto* copy = static_cast<DecodedCopy*>(data);
  gst_memory_unref(copy->memory);
  delete copy;
}

// A copy's VkBuffer, which our kernels bind, was destroyed by GStreamer's library: the recorded
// commands and descriptor sets of the device that name its handle, which a new buffer may take, are
// stale (Device::note_released()).
void note_copy_gone(gpointer device, GstMiniObject*) {
  auto* weak = static_cast<std::weak_ptr<const Device>*>(device);
  if (auto alive = weak->lock()) alive->note_released();
  delete weak;
}

// The buffer probe on a decoder's source pad, on the decoder's streaming thread.
class DecoderTap {
 public:
  DecoderTap(GstPad* src, const std::shared_ptr<const Device>& device, GstVulkanQueue* queue)
      : device_(device), queue_(static_cast<GstVulkanQueue*>(gst_object_ref(queue))) {
    if (GstCaps* caps = gst_pad_get_current_caps(src)) {
      set_caps(caps);
      gst_caps_unref(caps);
    }
  }
  ~DecoderTap() {
    bridge_.reset();  // waits for a copy still running
    for (GstMemory* memory : spares_) gst_memory_unref(memory);
    gst_object_unref(queue_);
  }
  DecoderTap(const DecoderTap&) = delete;
  DecoderTap& operator=(const DecoderTap&) = delete;

  GstPadProbeReturn on_data(GstPad* pad, GstPadProbeInfo* info) {
    if (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
      GstEvent* event = GST_PAD_PROBE_INFO_EVENT(info);
      if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) {
        GstCaps* caps = nullptr;
        gst_event_parse_caps(event, &caps);
        set_caps(caps);
      }
      return GST_PAD_PROBE_OK;
    }
    GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    // A copy of the buffer's last push (a frame of the decoder's pool comes back) never stands for this one.
    gst_mini_object_set_qdata(GST_MINI_OBJECT(buffer), copy_quark(), nullptr, nullptr);
    if (!has_info_ || !in_vulkan_image_memory(buffer)) return GST_PAD_PROBE_OK;
    std::string error;
    if (!copy(buffer, error)) {
      // The reader takes its turn on the images itself, as with no thread between.
      GST_WARNING_OBJECT(pad, "a decoded frame could not be copied on the decoder's thread: %s",
                         error.c_str());
    }
    return GST_PAD_PROBE_OK;
  }

 private:
  void set_caps(GstCaps* caps) { has_info_ = gst_video_info_from_caps(&info_, caps); }

  bool copy(GstBuffer* buffer, std::string& error) {
    if (!bridge_ || !bridge_->serves(buffer)) {
      bridge_.reset();
      bridge_ = VulkanBridge::make(
          buffer,
          [this](GstVulkanDevice* device) {
            return gstvk::fields(queue_).device == device
                       ? static_cast<GstVulkanQueue*>(gst_object_ref(queue_))
                       : nullptr;
          },
          1, error);
      if (!bridge_) return false;
    }
    auto copy = std::make_unique<DecodedCopy>();
    copy->memory = bridge_->copy_to_device(
        buffer, info_, [this](gsize bytes, std::string& why) { return memory_for(bytes, why); },
        copy->offsets, copy->strides, error);
    if (!copy->memory) return false;
    const auto* fields =
        reinterpret_cast<const gstvk::BufferMemoryFields<gstvk::BarrierMemoryInfo32>*>(copy->memory);
    copy->buffer = fields->buffer;
    copy->device = fields->device;
    gst_mini_object_set_qdata(GST_MINI_OBJECT(buffer), copy_quark(), copy.release(), free_copy);
    return true;
  }

  // A copy no frame holds any more, else a new one, kept for reuse: as many as the decoder has frames
  // out at once (its pool, the queues after it), and their handles stay those of live buffers.
  GstMemory* memory_for(gsize bytes, std::string& error) {
    for (GstMemory*& spare : spares_) {
      if (GST_MINI_OBJECT_REFCOUNT_VALUE(spare) != 1) continue;
      if (spare->size >= bytes) return gst_memory_ref(spare);
      gst_memory_unref(spare);  // of a smaller frame: replaced
      spare = nullptr;
    }
    spares_.erase(std::remove(spares_.begin(), spares_.end(), nullptr), spares_.end());
    GstMemory* memory = bridge_->device_memory(bytes, error);
    if (!memory) return nullptr;
    gst_mini_object_weak_ref(GST_MINI_OBJECT(memory), note_copy_gone,
                             new std::weak_ptr<const Device>(device_));
    spares_.push_back(gst_memory_ref(memory));
    return memory;
  }

  std::shared_ptr<const Device> device_;  // ours, adopted on GStreamer's device
  GstVulkanQueue* queue_;                 // a reference
  std::unique_ptr<VulkanBridge> bridge_;
  GstVideoInfo info_{};
  bool has_info_ = false;
  std::vector<GstMemory*> spares_;  // references
};

}  // namespace

bool take_decoded_frames(GstElement* element, const std::shared_ptr<const Device>& device) {
  GstVulkanQueue* queue = shared_gst_queue(*device);
  if (!queue) return false;
  bool other_thread = false;
  GstPad* src = vulkan_decoder_upstream(element, other_thread);
  if (!src) return false;
  if (!other_thread) {
    gst_object_unref(src);
    return true;
  }
  // Elements of ours behind the same decoder ask on their threads; one probe serves them all.
  static std::mutex installing;
  std::lock_guard<std::mutex> lock(installing);
  if (!g_object_get_qdata(G_OBJECT(src), tapped_quark())) {
    g_object_set_qdata(G_OBJECT(src), tapped_quark(), GINT_TO_POINTER(1));
    gst_pad_add_probe(
        src, GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM),
        [](GstPad* pad, GstPadProbeInfo* info, gpointer tap) {
          return static_cast<DecoderTap*>(tap)->on_data(pad, info);
        },
        new DecoderTap(src, device, queue), [](gpointer tap) { delete static_cast<DecoderTap*>(tap); });
    GST_INFO_OBJECT(
        element, "frames of %" GST_PTR_FORMAT " reach it through another thread: copied as they leave", src);
  }
  gst_object_unref(src);
  return true;
}

const DecodedCopy* decoded_copy(GstBuffer* buffer, GstVulkanDevice* device) {
  const auto* copy =
      static_cast<const DecodedCopy*>(gst_mini_object_get_qdata(GST_MINI_OBJECT(buffer), copy_quark()));
  return copy && copy->device == device ? copy : nullptr;
}

}  // namespace vkc
