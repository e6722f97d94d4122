#include "memorycaps.hpp"

#include <gst/video/gstvideodecoder.h>

#include <initializer_list>
#include <tuple>

#include "computefilter.hpp"
#include "cuda/gstcudamemory.hpp"
#include "vkmemory.hpp"

GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_runtime_debug);
#define GST_CAT_DEFAULT gst_vkcompute_runtime_debug

namespace vkc {

namespace {
// The custom query by which an element asks the one downstream which device it runs on.
constexpr const char* kDeviceQuery = "vkcompute-device";
}  // namespace

bool features_in_device_memory(const GstCapsFeatures* features) {
  return features && !gst_caps_features_is_any(features) &&
         gst_caps_features_contains(features, GST_CAPS_FEATURE_MEMORY_VKCOMPUTE_DEVICE);
}

bool caps_in_device_memory(GstCaps* caps) {
  return caps && !gst_caps_is_empty(caps) && !gst_caps_is_any(caps) &&
         features_in_device_memory(gst_caps_get_features(caps, 0));
}

bool caps_in_vulkan_buffer_memory(GstCaps* caps) {
  return caps && !gst_caps_is_empty(caps) && !gst_caps_is_any(caps) &&
         gst_caps_features_contains(gst_caps_get_features(caps, 0), GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER);
}

bool in_device_memory(GstBuffer* buffer) {
  return gst_buffer_n_memory(buffer) == 1 &&
         gst_memory_is_type(gst_buffer_peek_memory(buffer, 0), GST_VKCOMPUTE_DEVICE_MEMORY_TYPE);
}

bool same_frames(GstCaps* a, GstCaps* b) {
  return !gst_caps_is_empty(a) && !gst_caps_is_empty(b) &&
         gst_structure_is_equal(gst_caps_get_structure(a, 0), gst_caps_get_structure(b, 0));
}

namespace {
// Every structure of `caps` in each memory of `features`, in that order (new caps).
GstCaps* in_memories(GstCaps* caps, std::initializer_list<const char*> features) {
  GstCaps* result = gst_caps_new_empty();
  for (const char* feature : features)
    for (guint i = 0; i < gst_caps_get_size(caps); ++i)
      result = gst_caps_merge_structure_full(result, gst_structure_copy(gst_caps_get_structure(caps, i)),
                                             gst_caps_features_new_single(feature));
  return result;
}
}  // namespace

namespace {
// The structures of `formats` whose format is among `held` (a caps string), in each memory of
// `features` (new caps).
GstCaps* held_in(GstCaps* formats, const char* held, std::initializer_list<const char*> features) {
  GstCaps* plain = in_system_memory(formats);  // intersected without their features
  GstCaps* held_formats = gst_caps_from_string(held);
  GstCaps* kept = gst_caps_intersect(plain, held_formats);
  GstCaps* result = in_memories(kept, features);
  gst_caps_unref(kept);
  gst_caps_unref(held_formats);
  gst_caps_unref(plain);
  return result;
}
}  // namespace

GstCaps* in_both_memories(GstCaps* caps) {
  return in_memories(caps, {GST_CAPS_FEATURE_MEMORY_VKCOMPUTE_DEVICE, GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY});
}

namespace {
// The formats GStreamer's CUDA memory holds (gst/cuda/gstcudamemory.c, 1.22): others abort its
// allocator.
constexpr const char* kCudaFormats =
    "video/x-raw, format=(string){ I420, YV12, I420_10LE, Y42B, I422_10LE, I422_12LE, NV12, NV21, P010_10LE, "
    "P016_LE, Y444, Y444_16LE, RGBP, BGRP, GBR, GBRA, BGRA, RGBA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, "
    "BGR10A2_LE, RGB10A2_LE, YUY2, UYVY }";
}  // namespace

namespace {
// The structures of `caps` whose features name one of `memories` (`in`), or all the others (new
// caps).
GstCaps* structures_naming(GstCaps* caps, std::initializer_list<const char*> memories, bool in) {
  GstCaps* kept = gst_caps_new_empty();
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    GstCapsFeatures* features = gst_caps_get_features(caps, i);
    bool names = false;
    for (const char* memory : memories)
      names = names || (features && !gst_caps_features_is_any(features) &&
                        gst_caps_features_contains(features, memory));
    if (names == in)
      kept = gst_caps_merge_structure_full(kept, gst_structure_copy(gst_caps_get_structure(caps, i)),
                                           features ? gst_caps_features_copy(features) : nullptr);
  }
  return kept;
}

// The formats whose planes GStreamer's Vulkan elements hold in images of one plain texel each
// (RGB and BGR left out: GStreamer 1.22's upload of them hangs; packed 4:2:2 is held in block
// formats).
constexpr const char* kVulkanFormats =
    "video/x-raw, format=(string){ RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, xRGB, xBGR, AYUV, GRAY8, GRAY16_LE, "
    "I420, "
    "YV12, NV12, NV21, Y444, Y42B }";
}  // namespace

GstCaps* structures_in_cuda_memory(GstCaps* caps, bool cuda) {
  return structures_naming(caps, {cuda::kCapsFeature}, cuda);
}

GstCaps* structures_in_vulkan_memory(GstCaps* caps) {
  return structures_naming(
      caps, {GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER}, true);
}

GstCaps* structures_in_plain_memory(GstCaps* caps) {
  return structures_naming(
      caps, {cuda::kCapsFeature, GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER},
      false);
}

GstCaps* in_vulkan_memory(GstCaps* formats) {
  return held_in(formats, kVulkanFormats,
                 {GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER});
}

GstCaps* in_vulkan_image_memory(GstCaps* formats) {
  return held_in(formats, kVulkanFormats, {GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE});
}

guint structures_in_cuda_memory_count(GstCaps* caps) {
  GstCaps* in_cuda = structures_in_cuda_memory(caps, true);
  const guint count = gst_caps_get_size(in_cuda);
  gst_caps_unref(in_cuda);
  return count;
}

GstCaps* keep_cuda_memory(GstCaps* caps, bool cuda) {
  GstCaps* kept = structures_in_cuda_memory(caps, cuda);
  if (gst_caps_is_empty(kept)) {
    gst_caps_unref(kept);
    return caps;
  }
  gst_caps_unref(caps);
  return kept;
}

GstCaps* in_cuda_memory(GstCaps* formats) {
  return held_in(formats, kCudaFormats, {cuda::kCapsFeature});
}

void add_pad_templates(GstElementClass* klass, const char* sink_caps, const char* src_caps,
                       VulkanMemoryOn vulkan) {
  for (auto [name, direction, caps_string] :
       {std::tuple{"sink", GST_PAD_SINK, sink_caps}, std::tuple{"src", GST_PAD_SRC, src_caps}}) {
    GstCaps* formats = gst_caps_from_string(caps_string);
    GstCaps* caps = gst_caps_merge(in_both_memories(formats), in_cuda_memory(formats));
    caps = gst_caps_merge(caps, direction == GST_PAD_SINK || vulkan == VulkanMemoryOn::kBothPads
                                    ? in_vulkan_memory(formats)
                                    : in_vulkan_image_memory(formats));
    gst_element_class_add_pad_template(klass, gst_pad_template_new(name, direction, GST_PAD_ALWAYS, caps));
    gst_caps_unref(caps);
    gst_caps_unref(formats);
  }
}

GstCaps* in_system_memory(GstCaps* caps) {
  return in_memories(caps, {GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY});
}

GstCaps* keep_memory(GstCaps* caps, bool device) {
  GstCaps* kept = gst_caps_new_empty();
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    GstCapsFeatures* features = gst_caps_get_features(caps, i);
    if (features_in_device_memory(features) == device)
      kept = gst_caps_merge_structure_full(kept, gst_structure_copy(gst_caps_get_structure(caps, i)),
                                           gst_caps_features_copy(features));
  }
  if (gst_caps_is_empty(kept)) {
    gst_caps_unref(kept);
    return caps;
  }
  gst_caps_unref(caps);
  return kept;
}

GstElement* element_after(GstPad* src) {
  GstPad* pad = gst_pad_get_peer(src);
  while (pad) {
    GstPad* next = nullptr;
    if (GST_IS_GHOST_PAD(pad)) {
      next = gst_ghost_pad_get_target(GST_GHOST_PAD(pad));  // into a bin
    } else if (GST_IS_PROXY_PAD(pad)) {
      // The inside of a bin's ghost source pad: on past the bin.
      GstProxyPad* ghost = gst_proxy_pad_get_internal(GST_PROXY_PAD(pad));
      if (ghost) {
        next = gst_pad_get_peer(GST_PAD(ghost));
        gst_object_unref(ghost);
      }
    } else {
      GstElement* element = gst_pad_get_parent_element(pad);
      gst_object_unref(pad);
      return element;
    }
    gst_object_unref(pad);
    pad = next;
  }
  return nullptr;
}

namespace {
// The device index in the answer to the device query sent downstream of `src` (by the first
// element of ours that the query reaches), and the element that answered; false without answer.
bool ask_device(GstPad* src, gint& index, GstElement** answered_by) {
  GstQuery* query = gst_query_new_custom(GST_QUERY_CUSTOM, gst_structure_new_empty(kDeviceQuery));
  const bool answered = gst_pad_peer_query(src, query) &&
                        gst_structure_get_int(gst_query_get_structure(query), "index", &index);
  if (answered && answered_by)
    gst_structure_get(gst_query_get_structure(query), "element", GST_TYPE_ELEMENT, answered_by, nullptr);
  gst_query_unref(query);
  return answered;
}

// Whether `element`'s source pads can come and go (request or sometimes pads: a tee's branches).
bool fans_out(GstElement* element) {
  for (const GList* l = gst_element_class_get_pad_template_list(GST_ELEMENT_GET_CLASS(element)); l;
       l = l->next) {
    auto* templ = static_cast<GstPadTemplate*>(l->data);
    if (GST_PAD_TEMPLATE_DIRECTION(templ) == GST_PAD_SRC &&
        GST_PAD_TEMPLATE_PRESENCE(templ) != GST_PAD_ALWAYS)
      return true;
  }
  return false;
}

// The one source pad of `element` (a new reference), or null when it has none or several.
GstPad* only_source_pad(GstElement* element) {
  GST_OBJECT_LOCK(element);
  GstPad* pad = element->numsrcpads == 1 ? GST_PAD(gst_object_ref(element->srcpads->data)) : nullptr;
  GST_OBJECT_UNLOCK(element);
  return pad;
}

// The one sink pad of `element` (a new reference), or null when it has none or several.
GstPad* only_sink_pad(GstElement* element) {
  GST_OBJECT_LOCK(element);
  GstPad* pad = element->numsinkpads == 1 ? GST_PAD(gst_object_ref(element->sinkpads->data)) : nullptr;
  GST_OBJECT_UNLOCK(element);
  return pad;
}

// Whether a pad template of `element` names GStreamer's Vulkan memory (memory:VulkanImage or
// memory:VulkanBuffer) and the element is not ours: one of GStreamer's Vulkan elements.
bool templates_name_vulkan_memory(GstElement* element) {
  if (GST_IS_VKCOMPUTE_FILTER(element)) return false;
  for (const GList* l = gst_element_class_get_pad_template_list(GST_ELEMENT_GET_CLASS(element)); l;
       l = l->next) {
    GstCaps* caps = gst_pad_template_get_caps(static_cast<GstPadTemplate*>(l->data));
    bool names = false;
    for (guint i = 0; !names && !gst_caps_is_any(caps) && i < gst_caps_get_size(caps); ++i) {
      const GstCapsFeatures* features = gst_caps_get_features(caps, i);
      // ANY (videoconvert's templates from 1.24) contains every feature, and names no memory.
      names = features && !gst_caps_features_is_any(features) &&
              (gst_caps_features_contains(features, GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE) ||
               gst_caps_features_contains(features, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER));
    }
    gst_caps_unref(caps);
    if (names) return true;
  }
  return false;
}
}  // namespace

bool vulkan_element_near(GstElement* element) {
  // Each way through elements of one pad on that side (queues, capsfilters, ours); a bound guards
  // against a loop.
  for (const bool downstream : {true, false}) {
    GstPad* pad = downstream ? only_source_pad(element) : only_sink_pad(element);
    for (int hops = 0; pad && hops < 64; ++hops) {
      GstElement* next = element_after(pad);
      gst_object_unref(pad);
      pad = nullptr;
      if (!next) break;
      const bool found = templates_name_vulkan_memory(next);
      if (!found) pad = downstream ? only_source_pad(next) : only_sink_pad(next);
      gst_object_unref(next);
      if (found) return true;
    }
    if (pad) gst_object_unref(pad);
  }
  return false;
}

GstPad* vulkan_decoder_upstream(GstElement* element, bool& other_thread) {
  GstPad* pad = only_sink_pad(element);
  other_thread = false;
  for (int hops = 0; pad && hops < 64; ++hops) {
    GstElement* before = element_after(pad);
    gst_object_unref(pad);
    pad = nullptr;
    if (!before) break;
    GstPad* src = only_source_pad(before);
    if (GST_IS_VIDEO_DECODER(before) && templates_name_vulkan_memory(before)) {
      gst_object_unref(before);
      return src;
    }
    // A filter of ours makes frames of its own: the decoder's frames end there.
    const bool makes_frames =
        GST_IS_VKCOMPUTE_FILTER(before) && !gst_base_transform_is_passthrough(GST_BASE_TRANSFORM(before));
    if (makes_frames) {
      if (src) gst_object_unref(src);
      gst_object_unref(before);
      return nullptr;
    }
    if (src) {
      GST_OBJECT_LOCK(src);
      other_thread = other_thread || GST_PAD_TASK(src) != nullptr;
      GST_OBJECT_UNLOCK(src);
      gst_object_unref(src);
    }
    pad = only_sink_pad(before);
    gst_object_unref(before);
  }
  if (pad) gst_object_unref(pad);
  return nullptr;
}

Downstream downstream_of(GstPad* src, gint* device_index) {
  // Through elements of one fixed source pad (queues, capsfilters, converters), to the first
  // element of ours, an element that fans out, or an end; a bound guards against a loop.
  GstPad* pad = GST_PAD(gst_object_ref(src));
  Downstream found = Downstream::kOther;
  if (device_index) *device_index = -1;
  for (int hops = 0; pad && hops < 64; ++hops) {
    GstElement* next = element_after(pad);
    GstElement* answered_by = nullptr;
    gint index = -1;
    GstPad* onwards = nullptr;
    const bool answered = next && ask_device(pad, index, &answered_by);
    // The first hop's query is the one sent on `src`: the device of ours downstream of it.
    if (hops == 0 && answered && device_index) *device_index = index;
    if (answered && answered_by == next)
      found = Downstream::kOurs;
    else if (next && fans_out(next))
      found = Downstream::kFanOut;
    else if (next)
      onwards = only_source_pad(next);
    if (answered_by) gst_object_unref(answered_by);
    if (next) gst_object_unref(next);
    gst_object_unref(pad);
    pad = onwards;
  }
  if (pad) gst_object_unref(pad);
  return found;
}

bool peer_takes_device_memory(GstPad* src, int device_index) {
  gint index = -1;
  if (downstream_of(src, &index) != Downstream::kOurs) {
    GST_DEBUG_OBJECT(src, "no element of ours next, or a tee on the way: system memory");
    return false;
  }
  GstCaps* peer = gst_pad_peer_query_caps(src, nullptr);
  bool listed = false;
  for (guint i = 0; peer && !gst_caps_is_any(peer) && i < gst_caps_get_size(peer); ++i)
    listed |= features_in_device_memory(gst_caps_get_features(peer, i));
  if (peer) gst_caps_unref(peer);
  const bool same = listed && index == device_index;
  GST_DEBUG_OBJECT(src, "the next element of ours %s",
                   same ? "takes device memory" : "is on another device, or the link refuses device memory");
  return same;
}

bool device_frames_behind_fan_out(GstPad* src, int device_index) {
  gint index = -1;
  return downstream_of(src, &index) == Downstream::kFanOut && index == device_index;
}

gint device_of_neighbours(GstElement* element) {
  for (const char* name : {"sink", "src"}) {
    GstPad* pad = gst_element_get_static_pad(element, name);
    gint index = -1;
    const bool answered = pad && ask_device(pad, index, nullptr);
    if (pad) gst_object_unref(pad);
    if (answered && index >= 0) return index;
  }
  return -1;
}

bool answer_device_query(GstQuery* query, GstElement* element, int device_index) {
  if (GST_QUERY_TYPE(query) != GST_QUERY_CUSTOM ||
      !gst_structure_has_name(gst_query_get_structure(query), kDeviceQuery))
    return false;
  gst_structure_set(gst_query_writable_structure(query), "index", G_TYPE_INT, device_index, "element",
                    GST_TYPE_ELEMENT, element, nullptr);
  return true;
}

}  // namespace vkc
