#include "memorycaps.hpp"

#include <initializer_list>

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

GstCaps* in_both_memories(GstCaps* caps) {
  return in_memories(caps, {GST_CAPS_FEATURE_MEMORY_VKCOMPUTE_DEVICE, GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY});
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

bool peer_takes_device_memory(GstPad* src, int device_index) {
  GstCaps* peer = gst_pad_peer_query_caps(src, nullptr);
  bool listed = false;
  for (guint i = 0; peer && !gst_caps_is_any(peer) && i < gst_caps_get_size(peer); ++i)
    listed |= features_in_device_memory(gst_caps_get_features(peer, i));
  if (peer) gst_caps_unref(peer);
  if (!listed) return false;
  GstQuery* query = gst_query_new_custom(GST_QUERY_CUSTOM, gst_structure_new_empty(kDeviceQuery));
  gint index = -1;
  bool same = true;
  if (gst_pad_peer_query(src, query) &&
      gst_structure_get_int(gst_query_get_structure(query), "index", &index))
    same = index == device_index;
  gst_query_unref(query);
  GST_DEBUG_OBJECT(src, "the peer lists %s%s", GST_CAPS_FEATURE_MEMORY_VKCOMPUTE_DEVICE,
                   same ? "" : " on another device: system memory");
  return same;
}

bool answer_device_query(GstQuery* query, int device_index) {
  if (GST_QUERY_TYPE(query) != GST_QUERY_CUSTOM ||
      !gst_structure_has_name(gst_query_get_structure(query), kDeviceQuery))
    return false;
  gst_structure_set(gst_query_writable_structure(query), "index", G_TYPE_INT, device_index, nullptr);
  return true;
}

}  // namespace vkc
