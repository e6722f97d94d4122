#include "linkchanges.hpp"

#include "memorycaps.hpp"

GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_filter_debug);
#define GST_CAT_DEFAULT gst_vkcompute_filter_debug

namespace vkc {

GstFlowReturn RefusedPushes::judge(GstObject* element, GstPad* src, GstFlowReturn flow) {
  if (flow != GST_FLOW_NOT_NEGOTIATED) {
    if (flow == GST_FLOW_OK) refused_ = 0;
    return flow;
  }
  bool stale = gst_pad_needs_reconfigure(src);
  if (!stale) {
    GstCaps* caps = gst_pad_get_current_caps(src);
    stale = caps && !gst_pad_peer_query_accept_caps(src, caps);
    if (caps) gst_caps_unref(caps);
  }
  if (!stale || ++refused_ > limit_) return flow;
  GST_INFO_OBJECT(element,
                  "downstream refused a frame's caps after a change downstream: frame dropped, "
                  "negotiating again");
  gst_pad_mark_reconfigure(src);
  dropped_ = true;
  return GST_FLOW_OK;
}

void RefusedPushes::mark_discont(GstBuffer** out) {
  if (!dropped_.exchange(false)) return;
  *out = gst_buffer_make_writable(*out);
  GST_BUFFER_FLAG_SET(*out, GST_BUFFER_FLAG_DISCONT);
}

GstFlowReturn negotiate_before_push(GstBaseTransform* trans, GstBuffer** out) {
  GstPad* src = GST_BASE_TRANSFORM_SRC_PAD(trans);
  if (!gst_pad_needs_reconfigure(src)) return GST_FLOW_OK;
  GstCaps* before = gst_pad_get_current_caps(src);
  const gboolean negotiated = gst_base_transform_reconfigure(trans);
  GstCaps* after = gst_pad_get_current_caps(src);
  const bool kept = negotiated && before && after && same_frames(before, after) &&
                    (!caps_in_device_memory(after) || in_device_memory(*out));
  if (before) gst_caps_unref(before);
  if (after) gst_caps_unref(after);
  if (kept) return GST_FLOW_OK;
  gst_clear_buffer(out);
  if (!negotiated) return GST_FLOW_NOT_NEGOTIATED;
  GST_DEBUG_OBJECT(trans, "the caps changed under a frame on its way out: dropped");
  return GST_BASE_TRANSFORM_FLOW_DROPPED;
}

void system_memory_for_new_peer(GstPad* src, GstPadProbeInfo* info, int device_index) {
  GstEvent* event = GST_PAD_PROBE_INFO_EVENT(info);
  GstCaps* caps = nullptr;
  gst_event_parse_caps(event, &caps);
  if (!caps_in_device_memory(caps) || !gst_pad_is_linked(src) || peer_takes_device_memory(src, device_index))
    return;
  GstCaps* system = in_system_memory(caps);
  if (gst_pad_peer_query_accept_caps(src, system)) {
    GST_INFO_OBJECT(src,
                    "the element downstream does not take device memory (relinked?): caps in system "
                    "memory for it, negotiating again");
    GstEvent* replaced = gst_event_new_caps(system);
    gst_event_set_seqnum(replaced, gst_event_get_seqnum(event));
    gst_event_unref(event);
    GST_PAD_PROBE_INFO_DATA(info) = replaced;
    gst_pad_mark_reconfigure(src);
  }
  gst_caps_unref(system);
}

}  // namespace vkc
