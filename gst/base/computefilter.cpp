#include "computefilter.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "cuda/bridge.hpp"
#include "cudapool.hpp"
#include "decodedcopies.hpp"
#include "deviceopen.hpp"
#include "deviceshare.hpp"
#include "filterprivate.hpp"
#include "gstvk/library.hpp"
#include "memorycaps.hpp"
#include "vk/batch.hpp"
#include "vulkanpool.hpp"

// deviceopen, filterdownstream, framestream and linkchanges log in it too
GST_DEBUG_CATEGORY(gst_vkcompute_filter_debug);
#define GST_CAT_DEFAULT gst_vkcompute_filter_debug

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE(GstVkComputeFilter, gst_vkcompute_filter, GST_TYPE_BASE_TRANSFORM)

GstVkComputeFilterPrivate* gst_vkcompute_filter_private(GstVkComputeFilter* self) {
  return static_cast<GstVkComputeFilterPrivate*>(gst_vkcompute_filter_get_instance_private(self));
}

static GstVkComputeFilterPrivate* get_priv(GstVkComputeFilter* self) {
  return gst_vkcompute_filter_private(self);
}

void gst_vkcompute_filter_set_operation(GstVkComputeFilter* self, std::unique_ptr<vkc::Operation> operation) {
  get_priv(self)->operation = std::move(operation);
}

void gst_vkcompute_filter_post_exception(GstVkComputeFilter* self, const std::exception& e) {
  GST_ELEMENT_ERROR(self, RESOURCE, FAILED, ("Vulkan operation failed: %s", e.what()), (nullptr));
}

// Whether frames pass through untouched with the current caps (an analysis, unless its settings make
// it draw into the frame): the input is pushed at once and completed later. Otherwise the element
// writes an output buffer per frame.
static gboolean passes_through(GstVkComputeFilter* self) {
  auto* priv = get_priv(self);
  return priv->stream && priv->stream->passthrough();
}

// Waits until every frame in flight has left (filters' outputs pushed, analysis results posted).
// Used before any serialized event so that buffers, messages and events leave in the order they
// came.
static GstFlowReturn drain(GstVkComputeFilter* self) {
  auto* priv = get_priv(self);
  return priv->stream ? priv->stream->drain() : GST_FLOW_OK;
}

static gboolean gst_vkcompute_filter_start(GstBaseTransform* trans) {
  auto* self = GST_VKCOMPUTE_FILTER(trans);
  auto* priv = get_priv(self);
  GST_OBJECT_LOCK(self);
  gint index = priv->values.device_index;
  GST_OBJECT_UNLOCK(self);

  auto device = vkc::open_device(GST_ELEMENT(self), index);
  if (!device) return FALSE;
  // Beside GStreamer's Vulkan elements, on their device where it can run our work (deviceshare.hpp);
  // where it cannot, the first frame of theirs says why.
  priv->vulkan_context.start(GST_ELEMENT(self), *device, vkc::vulkan_element_near(GST_ELEMENT(self)));
  std::string not_shared;
  GstObject* gst_device = nullptr;
  if (auto shared = vkc::share_gst_device(GST_ELEMENT(self), priv->vulkan_context, index, not_shared)) {
    device = std::move(shared);
    gst_device = GST_OBJECT(gst_object_ref(priv->vulkan_context.device()));
  }
  try {
    priv->stream = std::make_unique<vkc::FrameStream>(device, *priv->operation, priv->owner,
                                                      GST_OBJECT_NAME(self), priv->values.counts);
  } catch (const std::exception& e) {
    if (gst_device) gst_object_unref(gst_device);
    gst_vkcompute_filter_post_exception(self, e);
    return FALSE;
  }
  priv->refused.restart_count();
  priv->pools = std::make_unique<vkc::FramePools>(device, priv->values.counts, kVkComputeFramesInFlight);
  priv->device = std::move(device);
  GST_OBJECT_LOCK(self);
  priv->not_shared_told = nullptr;
  priv->values.device_name = priv->device->name();
  priv->values.opened_index = priv->device->index();
  priv->values.opened_id = priv->device->id();
  gst_object_replace(&priv->values.gst_vulkan_device, gst_device);
  priv->values.running = true;
  GST_OBJECT_UNLOCK(self);
  g_object_notify(G_OBJECT(self), "device-name");
  g_object_notify(G_OBJECT(self), "device-index");
  if (!not_shared.empty()) priv->owner.gst_device_not_shared(priv->vulkan_context.device(), not_shared);
  if (gst_device) {
    gst_object_unref(gst_device);
    g_object_notify(G_OBJECT(self), "gst-vulkan-device");
  }
  return TRUE;
}

// Everything start() set up, released: stop(), or finalize() of an element dropped while running.
static void release_streaming(GstVkComputeFilter* self) {
  auto* priv = get_priv(self);
  GST_OBJECT_LOCK(self);
  priv->values.running = false;
  gst_object_replace(&priv->values.gst_vulkan_device, nullptr);
  GST_OBJECT_UNLOCK(self);
  const gint64 start = g_get_monotonic_time();
  priv->stream.reset();  // hands its frames over
  const gint64 stream_ended = g_get_monotonic_time();
  priv->pools.reset();
  const gint64 pools_freed = g_get_monotonic_time();
  priv->device.reset();
  priv->vulkan_context.stop();
  // What a stop costs (a live pipeline's NULL waits for it).
  GST_DEBUG_OBJECT(self,
                   "released in %" G_GINT64_FORMAT " us: its frames %" G_GINT64_FORMAT
                   " us, pools %" G_GINT64_FORMAT " us, device %" G_GINT64_FORMAT " us",
                   g_get_monotonic_time() - start, stream_ended - start, pools_freed - stream_ended,
                   g_get_monotonic_time() - pools_freed);
}

static gboolean gst_vkcompute_filter_stop(GstBaseTransform* trans) {
  release_streaming(GST_VKCOMPUTE_FILTER(trans));
  return TRUE;
}

// Serialized events and queries from upstream wait until the start has ended (startgate.hpp), or the
// pad flushes (a start that failed, a stop).
static void wait_for_start(GstVkComputeFilter* self) {
  GstPad* sink = GST_BASE_TRANSFORM_SINK_PAD(self);
  get_priv(self)->start_gate.wait([sink] { return GST_PAD_IS_FLUSHING(sink); });
}

static GstStateChangeReturn gst_vkcompute_filter_change_state(GstElement* element,
                                                              GstStateChange transition) {
  auto* priv = get_priv(GST_VKCOMPUTE_FILTER(element));
  const bool starts = transition == GST_STATE_CHANGE_READY_TO_PAUSED;
  if (starts) priv->start_gate.begin();
  // A stop waits for the streaming thread to leave the element, which may be waiting to submit:
  // its submissions go first meanwhile (vkc::QueueLock).
  std::shared_ptr<vkc::Device> hurried;
  const std::thread::id thread = priv->streaming_thread.load(std::memory_order_relaxed);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY && priv->device && thread != std::thread::id()) {
    hurried = priv->device;
    hurried->hurry(thread, true);
  }
  const GstStateChangeReturn result =
      GST_ELEMENT_CLASS(gst_vkcompute_filter_parent_class)->change_state(element, transition);
  if (hurried) hurried->hurry(thread, false);
  if (starts) priv->start_gate.end();
  return result;
}

// A context from the application or the bin (one a neighbour posted): the CUDA context of NVIDIA's
// elements, for the GPU of the element's device once it is open, or the instance of GStreamer's
// Vulkan elements.
static void gst_vkcompute_filter_set_context(GstElement* element, GstContext* context) {
  auto* priv = get_priv(GST_VKCOMPUTE_FILTER(element));
  priv->cuda_context.set(element, context, priv->device.get());
  priv->vulkan_context.set(element, context);
  GST_ELEMENT_CLASS(gst_vkcompute_filter_parent_class)->set_context(element, context);
}

static gboolean gst_vkcompute_filter_set_caps(GstBaseTransform* trans, GstCaps* incaps, GstCaps* outcaps) {
  auto* self = GST_VKCOMPUTE_FILTER(trans);
  auto* priv = get_priv(self);
  if (!priv->device) {  // caps from upstream before a start that failed
    GST_ERROR_OBJECT(self, "caps %" GST_PTR_FORMAT " before the element started", incaps);
    return FALSE;
  }
  // Frames in flight belong to the previous caps: they leave before the new caps event.
  drain(self);
  GstVideoInfo in, out;
  if (!gst_video_info_from_caps(&in, incaps) || !gst_video_info_from_caps(&out, outcaps)) {
    GST_ERROR_OBJECT(self, "invalid caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
  const bool out_device_caps = vkc::caps_in_device_memory(outcaps);
  // Outputs go in device memory, leaving at submit, under such caps, and under system-memory caps
  // before a tee with an element of ours behind it (vkc::device_frames_behind_fan_out()). Under CUDA
  // caps they go in the CUDA memory of the pool decide_allocation() chose.
  const bool out_device =
      out_device_caps || (vkc::structures_in_cuda_memory_count(outcaps) == 0 &&
                          vkc::device_frames_behind_fan_out(trans->srcpad, priv->device->id()));
  priv->refused.restart_count();
  GError* error = nullptr;
  try {
    if (!priv->stream->configure(in, out, vkc::caps_in_device_memory(incaps), out_device, out_device_caps,
                                 &error)) {
      priv->owner.post_error(error);
      return FALSE;
    }
  } catch (const std::exception& e) {
    gst_vkcompute_filter_post_exception(self, e);
    return FALSE;
  }
  // GstBaseTransform has just chosen passthrough for equal caps; an analysis element that draws
  // into its frames, or whose frames move between host and device memory, needs output buffers.
  const bool passthrough = priv->stream->wants_passthrough();
  if (!passthrough && vkc::caps_in_vulkan_buffer_memory(outcaps)) {
    // Frames are written in GStreamer's Vulkan images (vulkanoutputs.hpp), not in its buffers.
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION,
                      ("%s writes new frames, and cannot write them in GStreamer's Vulkan buffer memory "
                       "(memory:VulkanBuffer): put vulkandownload before it",
                       GST_OBJECT_NAME(self)),
                      ("output caps %" GST_PTR_FORMAT, outcaps));
    return FALSE;
  }
  priv->stream->set_passthrough(passthrough);
  gst_base_transform_set_passthrough(trans, passthrough);
  GST_DEBUG_OBJECT(self, "configured %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT "%s", incaps, outcaps,
                   passthrough ? ", passing frames through" : "");
  return TRUE;
}

static gboolean gst_vkcompute_filter_propose_allocation(GstBaseTransform* trans, GstQuery*, GstQuery* query) {
  auto* self = GST_VKCOMPUTE_FILTER(trans);
  auto* priv = get_priv(self);
  // Asked on the thread of the element upstream, before its frames: a Vulkan decoder's frames on its
  // device are made up front, and copied on its thread when they cross a queue (decodedcopies.hpp).
  GstCaps* caps = nullptr;
  gst_query_parse_allocation(query, &caps, nullptr);
  GstCaps* vulkan = caps ? vkc::structures_in_vulkan_memory(caps) : nullptr;
  const bool decoded = vulkan && !gst_caps_is_empty(vulkan) && priv->device && priv->device->adopted() &&
                       vkc::take_decoded_frames(GST_ELEMENT(self), priv->device);
  if (vulkan) gst_caps_unref(vulkan);
  if (!priv->pools || !priv->pools->propose(query, passes_through(self), trans->srcpad)) return FALSE;
  if (decoded && gst_query_get_n_allocation_pools(query) > 0) {
    GstBufferPool* pool = nullptr;
    guint size = 0, min = 0, max = 0;
    gst_query_parse_nth_allocation_pool(query, 0, &pool, &size, &min, &max);
    min = std::max(min, vkc::kDecodedFramesUpFront);
    gst_query_set_nth_allocation_pool(query, 0, pool, size, min, max == 0 ? 0 : std::max(min, max));
    if (pool) gst_object_unref(pool);
  }
  return TRUE;
}

// Outputs in our memory come from a pool of ours (framepools.hpp); in CUDA memory, from a pool of
// GStreamer's CUDA memory (cudapool.hpp) in the context shared with the CUDA elements around; in
// GStreamer's Vulkan image memory, from a pool of GStreamer's images (vulkanpool.hpp) on the device
// of the Vulkan elements downstream.
static gboolean gst_vkcompute_filter_decide_allocation(GstBaseTransform* trans, GstQuery* query) {
  auto* self = GST_VKCOMPUTE_FILTER(trans);
  auto* priv = get_priv(self);
  if (!priv->pools || !priv->stream) return FALSE;
  GstCaps* caps = nullptr;
  gst_query_parse_allocation(query, &caps, nullptr);
  GstCaps* vulkan = caps ? vkc::structures_in_vulkan_memory(caps) : nullptr;
  const bool in_vulkan_memory = vulkan && !gst_caps_is_empty(vulkan);
  if (vulkan) gst_caps_unref(vulkan);
  std::string error;
  if (in_vulkan_memory) {
    if (vkc::decide_vulkan_image_pool(GST_ELEMENT(self), query, priv->vulkan_context,
                                      kVkComputeFramesInFlight, error))
      return TRUE;
    GST_ELEMENT_ERROR(self, RESOURCE, FAILED,
                      ("No pool of GStreamer's Vulkan images for the output frames: %s.", error.c_str()),
                      (nullptr));
    return FALSE;
  }
  if (!caps || vkc::structures_in_cuda_memory_count(caps) == 0)
    return priv->pools->decide(query, priv->stream->out_device());
  if (vkc::decide_cuda_pool(GST_ELEMENT(self), query, priv->cuda_context,
                            vkc::cuda::device_ordinal(*priv->device), kVkComputeFramesInFlight, error))
    return TRUE;
  GST_ELEMENT_ERROR(self, RESOURCE, FAILED,
                    ("No pool of CUDA memory for the output frames: %s.", error.c_str()), (nullptr));
  return FALSE;
}

// One input frame, submitted by the stream (framestream.hpp). An output in host memory leaves when
// the GPU is done; one in device memory, and the input of an analysis element that passes it
// through, leave now, through GstBaseTransform.
static GstFlowReturn gst_vkcompute_filter_generate_output(GstBaseTransform* trans, GstBuffer** outbuf) {
  auto* self = GST_VKCOMPUTE_FILTER(trans);
  auto* priv = get_priv(self);
  *outbuf = nullptr;
  GstBuffer* inbuf = std::exchange(trans->queued_buf, nullptr);
  if (!inbuf) return GST_FLOW_OK;
  GstFlowReturn flow = priv->stream->submit(inbuf, trans->segment, outbuf);
  if (flow != GST_FLOW_OK) return flow;
  // A reconfigure that came while this frame was on its way (a tee's new branch) applies before
  // its output leaves; negotiation drains the frames in flight under the old caps first.
  if (*outbuf) flow = vkc::negotiate_before_push(trans, outbuf);
  if (*outbuf) priv->refused.mark_discont(outbuf);
  priv->base_pushes = *outbuf != nullptr;
  return flow;
}

// Configures the current caps again (set_caps drains the frames in flight and chooses passthrough
// from the operation's mode()) and marks the source pad for reconfiguration, so that the allocation
// query that follows gives frames drawn into a pool, or drops it when they pass through.
static gboolean configure_again(GstBaseTransform* trans) {
  GstCaps* incaps = gst_pad_get_current_caps(trans->sinkpad);
  GstCaps* outcaps = gst_pad_get_current_caps(trans->srcpad);
  gboolean configured = TRUE;
  if (incaps && outcaps) {  // before the first caps there is nothing to switch: set_caps will ask
    GST_DEBUG_OBJECT(trans, "the operation's mode changed: configuring the caps again");
    configured = gst_vkcompute_filter_set_caps(trans, incaps, outcaps);
    gst_pad_mark_reconfigure(trans->srcpad);
  }
  if (incaps) gst_caps_unref(incaps);
  if (outcaps) gst_caps_unref(outcaps);
  return configured;
}

// An analysis element's mode() may change while PLAYING (histogram's draw), but
// GstBaseTransform calls set_caps again only for caps that differ (a reconfigure with the same
// caps only queries allocation). So each frame checks that passthrough still matches it, and
// configures the caps again when it does not: a change applies from the next frame.
static GstFlowReturn gst_vkcompute_filter_submit_input_buffer(GstBaseTransform* trans, gboolean discont,
                                                              GstBuffer* input) {
  auto* self = GST_VKCOMPUTE_FILTER(trans);
  auto* stream = get_priv(self)->stream.get();
  if (stream && GST_VKCOMPUTE_FILTER_GET_CLASS(self)->analysis) {
    if (stream->wants_passthrough() != stream->passthrough() && !configure_again(trans)) {
      gst_buffer_unref(input);
      return GST_FLOW_NOT_NEGOTIATED;
    }
  }
  return GST_BASE_TRANSFORM_CLASS(gst_vkcompute_filter_parent_class)
      ->submit_input_buffer(trans, discont, input);
}

// GstBaseTransform treats a class without transform() as always in place and never allocates its
// output. Our frames go through generate_output(), which never calls this.
static GstFlowReturn gst_vkcompute_filter_transform(GstBaseTransform* trans, GstBuffer*, GstBuffer*) {
  GST_ELEMENT_ERROR(trans, CORE, NOT_IMPLEMENTED, (nullptr), ("transform() is not part of the frame path"));
  return GST_FLOW_NOT_SUPPORTED;
}

// The element's own transform_formats() (or the same formats), in either memory on the other pad:
// frames may move between host and device memory in any element. Frames in GStreamer's CUDA memory
// are read and written through copies on the GPU (gst/base/cudaframes.hpp) where this process has
// CUDA (else such caps are not offered, and pipelines negotiate system memory as without them): an
// analysis passes them on as they are, so such caps stay in that memory on the other pad; a filter
// writes a new frame, so any of its inputs may come, and its output may go, in CUDA memory. Frames
// of GStreamer's Vulkan elements are read through GStreamer's device (vulkanbridge.hpp) where its
// Vulkan library is in the process (our own templates name those memories too): an analysis passes
// them on in their memory; a filter takes them in, and writes its output in any memory, GStreamer's
// Vulkan images too (vulkanoutputs.hpp).
static GstCaps* gst_vkcompute_filter_transform_caps(GstBaseTransform* trans, GstPadDirection direction,
                                                    GstCaps* caps, GstCaps* filter) {
  auto* klass = GST_VKCOMPUTE_FILTER_GET_CLASS(trans);
  std::string why;
  const bool cuda = vkc::cuda::available(why);
  GstCaps* vulkan = vkc::structures_in_vulkan_memory(caps);
  const bool vulkan_in_process = vkc::gstvk::in_process() && vkc::gstvk::available(why);
  GstCaps* read = vkc::structures_in_plain_memory(caps);
  if (!klass->analysis && cuda) read = gst_caps_merge(read, vkc::structures_in_cuda_memory(caps, true));
  if (!klass->analysis && vulkan_in_process) read = gst_caps_merge(read, gst_caps_ref(vulkan));
  GstCaps* formats =
      klass->transform_formats ? klass->transform_formats(direction, read) : gst_caps_ref(read);
  gst_caps_unref(read);
  GstCaps* result = vkc::in_both_memories(formats);
  if (cuda && klass->analysis)
    result = gst_caps_merge(result, vkc::structures_in_cuda_memory(caps, true));
  else if (cuda)
    result = gst_caps_merge(result, vkc::in_cuda_memory(formats));
  if (vulkan_in_process && klass->analysis)
    result = gst_caps_merge(result, gst_caps_ref(vulkan));
  else if (vulkan_in_process)  // sink caps from src caps: both memories; src caps from sink caps: images
    result = gst_caps_merge(result, direction == GST_PAD_SRC ? vkc::in_vulkan_memory(formats)
                                                             : vkc::in_vulkan_image_memory(formats));
  gst_caps_unref(vulkan);
  gst_caps_unref(formats);
  if (!filter) return result;
  GstCaps* filtered = gst_caps_intersect_full(filter, result, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref(result);
  return filtered;
}

// Output caps: device memory when the element downstream is ours on our device, else system
// memory; then the first of what is left (an element's own fixate_caps() chains up to this).
static GstCaps* gst_vkcompute_filter_fixate_caps(GstBaseTransform* trans, GstPadDirection direction,
                                                 GstCaps* caps, GstCaps* othercaps) {
  auto* priv = get_priv(GST_VKCOMPUTE_FILTER(trans));
  if (direction == GST_PAD_SINK && priv->device) {
    othercaps = vkc::keep_memory(othercaps, vkc::peer_takes_device_memory(trans->srcpad, priv->device->id()));
    // Frames that came in CUDA memory go on in it where downstream takes it (a decoder's frames on
    // to an encoder stay on the GPU); others go in system memory where downstream takes that too.
    othercaps = vkc::keep_cuda_memory(othercaps, vkc::structures_in_cuda_memory_count(caps) > 0);
  }
  return gst_caps_fixate(othercaps);
}

// Answers the device query of the elements on either side (vkc::peer_takes_device_memory(),
// vkc::device_of_neighbours()) when the device is known, and the context queries of NVIDIA's CUDA
// elements and of GStreamer's Vulkan elements for what the element holds of theirs; else the query
// goes on past the element.
static gboolean gst_vkcompute_filter_query(GstBaseTransform* trans, GstPadDirection direction,
                                           GstQuery* query) {
  auto* self = GST_VKCOMPUTE_FILTER(trans);
  if (direction == GST_PAD_SINK) wait_for_start(self);
  GST_OBJECT_LOCK(self);
  const gint known = get_priv(self)->values.known_device();
  GST_OBJECT_UNLOCK(self);
  if (known >= 0 && vkc::answer_device_query(query, GST_ELEMENT(self), known)) return TRUE;
  if (get_priv(self)->cuda_context.answer(GST_ELEMENT(self), query)) return TRUE;
  if (get_priv(self)->vulkan_context.answer(GST_ELEMENT(self), query)) return TRUE;
  return GST_BASE_TRANSFORM_CLASS(gst_vkcompute_filter_parent_class)->query(trans, direction, query);
}

static gboolean gst_vkcompute_filter_sink_event(GstBaseTransform* trans, GstEvent* event) {
  auto* self = GST_VKCOMPUTE_FILTER(trans);
  if (GST_EVENT_IS_SERIALIZED(event)) wait_for_start(self);
  try {
    // A flush drops the frames in flight; any other serialized event follows them downstream.
    if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) {
      get_priv(self)->refused.restart_count();
      if (auto* stream = get_priv(self)->stream.get()) stream->discard();
    } else if (GST_EVENT_IS_SERIALIZED(event)) {
      drain(self);
    }
  } catch (const std::exception& e) {
    gst_vkcompute_filter_post_exception(self, e);
  }
  return GST_BASE_TRANSFORM_CLASS(gst_vkcompute_filter_parent_class)->sink_event(trans, event);
}

static void gst_vkcompute_filter_set_property(GObject* object, guint prop_id, const GValue* value,
                                              GParamSpec* pspec) {
  get_priv(GST_VKCOMPUTE_FILTER(object))->values.set(object, prop_id, value, pspec);
}

static void gst_vkcompute_filter_get_property(GObject* object, guint prop_id, GValue* value,
                                              GParamSpec* pspec) {
  get_priv(GST_VKCOMPUTE_FILTER(object))->values.get(object, prop_id, value, pspec);
}

static void gst_vkcompute_filter_finalize(GObject* object) {
  auto* self = GST_VKCOMPUTE_FILTER(object);
  // An element dropped without being set to NULL first (GStreamer has warned) still stops its
  // completion thread and hands its frames over before its members go.
  if (get_priv(self)->device) release_streaming(self);
  get_priv(self)->~GstVkComputeFilterPrivate();
  G_OBJECT_CLASS(gst_vkcompute_filter_parent_class)->finalize(object);
}

// GstBaseTransform's chain function, which ours wraps.
static GstPadChainFunction base_chain = nullptr;

// A buffer's way down the elements of ours linked one to the next, on this streaming thread, is one
// batch of GPU submissions (vkc::BatchScope): the outermost element's chain call sends what is left.
// GstBaseTransform pushes what generate_output() hands it (an output in device memory, a frame
// passed through); when that push is what failed, gst_vkcompute_filter_after_push() judges its flow as ours.
static GstFlowReturn gst_vkcompute_filter_chain(GstPad* pad, GstObject* parent, GstBuffer* buffer) {
  vkc::BatchScope scope;
  auto* self = GST_VKCOMPUTE_FILTER(parent);
  auto* priv = get_priv(self);
  priv->streaming_thread.store(std::this_thread::get_id(), std::memory_order_relaxed);
  priv->base_pushes = false;
  const GstFlowReturn flow = base_chain(pad, parent, buffer);
  return priv->base_pushes ? gst_vkcompute_filter_after_push(self, flow) : flow;
}

static void gst_vkcompute_filter_init(GstVkComputeFilter* self) {
  new (get_priv(self)) GstVkComputeFilterPrivate(self);
  GstPad* sink = GST_BASE_TRANSFORM_SINK_PAD(self);
  base_chain = GST_PAD_CHAINFUNC(sink);
  gst_pad_set_chain_function(sink, gst_vkcompute_filter_chain);
  gst_vkcompute_filter_watch_new_peers(self);
}

void gst_vkcompute_filter_class_add_pad_templates(GstVkComputeFilterClass* klass, const char* sink_caps,
                                                  const char* src_caps) {
  vkc::add_pad_templates(GST_ELEMENT_CLASS(klass), sink_caps, src_caps, vkc::VulkanMemoryOn::kImagesOut);
}

void gst_vkcompute_filter_class_init_analysis(GstVkComputeFilterClass* klass, const char* caps_string) {
  vkc::add_pad_templates(GST_ELEMENT_CLASS(klass), caps_string, caps_string, vkc::VulkanMemoryOn::kBothPads);
  GST_BASE_TRANSFORM_CLASS(klass)->passthrough_on_same_caps = TRUE;
  klass->analysis = TRUE;
}

// Which metas of an input frame its output gets when the element writes a new buffer (a copy out of
// device memory, a filter's output). An analysis's output is its input picture, in other memory or
// with histogram's graph drawn on it: the same size, orientation and colours, so the metas that
// describe the picture stay true (region-of-interest metas, GStreamer's analytics relation meta).
// What stays behind: metas tied to the input's memory, its layout (GstVideoMeta: the output's pool
// adds its own) and its crop (the output holds the visible part only, laid out whole). A filter's
// output is a new picture: GstBaseTransform's rule (metas without tags only).
static gboolean gst_vkcompute_filter_transform_meta(GstBaseTransform* trans, GstBuffer* outbuf, GstMeta* meta,
                                                    GstBuffer* inbuf) {
  if (GST_VKCOMPUTE_FILTER_GET_CLASS(trans)->analysis) {
    const GType api = meta->info->api;
    return api != GST_VIDEO_META_API_TYPE && api != GST_VIDEO_CROP_META_API_TYPE &&
           !gst_meta_api_type_has_tag(api, g_quark_from_static_string(GST_META_TAG_MEMORY_STR));
  }
  return GST_BASE_TRANSFORM_CLASS(gst_vkcompute_filter_parent_class)
      ->transform_meta(trans, outbuf, meta, inbuf);
}

static void gst_vkcompute_filter_class_init(GstVkComputeFilterClass* klass) {
  auto* gobject_class = G_OBJECT_CLASS(klass);
  auto* trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_vkcompute_filter_debug, "vkcomputefilter", 0, "vkcompute base class");

  gobject_class->set_property = gst_vkcompute_filter_set_property;
  gobject_class->get_property = gst_vkcompute_filter_get_property;
  gobject_class->finalize = gst_vkcompute_filter_finalize;
  GST_ELEMENT_CLASS(klass)->change_state = gst_vkcompute_filter_change_state;
  GST_ELEMENT_CLASS(klass)->set_context = gst_vkcompute_filter_set_context;

  vkc::install_filter_properties(gobject_class);

  trans_class->start = gst_vkcompute_filter_start;
  trans_class->stop = gst_vkcompute_filter_stop;
  trans_class->set_caps = gst_vkcompute_filter_set_caps;
  trans_class->propose_allocation = gst_vkcompute_filter_propose_allocation;
  trans_class->decide_allocation = gst_vkcompute_filter_decide_allocation;
  trans_class->submit_input_buffer = gst_vkcompute_filter_submit_input_buffer;
  trans_class->generate_output = gst_vkcompute_filter_generate_output;
  trans_class->transform = gst_vkcompute_filter_transform;
  trans_class->sink_event = gst_vkcompute_filter_sink_event;
  trans_class->transform_caps = gst_vkcompute_filter_transform_caps;
  trans_class->fixate_caps = gst_vkcompute_filter_fixate_caps;
  trans_class->query = gst_vkcompute_filter_query;
  trans_class->transform_meta = gst_vkcompute_filter_transform_meta;
  trans_class->passthrough_on_same_caps = FALSE;

  gst_type_mark_as_plugin_api(GST_TYPE_VKCOMPUTE_FILTER, GstPluginAPIFlags(0));
}
