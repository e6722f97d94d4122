// GstVkComputeFilter's side that faces downstream (filterprivate.hpp): the frame stream's pushes,
// output buffers and errors (ElementOwner), whether a frame's work may wait in the streaming thread's
// batch, and the caps a peer that changed while PLAYING gets.
#include "cuda/gstcudamemory.hpp"
#include "deviceshare.hpp"
#include "filterprivate.hpp"
#include "memorycaps.hpp"
#include "vk/batch.hpp"

GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_filter_debug);
#define GST_CAT_DEFAULT gst_vkcompute_filter_debug

static GstVkComputeFilterPrivate* get_priv(GstVkComputeFilter* self) {
  return gst_vkcompute_filter_private(self);
}

GstFlowReturn gst_vkcompute_filter_after_push(GstVkComputeFilter* self, GstFlowReturn flow) {
  return get_priv(self)->refused.judge(GST_OBJECT(self), GST_BASE_TRANSFORM_SRC_PAD(self), flow);
}

// Whether a frame's work may wait in the streaming thread's batch (vkc::BatchScope) once submitted:
// its output stays in device memory and goes straight into another element of ours, on this thread,
// whose work joins the batch too, down to the chain's last element, which sends it. Correctness does
// not depend on it: whoever reads the output, on any thread, sends the batch first
// (vkc::order_after_write()). A stock element may hold the frame, or block the thread, for long:
// the work goes now, so that it runs meanwhile.
static bool joins_batch(GstVkComputeFilter* self) {
  auto* priv = get_priv(self);
  if (!priv->stream || !priv->stream->out_device()) return false;
  GstElement* element = vkc::element_after(GST_BASE_TRANSFORM_SRC_PAD(self));
  const bool ours = element && GST_IS_VKCOMPUTE_FILTER(element);
  if (element) gst_object_unref(element);
  return ours;
}

// A caps event on its way downstream, sent at a negotiation or again to a new peer after the element
// after this one was replaced while PLAYING (relinked behind a blocking probe, the usual way), on the
// streaming thread, before the frame that follows it. The frames recorded for the old peer may have
// their work waiting in this thread's batch for an element of ours that is gone: it goes now, so that
// it runs while the new peer negotiates (a reader would send it anyway). A new peer that does not
// take device memory gets the caps in system memory (linkchanges.hpp).
static GstPadProbeReturn caps_for_current_peer(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
  if (GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info)) != GST_EVENT_CAPS) return GST_PAD_PROBE_OK;
  auto* self = GST_VKCOMPUTE_FILTER(data);
  auto* priv = get_priv(self);
  if (!joins_batch(self)) {
    try {
      vkc::batch::flush();
    } catch (const std::exception& e) {
      gst_vkcompute_filter_post_exception(self, e);
    }
  }
  if (priv->device) vkc::system_memory_for_new_peer(pad, info, priv->device->id());
  return GST_PAD_PROBE_OK;
}

// A finished output in host memory, from the stream (which has sent the thread's batch): a frame
// refused after a change downstream is dropped (linkchanges.hpp).
GstFlowReturn ElementOwner::push(GstBuffer* out) {
  get_priv(self_)->refused.mark_discont(&out);
  return gst_vkcompute_filter_after_push(self_, gst_pad_push(GST_BASE_TRANSFORM_SRC_PAD(self_), out));
}

bool ElementOwner::output_joins_batch() {
  return joins_batch(self_);
}

// Elements that pass frames on and never write into them (GStreamer's core elements).
static bool passes_frames_on(GstElement* element) {
  GstElementFactory* factory = gst_element_get_factory(element);
  if (!factory) return false;
  const gchar* name = gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(factory));
  for (const char* passing : {"queue", "queue2", "tee", "capsfilter", "identity", "valve"})
    if (g_str_equal(name, passing)) return true;
  return false;
}

// Whether what `src` pushes reaches an element of ours before any other that is not passes_frames_on(),
// on every branch (a tee's), at most `depth` elements on.
static bool reaches_ours_unwritten(GstPad* src, int depth) {
  GstElement* element = vkc::element_after(src);
  if (!element) return false;
  bool reaches = GST_IS_VKCOMPUTE_FILTER(element);
  if (!reaches && depth > 0 && passes_frames_on(element)) {
    guint branches = 0, ours = 0;
    GstIterator* it = gst_element_iterate_src_pads(element);
    GValue item = G_VALUE_INIT;
    GstIteratorResult step;
    while ((step = gst_iterator_next(it, &item)) == GST_ITERATOR_OK) {
      branches++;
      ours += reaches_ours_unwritten(GST_PAD(g_value_get_object(&item)), depth - 1);
      g_value_reset(&item);
    }
    g_value_unset(&item);
    gst_iterator_free(it);
    // Pads that changed meanwhile (a resync) leave the answer unknown: no.
    reaches = step == GST_ITERATOR_DONE && branches > 0 && ours == branches;
  }
  gst_object_unref(element);
  return reaches;
}

bool ElementOwner::output_reaches_ours_unwritten() {
  return reaches_ours_unwritten(GST_BASE_TRANSFORM_SRC_PAD(self_), 8);
}

void ElementOwner::post_error(GQuark domain, gint code, const std::string& message,
                              const std::string& debug) {
  gst_element_message_full(GST_ELEMENT(self_), GST_MESSAGE_ERROR, domain, code, g_strdup(message.c_str()),
                           debug.empty() ? nullptr : g_strdup(debug.c_str()), __FILE__, GST_FUNCTION,
                           __LINE__);
}

void ElementOwner::post_warning(GQuark domain, gint code, const std::string& message) {
  gst_element_message_full(GST_ELEMENT(self_), GST_MESSAGE_WARNING, domain, code, g_strdup(message.c_str()),
                           nullptr, __FILE__, GST_FUNCTION, __LINE__);
}

GstVulkanQueue* ElementOwner::gst_vulkan_queue(GstVulkanDevice* device, GstPadDirection side) {
  return gst_vkcompute_filter_private(self_)->vulkan_context.queue_of(GST_ELEMENT(self_), device, side);
}

void ElementOwner::gst_device_not_shared(GstVulkanDevice* device, std::string why) {
  auto* priv = gst_vkcompute_filter_private(self_);
  GST_OBJECT_LOCK(self_);
  const bool told = priv->not_shared_told == device;  // compared, never read
  priv->not_shared_told = device;
  const gint index = priv->values.device_index;
  GST_OBJECT_UNLOCK(self_);
  if (told || !priv->device) return;
  if (why.empty() && device != priv->vulkan_context.device())
    why =
        "the element did not know of it at its start (no Vulkan element of GStreamer's next to it, through "
        "queues and capsfilters, had it)";
  if (why.empty())
    why = vkc::why_not_shareable(device, priv->vulkan_context.queue(), index,
                                 vkc::cuda::upstream_cuda_device(GST_ELEMENT(self_)) >= 0);
  if (why.empty()) why = "the element runs on another device of GStreamer's";
  post_warning(GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
               "GStreamer's Vulkan device " + vkc::describe_gst_device(device) + " is not shared with " +
                   GST_OBJECT_NAME(self_) + "'s Vulkan device (" + priv->device->name() + "): " + why +
                   "; frames are copied between the two through host memory");
}

void ElementOwner::post_error(GError* error) {
  if (!error)
    error = g_error_new(GST_CORE_ERROR, GST_CORE_ERROR_FAILED, "%s failed without saying why",
                        G_OBJECT_TYPE_NAME(self_));
  post_error(error->domain, error->code, error->message, "");
  g_error_free(error);
}

void ElementOwner::gpu_time(double mean_us) {
  GST_OBJECT_LOCK(self_);
  get_priv(self_)->values.gpu_time_us = mean_us;
  GST_OBJECT_UNLOCK(self_);
}

// Takes an output buffer from the pool decide_allocation() chose.
GstFlowReturn ElementOwner::acquire_output(GstBuffer* in, GstBuffer** out) {
  auto* trans = GST_BASE_TRANSFORM(self_);
  GstBufferPool* pool = gst_base_transform_get_buffer_pool(trans);
  const GstFlowReturn flow = vkc::FramePools::acquire(GST_ELEMENT(self_), pool, out);
  if (pool) gst_object_unref(pool);
  if (flow == GST_FLOW_OK) GST_BASE_TRANSFORM_GET_CLASS(trans)->copy_metadata(trans, in, *out);
  return flow;
}

void gst_vkcompute_filter_watch_new_peers(GstVkComputeFilter* self) {
  gst_pad_add_probe(GST_BASE_TRANSFORM_SRC_PAD(self), GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
                    caps_for_current_peer, self, nullptr);
}
