#include "computefilter.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "framepools.hpp"
#include "heldoutputs.hpp"
#include "linkchanges.hpp"
#include "memorycaps.hpp"
#include "scheduler.hpp"
#include "staging.hpp"
#include "startgate.hpp"
#include "vk/batch.hpp"
#include "vk/kernel.hpp"
#include "vk/reaper.hpp"
#include "vk/submit.hpp"
#include "vkmemory.hpp"

GST_DEBUG_CATEGORY(gst_vkcompute_filter_debug);  // linkchanges.cpp logs in it too
#define GST_CAT_DEFAULT gst_vkcompute_filter_debug

namespace {

// A frame still running after this long stops the stream with an error rather than hold it
// forever (a device lost outright reports VK_ERROR_DEVICE_LOST at once instead).
// GST_VKCOMPUTE_FRAME_TIMEOUT_MS sets another limit, read at start.
constexpr uint64_t kFrameTimeoutNs = 10'000'000'000ull;
// How long a stop or a flush waits for the frames on the GPU before handing them over (at most the
// frame timeout): frames take micro- to milliseconds on a GPU, up to a few hundred milliseconds on
// a CPU implementation (lavapipe, large kernels), a stalled GPU forever.
constexpr uint64_t kStopWaitNs = 1'000'000'000;
constexpr guint kGpuTimeWindow = 8;  // timed frames (one in CommandRing::kTimestampInterval)
// Loads at least this wide read host memory about as fast as a transfer plus a kernel on the copy
// (NVIDIA H200, 1080p, lumamax with 64x16 tiles: RGBA's 16-byte loads 193 us in place against
// 205 us with the copy, NV12's 4-byte loads 81 us in place against 64 us; docs/benchmarks.md).
// Its 256x4 tiles since took RGBA in place to 181 us.
constexpr guint kWideLoadBytes = 16;

enum { PROP_0, PROP_DEVICE, PROP_DEVICE_NAME, PROP_GPU_TIME, PROP_UPLOADS, PROP_DOWNLOADS };

// What frames still running on the GPU may touch, once the element lets go of them (stop, or a
// flush after a frame outlived the timeout): handed to vkc::release_after_gpu() with the ring.
struct GpuLeftovers {
  std::unique_ptr<vkc::CapsState> caps_state;
  std::unique_ptr<vkc::SlotCopies> copies;
  vkc::FrameScheduler::Frames frames;
};

uint64_t frame_timeout_ns() {
  const char* env = g_getenv("GST_VKCOMPUTE_FRAME_TIMEOUT_MS");
  if (!env || !*env) return kFrameTimeoutNs;
  char* end = nullptr;
  const guint64 ms = g_ascii_strtoull(env, &end, 10);
  if (*end != '\0' || ms == 0 || ms > G_MAXUINT64 / 1'000'000) {
    GST_WARNING("ignoring GST_VKCOMPUTE_FRAME_TIMEOUT_MS=\"%s\": not a number of milliseconds", env);
    return kFrameTimeoutNs;
  }
  return ms * 1'000'000;
}

}  // namespace

struct GstVkComputeFilterPrivate {
  // Properties (object lock).
  gint device_index = -1;
  std::string device_name;

  // Streaming state, from start() to stop().
  std::shared_ptr<vkc::Device> device;
  std::unique_ptr<vkc::FramePools> pools;
  std::unique_ptr<vkc::CommandRing> ring;
  std::unique_ptr<vkc::SlotCopies> copies;  // the ring slots' staging buffers and frame copies
  // Frames from their submission until they leave, finished by its completion thread or, with a
  // full ring, by the streaming thread (scheduler.hpp).
  std::unique_ptr<vkc::FrameScheduler> scheduler;
  // Outputs in host memory finished while the streaming thread is inside a frame (heldoutputs.hpp).
  vkc::HeldOutputs held;
  guint64 submitted = 0;
  GstVideoInfo in_info;
  GstVideoInfo out_info;
  bool in_device = false;  // the sink caps have memory:VkComputeDevice
  // The source caps have it; or they are in system memory and lead to a tee with an element of ours
  // behind it (vkc::device_frames_behind_fan_out()). Outputs are then in device memory and leave
  // at submit.
  bool out_device = false;
  bool out_device_caps = false;                // the source caps have memory:VkComputeDevice
  std::unique_ptr<vkc::CapsState> caps_state;  // from configure(); the ring's frames use it
  vkc::InputPath last_path = vkc::InputPath::kOwnMemory;
  // What the element does to frames (operation.hpp), from its instance init to finalize.
  std::unique_ptr<vkc::Operation> operation;
  // Streaming thread: generate_output() last handed GstBaseTransform a buffer to push (see
  // gst_vkcompute_filter_chain()).
  bool base_pushes = false;
  // Pushes refused after a change downstream, their frames dropped (after_push()): more than a ring
  // of frames under the old caps is an error.
  vkc::RefusedPushes refused{kVkComputeFramesInFlight + 1};
  // Written by the streaming thread with no frame in flight, read by allocation queries too: see
  // passes_through().
  std::atomic<bool> passthrough{false};
  uint64_t frame_timeout_ns = kFrameTimeoutNs;  // from start()
  // Completion thread: GPU time of completed timed frames, from timestamp queries, logged every
  // kGpuTimeWindow of them.
  double gpu_ns = 0;
  guint gpu_frames = 0;
  double gpu_time_us = 0;  // object lock: the mean of the last complete window, for `gpu-time`
  // Marked by change_state() while READY to PAUSED runs start(), which opens the device.
  vkc::StartGate start_gate;
  // `uploads` and `downloads` since the last start; the device allocator counts CPU maps.
  std::shared_ptr<vkc::TransferCounts> counts = std::make_shared<vkc::TransferCounts>();
};

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE(GstVkComputeFilter, gst_vkcompute_filter, GST_TYPE_BASE_TRANSFORM)

static GstVkComputeFilterPrivate* get_priv(GstVkComputeFilter* self) {
  return static_cast<GstVkComputeFilterPrivate*>(gst_vkcompute_filter_get_instance_private(self));
}

void gst_vkcompute_filter_set_operation(GstVkComputeFilter* self, std::unique_ptr<vkc::Operation> operation) {
  get_priv(self)->operation = std::move(operation);
}

static void post_gerror(GstVkComputeFilter* self, GError* error, const char* debug) {
  if (!error)
    error = g_error_new(GST_CORE_ERROR, GST_CORE_ERROR_FAILED, "%s failed without saying why",
                        G_OBJECT_TYPE_NAME(self));
  gst_element_message_full(GST_ELEMENT(self), GST_MESSAGE_ERROR, error->domain, error->code,
                           g_strdup(error->message), debug ? g_strdup(debug) : nullptr, __FILE__,
                           GST_FUNCTION, __LINE__);
  g_error_free(error);
}

static void post_exception(GstVkComputeFilter* self, const std::exception& e) {
  GST_ELEMENT_ERROR(self, RESOURCE, FAILED, ("Vulkan operation failed: %s", e.what()), (nullptr));
}

// Logs the mean GPU time per frame every kGpuTimeWindow timed frames (GST_DEBUG=vkcomputefilter:4).
static void note_gpu_time(GstVkComputeFilter* self, double ns) {
  auto* priv = get_priv(self);
  if (ns < 0) return;
  priv->gpu_ns += ns;
  if (++priv->gpu_frames < kGpuTimeWindow) return;
  const double mean_us = priv->gpu_ns / priv->gpu_frames / 1000.0;
  GST_INFO_OBJECT(self, "GPU time per frame: %.1f us (mean of %u frames)", mean_us, priv->gpu_frames);
  GST_OBJECT_LOCK(self);
  priv->gpu_time_us = mean_us;
  GST_OBJECT_UNLOCK(self);
  priv->gpu_ns = 0;
  priv->gpu_frames = 0;
}

// Whether frames pass through untouched with the current caps (analysis elements, unless their
// settings make them draw into the frame): the input is pushed at once and completed later.
// Otherwise the element writes an output buffer per frame.
static gboolean passes_through(GstVkComputeFilter* self) {
  return get_priv(self)->passthrough;
}

// Whether frames should pass through untouched with the current caps and settings: an analysis
// (not drawing) whose frames stay in the same kind of memory.
static bool wants_passthrough(GstVkComputeFilter* self) {
  auto* priv = get_priv(self);
  // Under system-memory caps any memory goes; frames that arrive in device memory and would leave
  // in host memory are copied for stock elements (a download on the GPU, not a read back at each
  // map), unless an element of ours downstream will read them.
  const bool same_memory = priv->in_device == priv->out_device_caps || (priv->in_device && priv->out_device);
  return priv->operation->mode() == vkc::Mode::kAnalysis && same_memory;
}

// The flow of a push of ours: a frame refused after a change downstream is dropped (linkchanges.hpp).
static GstFlowReturn after_push(GstVkComputeFilter* self, GstFlowReturn flow) {
  return get_priv(self)->refused.judge(GST_OBJECT(self), GST_BASE_TRANSFORM_SRC_PAD(self), flow);
}

// Whether a frame's work may wait in the streaming thread's batch (vkc::BatchScope) once submitted:
// its output stays in device memory and goes straight into another element of ours, on this thread,
// whose work joins the batch too, down to the chain's last element, which sends it. Correctness does
// not depend on it: whoever reads the output, on any thread, sends the batch first
// (vkc::order_after_write()). A stock element may hold the frame, or block the thread, for long:
// the work goes now, so that it runs meanwhile.
static bool joins_batch(GstVkComputeFilter* self) {
  if (!get_priv(self)->out_device) return false;
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
      post_exception(self, e);
    }
  }
  if (priv->device) vkc::system_memory_for_new_peer(pad, info, priv->device->index());
  return GST_PAD_PROBE_OK;
}

// Pushes a finished output in host memory. On the streaming thread the push may block downstream
// (a sink's clock, a full queue, a paused pipeline): the work of the elements above, left in the
// thread's batch, is sent first, or their frames would outlive the timeout while they wait. A
// submission that fails there is this element's error (no exception leaves into GStreamer).
static GstFlowReturn push_output(GstVkComputeFilter* self, GstBuffer* out) {
  try {
    vkc::batch::flush();
  } catch (const std::exception& e) {
    gst_buffer_unref(out);
    post_exception(self, e);
    return GST_FLOW_ERROR;
  }
  get_priv(self)->refused.mark_discont(&out);
  return after_push(self, gst_pad_push(GST_BASE_TRANSFORM_SRC_PAD(self), out));
}

// One submitted frame, finished by the scheduler (its completion thread, or the streaming thread
// when the ring is full) the moment the GPU is done: an analysis element completes it (posts its
// result) and an output in host memory leaves, or joins the outputs held while the streaming
// thread is inside a frame.
class FrameWork : public vkc::FrameScheduler::Work {
 public:
  explicit FrameWork(GstVkComputeFilter* self) : self_(self) {}
  ~FrameWork() override { release(); }

  GstFlowReturn finish() override {
    auto* priv = get_priv(self_);
    priv->operation->complete(*priv->caps_state, frame);
    note_gpu_time(self_, priv->ring->gpu_time_ns(frame.slot));
    GstBuffer* out = std::exchange(frame.outbuf, nullptr);
    release();  // the input goes back upstream before the output goes on
    if (!out || priv->held.take(out)) return GST_FLOW_OK;
    return push_output(self_, out);
  }

  // Only an output in host memory is pushed when the frame is done (one in device memory left at
  // submit): posting a result or letting go of the input does not block. A timed frame's queries
  // are read too, which on lavapipe waits until the device is idle (2-78 ms with other pipelines'
  // frames queued): the completion service's thread, which looks at every element of the device,
  // must not wait there.
  bool may_block() const override {
    return frame.outbuf != nullptr || get_priv(self_)->ring->timed(frame.slot);
  }

  vkc::Frame frame;
  vkc::InputBinding input;

 private:
  void release() {
    input.release();
    gst_clear_buffer(&frame.outbuf);
    gst_clear_buffer(&frame.inbuf);
  }
  // Not used by the destructor: frames handed over at stop may outlive the element.
  GstVkComputeFilter* self_;
};

// The one error of a frame that did not complete. A slow frame is not a lost device: the driver
// says when the device is lost, and a frame that is merely slow keeps its memory until it ends.
static void post_gpu_failure(GstVkComputeFilter* self, vkc::Completion status) {
  auto* priv = get_priv(self);
  const std::string& device = priv->device->name();
  if (status == vkc::Completion::kLost)
    GST_ELEMENT_ERROR(self, RESOURCE, FAILED, ("The Vulkan device %s was lost.", device.c_str()),
                      ("VK_ERROR_DEVICE_LOST while waiting for a frame: the driver reset or removed the "
                       "device; the frames in flight are dropped"));
  else {
    // Milliseconds below a second: a limit lowered with GST_VKCOMPUTE_FRAME_TIMEOUT_MS reads as set.
    const double ms = priv->frame_timeout_ns / 1e6;
    gchar* limit = ms < 1000 ? g_strdup_printf("%.0f ms", ms) : g_strdup_printf("%.1f s", ms / 1000);
    GST_ELEMENT_ERROR(
        self, RESOURCE, FAILED,
        ("A frame took longer than %s on the Vulkan device %s; the stream stops.", limit, device.c_str()),
        ("the device is not lost, only slow for these settings; the frame's memory is "
         "kept until it completes. GST_VKCOMPUTE_FRAME_TIMEOUT_MS sets the limit"));
    g_free(limit);
  }
}

// Waits until every frame in flight has left (filters' outputs pushed, analysis results posted).
// Used before any serialized event so that buffers, messages and events leave in the order they
// came.
static GstFlowReturn drain(GstVkComputeFilter* self) {
  auto* priv = get_priv(self);
  return priv->scheduler ? priv->scheduler->drain() : GST_FLOW_OK;
}

// Releases frames that the GPU may still run (a stop, a flush after a frame outlived the timeout).
// Frames that end within a short wait release their buffers here, before the state change returns,
// as a stock element's would: an input's memory goes back upstream (an application's wrapped memory
// gets its notify) and a leak check right after NULL finds nothing. Slower ones are handed over with
// the ring and everything else they may touch, to be freed once they end: memory the GPU may still
// write is never freed, and a state change never waits for a slow frame. Nothing is submitted after
// a hand-over until stop.
static void release_after_gpu(GstVkComputeFilter* self, vkc::FrameScheduler::Frames frames) {
  auto* priv = get_priv(self);
  if (frames.empty()) return;
  // Done, or the device is lost (the driver no longer touches their memory).
  if (priv->ring->wait_all(std::min(kStopWaitNs, priv->frame_timeout_ns)) != vkc::Completion::kPending) {
    frames.clear();
    return;
  }
  auto leftovers = std::make_shared<GpuLeftovers>();
  leftovers->caps_state = std::move(priv->caps_state);
  leftovers->copies = std::move(priv->copies);
  leftovers->frames = std::move(frames);
  priv->scheduler->stop();  // its fence waits use the ring
  vkc::release_after_gpu(std::move(priv->ring), std::move(leftovers));
}

// A CPU implementation of Vulkan (Mesa's lavapipe) runs the kernels on the host's cores, far
// slower than a GPU and than the CPU elements ours replace. When the automatic choice lands on
// one (no GPU listed, or none usable) the user may not know: an element warning, which
// gst-launch-1.0 prints, at every start. A device the user named (`device`, GST_VKCOMPUTE_DEVICE)
// was chosen knowingly: it is only logged.
static void report_cpu_device(GstVkComputeFilter* self, const vkc::Device& device,
                              const vkc::DeviceChoiceInfo& info) {
  if (!device.is_cpu()) return;
  if (info.choice != vkc::DeviceChoice::kAutomatic) {
    GST_INFO_OBJECT(
        self, "Vulkan device %d (%s) is a CPU implementation, chosen by %s", device.index(),
        device.name().c_str(),
        info.choice == vkc::DeviceChoice::kIndex ? "the device property" : "GST_VKCOMPUTE_DEVICE");
    return;
  }
  const std::string why = info.passed_over.empty()
                              ? "The Vulkan loader lists " + std::to_string(info.listed) +
                                    " device(s), none of them a GPU; a GPU needs its vendor's Vulkan driver."
                              : "The automatic choice passed over: " + info.passed_over + ".";
  GST_ELEMENT_WARNING(self, RESOURCE, NOT_FOUND,
                      ("The Vulkan device chosen automatically, %s, is a CPU implementation of Vulkan, not a "
                       "GPU: frames are processed on the CPU and will be slow. No usable GPU was found; to "
                       "run on one, pick it with the device property (device=N) or GST_VKCOMPUTE_DEVICE=N.",
                       device.name().c_str()),
                      ("Vulkan device %d. %s vulkaninfo --summary lists the devices in the order of their "
                       "indices.",
                       device.index(), why.c_str()));
}

static gboolean gst_vkcompute_filter_start(GstBaseTransform* trans) {
  auto* self = GST_VKCOMPUTE_FILTER(trans);
  auto* priv = get_priv(self);
  GST_OBJECT_LOCK(self);
  gint index = priv->device_index;
  GST_OBJECT_UNLOCK(self);

  std::string error;
  vkc::DeviceChoiceInfo choice;
  auto device = vkc::Device::acquire(index, error, &choice);
  if (!device) {
    GST_ELEMENT_ERROR(self, RESOURCE, NOT_FOUND, ("No usable Vulkan device: %s.", error.c_str()),
                      ("device property %d, GST_VKCOMPUTE_DEVICE=%s", index,
                       g_getenv("GST_VKCOMPUTE_DEVICE") ? g_getenv("GST_VKCOMPUTE_DEVICE") : "(unset)"));
    return FALSE;
  }
  try {
    priv->ring = std::make_unique<vkc::CommandRing>(device, kVkComputeFramesInFlight, GST_OBJECT_NAME(self),
                                                    vkc::CommandRing::default_timestamp_interval());
  } catch (const std::exception& e) {
    post_exception(self, e);
    return FALSE;
  }
  priv->copies = std::make_unique<vkc::SlotCopies>(device, *priv->ring);
  priv->frame_timeout_ns = frame_timeout_ns();
  priv->scheduler = std::make_unique<vkc::FrameScheduler>(
      kVkComputeFramesInFlight, priv->frame_timeout_ns,
      [ring = priv->ring.get()](uint32_t slot, uint64_t& eta_ns) { return ring->status(slot, &eta_ns); },
      [self](vkc::Completion status) { post_gpu_failure(self, status); },
      vkc::CompletionService::for_device(*device),
      // The streaming thread may wait long for a worker (its push blocked downstream): the work of
      // the elements above, left in its batch, must not wait with it.
      [] { vkc::batch::flush(); });
  priv->counts->uploads = 0;
  priv->counts->downloads = 0;
  priv->refused.restart_count();
  priv->pools = std::make_unique<vkc::FramePools>(device, priv->counts, kVkComputeFramesInFlight);
  priv->device = std::move(device);
  GST_OBJECT_LOCK(self);
  priv->device_name = priv->device->name();
  GST_OBJECT_UNLOCK(self);
  g_object_notify(G_OBJECT(self), "device-name");
  GST_INFO_OBJECT(self, "using Vulkan device %d: %s", priv->device->index(), priv->device->name().c_str());
  report_cpu_device(self, *priv->device, choice);
  return TRUE;
}

// Everything start() set up, released: stop(), or finalize() of an element dropped while running.
static void release_streaming(GstVkComputeFilter* self) {
  auto* priv = get_priv(self);
  if (priv->scheduler) release_after_gpu(self, priv->scheduler->stop());
  priv->scheduler.reset();
  priv->caps_state.reset();  // after the frames that used it
  priv->ring.reset();
  priv->copies.reset();
  priv->pools.reset();
  priv->device.reset();
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
  const GstStateChangeReturn result =
      GST_ELEMENT_CLASS(gst_vkcompute_filter_parent_class)->change_state(element, transition);
  if (starts) priv->start_gate.end();
  return result;
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
  if (!gst_video_info_from_caps(&priv->in_info, incaps) ||
      !gst_video_info_from_caps(&priv->out_info, outcaps)) {
    GST_ERROR_OBJECT(self, "invalid caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps);
    return FALSE;
  }
  priv->in_device = vkc::caps_in_device_memory(incaps);
  priv->out_device_caps = vkc::caps_in_device_memory(outcaps);
  priv->out_device =
      priv->out_device_caps || vkc::device_frames_behind_fan_out(trans->srcpad, priv->device->index());
  priv->refused.restart_count();
  GError* error = nullptr;
  try {
    // The old state goes first: a device has limited memory for two sets of kernels and buffers.
    priv->caps_state.reset();
    priv->caps_state = priv->operation->configure(priv->device, priv->in_info, priv->out_info, &error);
    if (!priv->caps_state) {
      post_gerror(self, error, nullptr);
      return FALSE;
    }
  } catch (const std::exception& e) {
    post_exception(self, e);
    return FALSE;
  }
  // GstBaseTransform has just chosen passthrough for equal caps; an analysis element that draws
  // into its frames, or whose frames move between host and device memory, needs output buffers.
  const bool passthrough = wants_passthrough(self);
  priv->passthrough = passthrough;
  gst_base_transform_set_passthrough(trans, passthrough);
  GST_DEBUG_OBJECT(self, "configured %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT "%s", incaps, outcaps,
                   priv->passthrough ? ", passing frames through" : "");
  return TRUE;
}

static gboolean gst_vkcompute_filter_propose_allocation(GstBaseTransform* trans, GstQuery*, GstQuery* query) {
  auto* self = GST_VKCOMPUTE_FILTER(trans);
  auto* priv = get_priv(self);
  return priv->pools && priv->pools->propose(query, passes_through(self), trans->srcpad);
}

static gboolean gst_vkcompute_filter_decide_allocation(GstBaseTransform* trans, GstQuery* query) {
  auto* priv = get_priv(GST_VKCOMPUTE_FILTER(trans));
  return priv->pools && priv->pools->decide(query, priv->out_device);
}

// Orders a frame's commands after every command submitted before on the device's compute queue,
// which every element's kernels share: a frame in device memory was written by the element
// upstream's work, and the output buffers written here may still be read by the work of the
// element downstream. Both are ahead in the queue: the input's write because binding it sent the
// batch that held it (vkc::order_after_write()), the earlier reads because their frames hold the
// buffers until they are done. So the queue's order and this barrier suffice: no CPU wait. (The copy
// queues touch only a slot's own copies and host memory, ordered by the slot's semaphores:
// vkc::ChainEnds.)
static void record_after_earlier_work(vk::CommandBuffer cmd) {
  using Stage = vk::PipelineStageFlagBits;
  using Access = vk::AccessFlagBits;
  vk::MemoryBarrier earlier{.srcAccessMask = Access::eShaderWrite | Access::eTransferWrite,
                            .dstAccessMask = Access::eShaderRead | Access::eShaderWrite |
                                             Access::eTransferRead | Access::eTransferWrite};
  cmd.pipelineBarrier(Stage::eComputeShader | Stage::eTransfer, Stage::eComputeShader | Stage::eTransfer, {},
                      earlier, nullptr, nullptr);
}

// An analysis element that outputs buffers (drawing into them, or moving its frames between host
// and device memory) copies each frame into its output first. Its kernels then read the device
// copy when there is one: that copy is the frame's one upload.
static void record_analysis_output(GstVkComputeFilter* self, vkc::Frame& frame) {
  auto* priv = get_priv(self);
  if (!GST_VKCOMPUTE_FILTER_GET_CLASS(self)->analysis || !frame.outbuf) return;
  vkc::record_frame_copy(frame.cmd, priv->in_info, frame.in, frame.out);
  if (frame.out.device_local && !frame.in.device_local) frame.in = frame.out;
}

// Stages the frame's input as the caps state's input_reads declare (see vkc::InputReads).
static void stage_input(GstVkComputeFilter* self, vkc::Frame& frame) {
  auto* priv = get_priv(self);
  const vkc::InputReads& reads = priv->caps_state->input_reads;
  const GstVideoInfo& info = priv->in_info;
  const guint x1 = MIN(frame.x1, guint(GST_VIDEO_INFO_WIDTH(&info)));
  if (reads.planes == 0 || frame.in.device_local || !priv->device->features().copy_input_to_device ||
      reads.load_bytes >= kWideLoadBytes || 2 * (x1 - MIN(frame.x0, x1)) < guint(GST_VIDEO_INFO_WIDTH(&info)))
    return;
  const vkc::FrameLayout copy = priv->copies->kernel_input_copy(info, frame.in, reads.planes);
  vkc::record_frame_copy(frame.cmd, info, frame.in, copy,
                         {.end_plane = reads.planes, .y0 = frame.y0, .y1 = frame.y1});
  frame.in = copy;
}

// A frame in several memories (InputBinding::record_gather()) is copied by the GPU into the slot's
// input copy, before the frame's start barrier, which orders the copies before the kernels.
static void gather_input(GstVkComputeFilter* self, vkc::Frame& frame, const vkc::InputBinding& input) {
  auto* priv = get_priv(self);
  if (input.path() != vkc::InputPath::kGathered) return;
  frame.in.buffer = priv->copies->input_copy(frame.slot, gst_buffer_get_size(frame.inbuf));
  input.record_gather(frame.cmd, frame.in.buffer);
}

// Records and submits the GPU work of a bound frame.
static gboolean record_and_submit(GstVkComputeFilter* self, vkc::Frame& frame, const vkc::InputBinding& input,
                                  GError** error) {
  auto* priv = get_priv(self);
  frame.cmd = priv->ring->begin(frame.slot);
  gather_input(self, frame, input);
  vkc::ChainEnds ends(*priv->ring, *priv->copies, priv->in_info, priv->out_info, frame);
  record_after_earlier_work(frame.cmd);
  // The GPU time of a frame starts once the earlier work it waited for is done: in a chain, an
  // element's time is its own, not its upstream's too.
  priv->ring->start_timing(frame.slot);
  ends.upload();
  record_analysis_output(self, frame);
  vkc::Operation& operation = *priv->operation;
  if (!operation.begin_frame(*priv->caps_state, frame, error)) return FALSE;
  stage_input(self, frame);
  if (!operation.record(*priv->caps_state, frame, error)) return FALSE;
  // Make the kernels' writes to host-visible memory visible to the CPU once the fence signals: an
  // analysis element's results, or an output the kernels wrote in host memory. (A downloaded
  // output is made visible by the download; one in device memory is never read by the CPU here.)
  if (GST_VKCOMPUTE_FILTER_GET_CLASS(self)->analysis || (frame.outbuf && !frame.out.device_local)) {
    vk::MemoryBarrier to_host{
        .srcAccessMask = vk::AccessFlagBits::eShaderWrite | vk::AccessFlagBits::eTransferWrite,
        .dstAccessMask = vk::AccessFlagBits::eHostRead};
    frame.cmd.pipelineBarrier(
        vk::PipelineStageFlagBits::eComputeShader | vk::PipelineStageFlagBits::eTransfer,
        vk::PipelineStageFlagBits::eHost, {}, to_host, nullptr, nullptr);
  }
  ends.download();
  // The chain's last element sends the batch with its own work in it.
  priv->ring->submit(frame.slot, true);
  // A reader of an output in device memory, on any thread, orders its work after this point.
  if (frame.outbuf && frame.out.device_local)
    gst_vkcompute_memory_set_written(gst_buffer_peek_memory(frame.outbuf, 0),
                                     priv->ring->compute_point(frame.slot));
  if (!joins_batch(self)) vkc::batch::flush();
  return TRUE;
}

// Takes an output buffer from our pool and finds where the kernels write it.
static GstFlowReturn acquire_output(GstVkComputeFilter* self, vkc::Frame& frame) {
  auto* priv = get_priv(self);
  auto* trans = GST_BASE_TRANSFORM(self);
  GstBufferPool* pool = gst_base_transform_get_buffer_pool(trans);
  GstFlowReturn flow = GST_FLOW_ERROR;
  if (pool) {
    if (!gst_buffer_pool_is_active(pool)) gst_buffer_pool_set_active(pool, TRUE);
    flow = gst_buffer_pool_acquire_buffer(pool, &frame.outbuf, nullptr);
    gst_object_unref(pool);
  }
  if (flow != GST_FLOW_OK) {
    if (flow != GST_FLOW_FLUSHING)
      GST_ELEMENT_ERROR(self, RESOURCE, FAILED, ("No output buffer from the element's Vulkan pool."),
                        ("%s", gst_flow_get_name(flow)));
    return flow;
  }
  GST_BASE_TRANSFORM_GET_CLASS(self)->copy_metadata(trans, frame.inbuf, frame.outbuf);
  GstMemory* outmem = gst_buffer_peek_memory(frame.outbuf, 0);
  const vkc::Buffer* out = gst_vkcompute_memory_get_buffer(outmem, *priv->device, &frame.out.device_local);
  std::string error;
  if (!out || gst_buffer_n_memory(frame.outbuf) != 1 ||
      !vkc::frame_layout(frame.outbuf, priv->out_info, out->handle(), outmem->offset, frame.out, error)) {
    GST_ELEMENT_ERROR(self, CORE, FAILED, ("Output buffer is not from the element's Vulkan pool."),
                      ("%s", error.c_str()));
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

// Binds the input, takes an output buffer, records and submits one frame into `slot`, and hands it
// to the scheduler. Takes `inbuf`. An output in device memory leaves now, in `out`, carrying where
// our work ends: the work of any element of ours that reads it is ordered after ours on the GPU, and
// a CPU map waits for it (vkmemory.hpp). An output in host memory leaves when the GPU is done.
static GstFlowReturn submit_frame(GstVkComputeFilter* self, GstBuffer* inbuf, guint slot, GstBuffer** out) {
  auto* priv = get_priv(self);
  auto work = std::make_unique<FrameWork>(self);
  vkc::Frame& frame = work->frame;
  frame.slot = slot;
  frame.inbuf = inbuf;
  gst_segment_copy_into(&GST_BASE_TRANSFORM(self)->segment, &frame.segment);

  std::string error;
  if (!work->input.bind(priv->device, inbuf, priv->in_info, priv->copies->staging(slot), frame.in, error)) {
    GST_ELEMENT_ERROR(self, STREAM, FORMAT, ("Input buffer does not match its caps: %s.", error.c_str()),
                      (nullptr));
    return GST_FLOW_ERROR;
  }
  if (work->input.path() != priv->last_path || priv->submitted == 0)
    GST_INFO_OBJECT(self, "input reaches the GPU through %s", vkc::input_path_name(work->input.path()));
  priv->last_path = work->input.path();

  if (!passes_through(self)) {
    GstFlowReturn flow = acquire_output(self, frame);
    if (flow != GST_FLOW_OK) return flow;
  }
  GError* gerror = nullptr;
  if (!record_and_submit(self, frame, work->input, &gerror)) {
    post_gerror(self, gerror, nullptr);
    return GST_FLOW_ERROR;
  }
  priv->submitted++;
  if (work->input.from_host()) priv->counts->uploads++;
  if (frame.outbuf && !frame.out.device_local) priv->counts->downloads++;
  if (frame.out.device_local) *out = std::exchange(frame.outbuf, nullptr);
  priv->scheduler->push(std::move(work));
  return GST_FLOW_OK;
}

// Pushes the outputs held while the streaming thread was inside a frame and stops holding.
static GstFlowReturn push_held(GstVkComputeFilter* self) {
  return get_priv(self)->held.release([self](GstBuffer* out) { return push_output(self, out); });
}

// One input frame: waits for a free slot, then submits it. An output in host memory leaves from the
// scheduler when the GPU is done; one in device memory, and the input of an analysis element that
// passes it through, leave now, and the scheduler posts results when they are ready.
static GstFlowReturn gst_vkcompute_filter_generate_output(GstBaseTransform* trans, GstBuffer** outbuf) {
  auto* self = GST_VKCOMPUTE_FILTER(trans);
  auto* priv = get_priv(self);
  *outbuf = nullptr;
  GstBuffer* inbuf = std::exchange(trans->queued_buf, nullptr);
  if (!inbuf) return GST_FLOW_OK;
  // Earlier frames that reserve() (or the completion thread meanwhile) finishes leave after this
  // frame's submission has sent the batch.
  priv->held.hold();
  guint slot = 0;
  GstFlowReturn flow = priv->scheduler->reserve(slot);
  if (flow != GST_FLOW_OK) {
    gst_buffer_unref(inbuf);
    push_held(self);
    return flow;
  }
  // Our reference keeps a passed-through frame readable until the GPU is done with it (and makes
  // it read-only downstream meanwhile); taken before the scheduler may release the frame.
  GstBuffer* pass = passes_through(self) ? gst_buffer_ref(inbuf) : nullptr;
  GstBuffer* device_output = nullptr;
  try {
    flow = submit_frame(self, inbuf, slot, &device_output);
  } catch (const vkc::GridTooLarge& e) {
    GST_ELEMENT_ERROR(
        self, STREAM, FORMAT,
        ("Frames of %dx%d are too large for the Vulkan device %s.", GST_VIDEO_INFO_WIDTH(&priv->in_info),
         GST_VIDEO_INFO_HEIGHT(&priv->in_info), priv->device->name().c_str()),
        ("%s", e.what()));
    flow = GST_FLOW_ERROR;
  } catch (const std::exception& e) {
    post_exception(self, e);
    flow = GST_FLOW_ERROR;
  }
  const GstFlowReturn pushed = push_held(self);
  if (flow == GST_FLOW_OK) flow = pushed;
  if (flow != GST_FLOW_OK) {
    if (pass) gst_buffer_unref(pass);
    if (device_output) gst_buffer_unref(device_output);
    return flow;
  }
  *outbuf = pass ? pass : device_output;
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
  if (GST_VKCOMPUTE_FILTER_GET_CLASS(self)->analysis) {
    if (wants_passthrough(self) != passes_through(self) && !configure_again(trans)) {
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
// frames may move between host and device memory in any element.
static GstCaps* gst_vkcompute_filter_transform_caps(GstBaseTransform* trans, GstPadDirection direction,
                                                    GstCaps* caps, GstCaps* filter) {
  auto* klass = GST_VKCOMPUTE_FILTER_GET_CLASS(trans);
  GstCaps* formats =
      klass->transform_formats ? klass->transform_formats(direction, caps) : gst_caps_ref(caps);
  GstCaps* result = vkc::in_both_memories(formats);
  gst_caps_unref(formats);
  if (filter) {
    GstCaps* filtered = gst_caps_intersect_full(filter, result, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref(result);
    result = filtered;
  }
  return result;
}

// Output caps: device memory when the element downstream is ours on our device, else system
// memory; then the first of what is left (an element's own fixate_caps() chains up to this).
static GstCaps* gst_vkcompute_filter_fixate_caps(GstBaseTransform* trans, GstPadDirection direction, GstCaps*,
                                                 GstCaps* othercaps) {
  auto* priv = get_priv(GST_VKCOMPUTE_FILTER(trans));
  if (direction == GST_PAD_SINK && priv->device)
    othercaps =
        vkc::keep_memory(othercaps, vkc::peer_takes_device_memory(trans->srcpad, priv->device->index()));
  return gst_caps_fixate(othercaps);
}

// Answers the device query of the element upstream (vkc::peer_takes_device_memory()).
static gboolean gst_vkcompute_filter_query(GstBaseTransform* trans, GstPadDirection direction,
                                           GstQuery* query) {
  auto* self = GST_VKCOMPUTE_FILTER(trans);
  auto* priv = get_priv(self);
  if (direction == GST_PAD_SINK) wait_for_start(self);
  if (direction == GST_PAD_SINK && priv->device &&
      vkc::answer_device_query(query, GST_ELEMENT(self), priv->device->index()))
    return TRUE;
  return GST_BASE_TRANSFORM_CLASS(gst_vkcompute_filter_parent_class)->query(trans, direction, query);
}

static gboolean gst_vkcompute_filter_sink_event(GstBaseTransform* trans, GstEvent* event) {
  auto* self = GST_VKCOMPUTE_FILTER(trans);
  if (GST_EVENT_IS_SERIALIZED(event)) wait_for_start(self);
  try {
    // A flush drops the frames in flight; any other serialized event follows them downstream.
    if (GST_EVENT_TYPE(event) == GST_EVENT_FLUSH_STOP) {
      get_priv(self)->refused.restart_count();
      if (auto* scheduler = get_priv(self)->scheduler.get()) release_after_gpu(self, scheduler->discard());
    } else if (GST_EVENT_IS_SERIALIZED(event)) {
      drain(self);
    }
  } catch (const std::exception& e) {
    post_exception(self, e);
  }
  return GST_BASE_TRANSFORM_CLASS(gst_vkcompute_filter_parent_class)->sink_event(trans, event);
}

static void gst_vkcompute_filter_set_property(GObject* object, guint prop_id, const GValue* value,
                                              GParamSpec* pspec) {
  auto* priv = get_priv(GST_VKCOMPUTE_FILTER(object));
  switch (prop_id) {
    case PROP_DEVICE: {
      // The device is opened at start; a running element cannot move its frames to another one.
      GST_OBJECT_LOCK(object);
      const gint kept = priv->device_index;
      const bool running = GST_STATE(object) > GST_STATE_READY;
      if (!running) priv->device_index = g_value_get_int(value);
      GST_OBJECT_UNLOCK(object);
      // Warned like GObject warns of out-of-range values, outside the lock.
      if (running)
        g_warning("%s: device %d ignored: the device can only change in the NULL or READY state, keeping %d",
                  GST_OBJECT_NAME(object), g_value_get_int(value), kept);
      break;
    }
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
  }
}

static void gst_vkcompute_filter_get_property(GObject* object, guint prop_id, GValue* value,
                                              GParamSpec* pspec) {
  auto* priv = get_priv(GST_VKCOMPUTE_FILTER(object));
  GST_OBJECT_LOCK(object);
  switch (prop_id) {
    case PROP_DEVICE: g_value_set_int(value, priv->device_index); break;
    case PROP_DEVICE_NAME:
      g_value_set_string(value, priv->device_name.empty() ? nullptr : priv->device_name.c_str());
      break;
    case PROP_GPU_TIME: g_value_set_double(value, priv->gpu_time_us); break;
    case PROP_UPLOADS: g_value_set_uint64(value, priv->counts->uploads); break;
    case PROP_DOWNLOADS: g_value_set_uint64(value, priv->counts->downloads); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
  }
  GST_OBJECT_UNLOCK(object);
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
// passed through); when that push is what failed, after_push() judges its flow as ours.
static GstFlowReturn gst_vkcompute_filter_chain(GstPad* pad, GstObject* parent, GstBuffer* buffer) {
  vkc::BatchScope scope;
  auto* self = GST_VKCOMPUTE_FILTER(parent);
  auto* priv = get_priv(self);
  priv->base_pushes = false;
  const GstFlowReturn flow = base_chain(pad, parent, buffer);
  return priv->base_pushes ? after_push(self, flow) : flow;
}

static void gst_vkcompute_filter_init(GstVkComputeFilter* self) {
  new (get_priv(self)) GstVkComputeFilterPrivate();
  GstPad* sink = GST_BASE_TRANSFORM_SINK_PAD(self);
  base_chain = GST_PAD_CHAINFUNC(sink);
  gst_pad_set_chain_function(sink, gst_vkcompute_filter_chain);
  gst_pad_add_probe(GST_BASE_TRANSFORM_SRC_PAD(self), GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
                    caps_for_current_peer, self, nullptr);
}

void gst_vkcompute_filter_class_add_pad_templates(GstVkComputeFilterClass* klass, const char* sink_caps,
                                                  const char* src_caps) {
  for (auto [name, direction, caps_string] :
       {std::tuple{"sink", GST_PAD_SINK, sink_caps}, std::tuple{"src", GST_PAD_SRC, src_caps}}) {
    GstCaps* formats = gst_caps_from_string(caps_string);
    GstCaps* caps = vkc::in_both_memories(formats);
    gst_element_class_add_pad_template(GST_ELEMENT_CLASS(klass),
                                       gst_pad_template_new(name, direction, GST_PAD_ALWAYS, caps));
    gst_caps_unref(caps);
    gst_caps_unref(formats);
  }
}

void gst_vkcompute_filter_class_init_analysis(GstVkComputeFilterClass* klass, const char* caps_string) {
  gst_vkcompute_filter_class_add_pad_templates(klass, caps_string, caps_string);
  GST_BASE_TRANSFORM_CLASS(klass)->passthrough_on_same_caps = TRUE;
  klass->analysis = TRUE;
}

static void gst_vkcompute_filter_class_init(GstVkComputeFilterClass* klass) {
  auto* gobject_class = G_OBJECT_CLASS(klass);
  auto* trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_vkcompute_filter_debug, "vkcomputefilter", 0, "vkcompute base class");

  gobject_class->set_property = gst_vkcompute_filter_set_property;
  gobject_class->get_property = gst_vkcompute_filter_get_property;
  gobject_class->finalize = gst_vkcompute_filter_finalize;
  GST_ELEMENT_CLASS(klass)->change_state = gst_vkcompute_filter_change_state;

  g_object_class_install_property(
      gobject_class, PROP_DEVICE,
      g_param_spec_int(
          "device", "Device",
          "Vulkan physical device index to run on; -1 chooses automatically (a discrete GPU, "
          "then an integrated one, a virtual one, a CPU implementation such as lavapipe), or the index "
          "in the environment variable GST_VKCOMPUTE_DEVICE when it is set. Read when the "
          "element starts; refused with a warning in PAUSED and PLAYING. An automatic choice "
          "that lands on a CPU implementation posts a warning at each start.",
          -1, G_MAXINT, -1,
          GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY)));
  g_object_class_install_property(
      gobject_class, PROP_DEVICE_NAME,
      g_param_spec_string("device-name", "Device name",
                          "Name of the Vulkan device in use (NULL until the element has started)", nullptr,
                          GParamFlags(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property(
      gobject_class, PROP_GPU_TIME,
      g_param_spec_double(
          "gpu-time", "GPU time",
          "Mean GPU time per frame in microseconds, from Vulkan timestamp queries around the "
          "commands of one frame in 64, over the most recent 8 such frames (0 before the first "
          "449 frames complete, or when the device has no timestamps)",
          0, G_MAXDOUBLE, 0, GParamFlags(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property(
      gobject_class, PROP_UPLOADS,
      g_param_spec_uint64("uploads", "Uploads",
                          "Frames whose input the element read from host memory since it last started (the "
                          "frame crossed to the GPU: kernels reading it in place or a copy), or that the CPU "
                          "wrote into device memory of the element through a map. 0 for frames that arrive "
                          "in device memory (memory:VkComputeDevice) from an element of ours",
                          0, G_MAXUINT64, 0, GParamFlags(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));
  g_object_class_install_property(
      gobject_class, PROP_DOWNLOADS,
      g_param_spec_uint64("downloads", "Downloads",
                          "Frames the element wrote into host memory since it last started (outputs in "
                          "system memory), plus each CPU map of a frame it output in device memory (a read "
                          "back). 0 for outputs in device memory that stay on the GPU, and for frames an "
                          "analysis element passes through",
                          0, G_MAXUINT64, 0, GParamFlags(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)));

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
  trans_class->passthrough_on_same_caps = FALSE;

  gst_type_mark_as_plugin_api(GST_TYPE_VKCOMPUTE_FILTER, GstPluginAPIFlags(0));
}
