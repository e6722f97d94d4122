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

// The copy travels with the frame as a meta: one made writable on the way (a results meta, a
// discontinuity mark) carries it on, and the decoder's pool drops it with the frame's other metas
// when the frame comes back (GstBufferPool's reset).
struct DecodedCopyMeta {
  GstMeta meta;
  DecodedCopy copy;
  const GstMemory* image;  // the frame's first memory, whose copy this is (compared, never read)
};

GType decoded_copy_meta_api() {
  static const GType type = [] {
    static const gchar* tags[] = {nullptr};
    return gst_meta_api_type_register("GstVkComputeDecodedCopyMetaAPI", tags);
  }();
  return type;
}

const GstMetaInfo* decoded_copy_meta_info() {
  static const GstMetaInfo* info = gst_meta_register(
      decoded_copy_meta_api(), "GstVkComputeDecodedCopyMeta", sizeof(DecodedCopyMeta),
      [](GstMeta* meta, gpointer, GstBuffer*) -> gboolean {
        auto* m = reinterpret_cast<DecodedCopyMeta*>(meta);
        m->copy = DecodedCopy{};
        m->image = nullptr;
        return TRUE;
      },
      [](GstMeta* meta, GstBuffer*) {
        auto* m = reinterpret_cast<DecodedCopyMeta*>(meta);
        if (m->copy.memory) gst_memory_unref(m->copy.memory);
      },
      // Onto a copy of the whole frame (same memories) only: a part or another frame is not this copy.
      [](GstBuffer* dest, GstMeta* meta, GstBuffer*, GQuark type, gpointer data) -> gboolean {
        if (!GST_META_TRANSFORM_IS_COPY(type) || static_cast<GstMetaTransformCopy*>(data)->region)
          return FALSE;
        const auto* from = reinterpret_cast<const DecodedCopyMeta*>(meta);
        // Only onto a buffer of the same memory (gst_buffer_copy_into() copies memories first): an
        // element's output that takes the frame's metadata would hold the copy as long as it lives.
        if (gst_buffer_n_memory(dest) == 0 || gst_buffer_peek_memory(dest, 0) != from->image) return FALSE;
        auto* to =
            reinterpret_cast<DecodedCopyMeta*>(gst_buffer_add_meta(dest, decoded_copy_meta_info(), nullptr));
        if (!to) return FALSE;
        to->copy = from->copy;
        gst_memory_ref(to->copy.memory);
        to->image = from->image;
        return TRUE;
      });
  return info;
}

// Takes `copy` (its memory) onto `buffer`, writable, in place of any earlier copy it carries.
void attach_copy(GstBuffer* buffer, const DecodedCopy& copy) {
  while (GstMeta* old = gst_buffer_get_meta(buffer, decoded_copy_meta_api()))
    gst_buffer_remove_meta(buffer, old);
  auto* meta =
      reinterpret_cast<DecodedCopyMeta*>(gst_buffer_add_meta(buffer, decoded_copy_meta_info(), nullptr));
  meta->copy = copy;
  meta->image = gst_buffer_peek_memory(buffer, 0);
}

GQuark tapped_quark() {
  static const GQuark quark = g_quark_from_static_string("vkcompute-decoder-tapped");
  return quark;
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
    if (!has_info_ || !in_vulkan_image_memory(buffer)) return GST_PAD_PROBE_OK;
    // Only frames on the device whose queue lock our elements take: on another, they would not read
    // the copy, and it would go on a queue under another lock.
    gstvk::ImageHead head;
    std::string error;
    const gstvk::GstVulkanLibrary* library = gstvk::gst_vulkan_library(error);
    if (!library || !gstvk::read_image(*library, gst_buffer_peek_memory(buffer, 0), head) ||
        head.device != gstvk::fields(queue_).device)
      return GST_PAD_PROBE_OK;
    DecodedCopy copied;
    if (!copy(buffer, copied, error)) {
      // The reader takes its turn on the images itself, as with no thread between; a new bridge
      // for the next frame (this one waits for a copy that did not end).
      GST_WARNING_OBJECT(pad, "a decoded frame could not be copied on the decoder's thread: %s",
                         error.c_str());
      bridge_.reset();
      return GST_PAD_PROBE_OK;
    }
    buffer = gst_buffer_make_writable(buffer);
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
    attach_copy(buffer, copied);
    return GST_PAD_PROBE_OK;
  }

 private:
  void set_caps(GstCaps* caps) { has_info_ = gst_video_info_from_caps(&info_, caps); }

  // `buffer`'s images copied into `copy` (its memory a new reference); false with `error` set.
  bool copy(GstBuffer* buffer, DecodedCopy& copy, std::string& error) {
    if (!bridge_ || !bridge_->serves(buffer)) {
      bridge_.reset();
      bridge_ = VulkanBridge::make(
          buffer, [this](GstVulkanDevice*) { return static_cast<GstVulkanQueue*>(gst_object_ref(queue_)); },
          1, error);
      if (!bridge_) return false;
    }
    copy.memory = bridge_->copy_to_device(
        buffer, info_, [this](gsize bytes, std::string& why) { return memory_for(bytes, why); }, copy.offsets,
        copy.strides, error);
    if (!copy.memory) return false;
    const auto* fields =
        reinterpret_cast<const gstvk::BufferMemoryFields<gstvk::BarrierMemoryInfo32>*>(copy.memory);
    copy.buffer = fields->buffer;
    copy.device = fields->device;
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
  const auto* meta =
      reinterpret_cast<const DecodedCopyMeta*>(gst_buffer_get_meta(buffer, decoded_copy_meta_api()));
  const bool ours = meta && meta->image == gst_buffer_peek_memory(buffer, 0) && meta->copy.device == device;
  return ours ? &meta->copy : nullptr;
}

}  // namespace vkc
