#include "framestream.hpp"

#include <algorithm>
#include <utility>

#include "cuda/gstcudamemory.hpp"
#include "framebarriers.hpp"
#include "hostimports.hpp"
#include "vk/batch.hpp"
#include "vk/kernel.hpp"
#include "vk/reaper.hpp"

GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_filter_debug);
#define GST_CAT_DEFAULT gst_vkcompute_filter_debug

namespace vkc {
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

// What frames still running on the GPU may touch, once the stream lets go of them (stop, or a
// flush after a frame outlived the timeout): handed to vkc::release_after_gpu() with the ring.
struct GpuLeftovers {
  std::unique_ptr<CapsState> caps_state;
  std::unique_ptr<SlotCopies> copies;
  std::unique_ptr<CudaFrames> cuda;               // the CUDA copies' targets
  std::unique_ptr<VulkanOutputs> vulkan_outputs;  // the downloads' targets of outputs in Vulkan images
  FrameScheduler::Frames frames;
};

// A submission's end as the completion service follows it (completions.hpp): its value is 0 until
// the submission's batch goes.
CompletionService::Client::Point point_of(std::shared_ptr<const SubmitPoint> end) {
  const std::atomic<uint64_t>* counter = &end->timeline.seen_counter();
  const std::atomic<uint64_t>* value = &end->value;
  return {counter, {std::move(end), value}};
}
}  // namespace

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

// One submitted frame, finished by the scheduler (the completion service, or the streaming thread
// when the ring is full) the moment the GPU is done: the operation completes it (an analysis posts
// its result) and an output in host memory leaves, or joins the outputs held while the streaming
// thread is inside a frame.
class FrameStream::FrameWork : public FrameScheduler::Work {
 public:
  explicit FrameWork(FrameStream& stream) : stream_(stream) {}
  ~FrameWork() override { release(); }

  GstFlowReturn finish() override {
    GST_LOG("%s: finishing the frame of slot %u", stream_.name_.c_str(), frame.slot);
    log_gpu_end();
    // A frame that passes through carrying its results is its own output: the stream's one
    // reference left, complete() attaches them without copying the buffer (a copy of memory that
    // may not be shared would copy the frame).
    const bool leaves_itself = frame.outbuf && frame.outbuf == frame.inbuf;
    if (leaves_itself) {
      input.release();
      gst_buffer_unref(frame.inbuf);  // frame.outbuf keeps it; frame.inbuf borrows it until release()
    }
    stream_.operation_.complete(*stream_.caps_state_, frame);
    stream_.note_gpu_time(stream_.ring_->gpu_time_ns(frame.slot));
    GstBuffer* out = std::exchange(frame.outbuf, nullptr);
    if (leaves_itself) frame.inbuf = nullptr;
    // The output goes on before the input goes back upstream: letting go of an input imported from
    // host memory unpins its pages, which takes longer than the push (0.6-0.9 ms for a 1080p RGBA
    // frame on the H200, where the frame's whole way through rgb2yuv takes 1.6 ms).
    const GstFlowReturn flow = leave(out);
    release();
    GST_LOG("%s: input released", stream_.name_.c_str());
    return flow;
  }

  // Only an output in host or CUDA memory is pushed when the frame is done (one in device memory
  // left at submit): posting a result does not block. A timed frame's queries are read too, which
  // on lavapipe waits until the device is idle (2-78 ms with other pipelines' frames queued), and
  // letting go of an input may unpin an import of host memory (at a chain's head fed plain system
  // memory, 0.6-0.9 ms a 1080p frame): the completion service's thread, which looks at every
  // element of the device, must not wait there, nor see the frames of the chain's tail late.
  bool may_block() const override { return frame.outbuf != nullptr || slow(); }
  // The query read and the unpin take their time whatever downstream does: a worker's, at once.
  bool slow() const override {
    // A CPU device (lavapipe) pins nothing: its imports cost nothing to let go of.
    return stream_.ring_->timed(frame.slot) || (!stream_.device_->is_cpu() && input.may_unpin(frame.inbuf));
  }

  Frame frame;
  InputBinding input;
  bool cuda_output = false;  // the output is in CUDA memory: pushed once CUDA's copy into it is done
  // The output is in GStreamer's Vulkan image memory: pushed once its device's copy into it is done.
  bool vulkan_output = false;

 private:
  // Pushes the frame's output (in host or CUDA memory), or hands it to the streaming thread when
  // that thread is inside a frame (heldoutputs.hpp).
  GstFlowReturn leave(GstBuffer* out) {
    if (!out) return GST_FLOW_OK;
    std::string error;
    if (cuda_output && !(stream_.cuda_->copy_output(frame.slot, error) &&
                         stream_.cuda_->wait_output(frame.slot, &out,
                                                    stream_.owner_.output_reaches_ours_unwritten(), error))) {
      gst_buffer_unref(out);
      stream_.owner_.post_error(GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
                                "Frame could not be copied into CUDA memory: " + error + ".", "");
      return GST_FLOW_ERROR;
    }
    if (vulkan_output && !stream_.vulkan_outputs_->copy_out(frame.slot, error)) {
      gst_buffer_unref(out);
      stream_.owner_.post_error(GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
                                "Frame could not be copied into GStreamer's Vulkan memory: " + error + ".",
                                "");
      return GST_FLOW_ERROR;
    }
    if (stream_.held_.take(out)) return GST_FLOW_OK;
    GST_LOG("%s: pushing the output", stream_.name_.c_str());
    return stream_.push_output(out);
  }
  void release() {
    input.release();
    gst_clear_buffer(&frame.outbuf);
    gst_clear_buffer(&frame.inbuf);
  }
  // When a timed frame's work ended on the GPU, at LOG level (GST_VKCOMPUTE_TIMESTAMP_INTERVAL=1
  // times every frame): with the other stages' lines, where a live frame's time goes.
  void log_gpu_end() const {
    if (gst_debug_category_get_threshold(GST_CAT_DEFAULT) < GST_LEVEL_LOG) return;
    const uint64_t end = stream_.ring_->gpu_end_host_ns(frame.slot);
    if (end == 0) return;
    GST_LOG("%s: its GPU work ended %.3f ms before", stream_.name_.c_str(),
            double(g_get_monotonic_time() * 1000 - gint64(end)) / 1e6);
  }
  // Not used by the destructor: frames handed over at stop may outlive the stream.
  FrameStream& stream_;
};

FrameStream::FrameStream(std::shared_ptr<Device> device, Operation& operation, Owner& owner, const char* name,
                         std::shared_ptr<TransferCounts> counts)
    : device_(std::move(device)),
      counted_(*device_),
      operation_(operation),
      owner_(owner),
      name_(name),
      counts_(std::move(counts)),
      frame_timeout_ns_(frame_timeout_ns()) {
  ring_ = std::make_unique<CommandRing>(device_, kVkComputeFramesInFlight, name,
                                        CommandRing::default_timestamp_interval());
  copies_ = std::make_unique<SlotCopies>(device_, *ring_);
  scheduler_ = std::make_unique<FrameScheduler>(
      kVkComputeFramesInFlight, frame_timeout_ns_,
      [ring = ring_.get(), name = name_.c_str()](uint32_t slot, FrameScheduler::Pending& pending) {
        const Completion status = ring->status(slot, &pending.eta_ns);
        if (status == Completion::kPending) {
          std::shared_ptr<const SubmitPoint> end = ring->end_point(slot);
          pending.due_ns = end->timeline.until_ns(end->value.load(std::memory_order_acquire));
          pending.point = point_of(std::move(end));
          GST_LOG("%s: the frame of slot %u is not done yet (due in %.3f ms)", name, slot,
                  pending.due_ns / 1e6);
        } else {
          GST_LOG("%s: the frame of slot %u is seen %s", name, slot,
                  status == Completion::kDone ? "done" : "lost with its device");
        }
        return status;
      },
      [this](Completion status) { report_failure(status); }, CompletionService::for_device(*device_),
      // The streaming thread may wait long for a worker (its push blocked downstream): the work of
      // the elements above, left in its batch, must not wait with it.
      [] { batch::flush(); });
  counts_->uploads = 0;
  counts_->downloads = 0;
  operation_.restart();
}

FrameStream::~FrameStream() {
  stop();
}

bool FrameStream::configure(const GstVideoInfo& in, const GstVideoInfo& out, bool in_device, bool out_device,
                            bool out_device_caps, GError** error) {
  // Frames in flight belong to the previous caps: they leave before the new caps event.
  drain();
  in_info_ = in;
  out_info_ = out;
  in_device_ = in_device;
  out_device_ = out_device;
  out_device_caps_ = out_device_caps;
  // The old state goes first: a device has limited memory for two sets of kernels and buffers.
  caps_state_.reset();
  caps_state_ = operation_.configure(device_, in_info_, out_info_, error);
  return caps_state_ != nullptr;
}

bool FrameStream::wants_passthrough() const {
  // Under system-memory caps any memory goes; frames that arrive in device memory and would leave
  // in host memory are copied for stock elements (a download on the GPU, not a read back at each
  // map), unless an element of ours downstream will read them.
  const bool same_memory = in_device_ == out_device_caps_ || (in_device_ && out_device_);
  return operation_.mode() == Mode::kAnalysis && same_memory;
}

void FrameStream::note_gpu_time(double ns) {
  if (ns < 0) return;
  gpu_ns_ += ns;
  if (++gpu_frames_ < kGpuTimeWindow) return;
  const double mean_us = gpu_ns_ / gpu_frames_ / 1000.0;
  GST_INFO("%s: GPU time per frame: %.1f us (mean of %u frames)", name_.c_str(), mean_us, gpu_frames_);
  owner_.gpu_time(mean_us);
  gpu_ns_ = 0;
  gpu_frames_ = 0;
}

// The one error of a frame that did not complete. A slow frame is not a lost device: the driver
// says when the device is lost, and a frame that is merely slow keeps its memory until it ends.
void FrameStream::report_failure(Completion status) {
  const std::string& device = device_->name();
  if (status == Completion::kLost) {
    owner_.post_error(GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
                      "The Vulkan device " + device + " was lost.",
                      "VK_ERROR_DEVICE_LOST while waiting for a frame: the driver reset or removed the "
                      "device; the frames in flight are dropped");
    return;
  }
  // A frame that waits for CUDA's copy in a lost context (the decoder's, with no frame after it to
  // find the loss): the context is at fault, not the device; the release lets the frames run on.
  if (status == Completion::kPending && cuda_ && cuda_->release_if_lost()) {
    owner_.post_error(GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
                      "The CUDA context of the frames in CUDA memory was lost.",
                      "a fault in CUDA work on the GPU dropped the copies the frames waited for; they run on "
                      "without them and the stream stops");
    return;
  }
  // Milliseconds below a second: a limit lowered with GST_VKCOMPUTE_FRAME_TIMEOUT_MS reads as set.
  const double ms = frame_timeout_ns_ / 1e6;
  gchar* limit = ms < 1000 ? g_strdup_printf("%.0f ms", ms) : g_strdup_printf("%.1f s", ms / 1000);
  // Where the queues stand tells a slow queue (work done steadily) from one stuck behind a wait.
  const std::string queues = device_->describe_queues();
  GST_CAT_WARNING(gst_vkcompute_runtime_debug, "%s: a frame did not complete in %s (%s)", name_.c_str(),
                  limit, queues.c_str());
  owner_.post_error(GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
                    std::string("A frame took longer than ") + limit + " on the Vulkan device " + device +
                        "; the stream stops.",
                    "the device is not lost, only slow for these settings; the frame's memory is kept until "
                    "it completes. GST_VKCOMPUTE_FRAME_TIMEOUT_MS sets the limit. " +
                        queues);
  g_free(limit);
}

GstFlowReturn FrameStream::push_output(GstBuffer* out) {
  try {
    batch::flush();
  } catch (const std::exception& e) {
    gst_buffer_unref(out);
    owner_.post_error(GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
                      std::string("Vulkan operation failed: ") + e.what(), "");
    return GST_FLOW_ERROR;
  }
  return owner_.push(out);
}

GstFlowReturn FrameStream::push_held() {
  return held_.release([this](GstBuffer* out) { return push_output(out); });
}

GstFlowReturn FrameStream::drain() {
  return scheduler_ ? scheduler_->drain() : GST_FLOW_OK;
}

void FrameStream::discard() {
  if (scheduler_) release_after_gpu(scheduler_->discard());
  operation_.restart();
}

void FrameStream::stop() {
  if (scheduler_) release_after_gpu(scheduler_->stop());
  scheduler_.reset();
  caps_state_.reset();  // after the frames that used it
  if (ring_ && ring_->submissions() > 0)
    GST_INFO("%s: %" G_GUINT64_FORMAT " submissions, %" G_GUINT64_FORMAT
             " recorded (the others submitted again as recorded for an earlier frame)",
             name_.c_str(), guint64(ring_->submissions()), guint64(ring_->recordings()));
  ring_.reset();
  copies_.reset();
  cuda_.reset();
  vulkan_outputs_.reset();
  // The system memory of the frames let go of above (and of those downstream let go of before this
  // element stopped) goes on the reaper's thread.
  wait_for_host_memory_released(std::min(kStopWaitNs, frame_timeout_ns_));
}

// Frames that end within a short wait release their buffers here, before the state change returns,
// as a stock element's would: an input's memory goes back upstream (an application's wrapped memory
// gets its notify) and a leak check right after NULL finds nothing. Slower ones are handed over with
// the ring and everything else they may touch, to be freed once they end: memory the GPU may still
// write is never freed, and a state change never waits for a slow frame. Nothing is submitted after
// a hand-over until stop.
void FrameStream::release_after_gpu(FrameScheduler::Frames frames) {
  if (frames.empty()) return;
  // Frames whose input a lost CUDA context was to copy (the error that stopped the stream, most
  // likely) run on now, their input undefined.
  if (cuda_) cuda_->release_if_lost();
  // Done, or the device is lost (the driver no longer touches their memory).
  if (ring_->wait_all(std::min(kStopWaitNs, frame_timeout_ns_)) != Completion::kPending) {
    frames.clear();
    return;
  }
  auto leftovers = std::make_shared<GpuLeftovers>();
  leftovers->caps_state = std::move(caps_state_);
  leftovers->copies = std::move(copies_);
  leftovers->cuda = std::move(cuda_);
  leftovers->vulkan_outputs = std::move(vulkan_outputs_);
  leftovers->frames = std::move(frames);
  scheduler_->stop();  // its waits use the ring
  vkc::release_after_gpu(std::move(ring_), std::move(leftovers));
}

// An analysis that outputs buffers (drawing into them, or moving its frames between host and device
// memory) copies each frame into its output first. Its kernels then read the device copy when there
// is one: that copy is the frame's one upload.
void FrameStream::record_analysis_output(Frame& frame) {
  if (operation_.mode() == Mode::kFilter || !frame.outbuf) return;
  record_frame_copy(frame.cmd, in_info_, frame.in, frame.out);
  if (frame.out.device_local && !frame.in.device_local) frame.in = frame.out;
}

// Stages the frame's input as the caps state's input_reads declare (see vkc::InputReads).
void FrameStream::stage_input(Frame& frame) {
  const InputReads& reads = caps_state_->input_reads;
  const guint width = guint(GST_VIDEO_INFO_WIDTH(&in_info_));
  const guint x1 = MIN(frame.x1, width);
  if (reads.planes == 0 || frame.in.device_local || !device_->features().copy_input_to_device ||
      reads.load_bytes >= kWideLoadBytes || 2 * (x1 - MIN(frame.x0, x1)) < width)
    return;
  // On the device's copy queue into the slot's input copy, as a chain's head uploads: the copy
  // engines move this frame while the kernels run on the one before. (In the frame's own command
  // buffer, into one copy the device's streams shared, copy and kernels added up: lumamax with the
  // light statistics of 4K P010 at 76 % of the copy floor against 95 % here, NV12's analyses 28-30 %
  // slower; for one frame copy a live stream holds, 2.1 MiB at 1080p NV12. docs/benchmarks.md.)
  const FrameLayout copy = copies_->input_copy(frame.slot, in_info_, frame.in, reads.planes);
  record_frame_transfer(ring_->begin_upload(frame.slot), in_info_, frame.in, copy,
                        {.end_plane = reads.planes, .y0 = frame.y0, .y1 = frame.y1});
  frame.in = copy;
}

// The barrier after earlier work that the frame needs (framebarriers.hpp): for an input in device
// memory that may still be being written, for copies of the input that its own commands made, and for
// an output buffer of ours whose last write may still run.
bool FrameStream::follows_earlier_work(const Frame& frame, const InputBinding& input) const {
  switch (input.path()) {
    case InputPath::kGathered:
    case InputPath::kVulkanImage: return true;
    case InputPath::kCudaCopy:
      // A filter's output, which its work on the compute queue wrote before the frame left.
      if (!input.cuda_copy()->cuda_value) return true;
      break;
    case InputPath::kDevice:
      if (waits_for_write(gst_buffer_peek_memory(frame.inbuf, 0), *device_)) return true;
      break;
    default: break;
  }
  return frame.outbuf && frame.out.device_local && gst_buffer_n_memory(frame.outbuf) == 1 &&
         waits_for_write(gst_buffer_peek_memory(frame.outbuf, 0), *device_);
}

// A frame in several memories (InputBinding::record_gather()) is copied by the GPU into the slot's
// input copy, before the frame's start barrier (follows_earlier_work()), which orders the copies
// before the kernels.
void FrameStream::gather_input(Frame& frame, const InputBinding& input) {
  if (input.path() != InputPath::kGathered) return;
  frame.in.buffer = copies_->input_copy(frame.slot, gst_buffer_get_size(frame.inbuf));
  input.record_gather(frame.cmd, frame.in.buffer);
}

bool FrameStream::record_and_submit(Frame& frame, const InputBinding& input, bool cuda_output,
                                    bool vulkan_output, GError** error) {
  frame.cmd = ring_->begin(frame.slot);
  if (const CudaCopy* copy = input.cuda_copy(); copy && copy->cuda_value)
    ring_->wait_before(frame.slot, copy->bridge->semaphore(), copy->cuda_value);
  if (input.path() == InputPath::kVulkanImage && !record_vulkan_read(frame, error)) return false;
  gather_input(frame, input);
  ChainEnds ends(*ring_, *copies_, in_info_, out_info_, frame);
  if (follows_earlier_work(frame, input)) order_after_earlier_work(frame);
  // The GPU time of a frame starts once the earlier work it waited for is done: in a chain, an
  // element's time is its own, not its upstream's too.
  ring_->start_timing(frame.slot);
  ends.upload();
  record_analysis_output(frame);
  if (!operation_.begin_frame(*caps_state_, frame, error)) return false;
  stage_input(frame);
  if (!operation_.record(*caps_state_, frame, error)) return false;
  if (vulkan_output && vulkan_outputs_->on_gpu())
    vulkan_outputs_->record_write(frame.slot, frame.cmd, *ring_);
  // The CPU reads an analysis's results, and an output the kernels wrote in host memory, once the
  // frame is done: the submission's last command buffer makes them visible (vk/host_tail.hpp).
  ends.download();
  // The chain's last element sends the batch with its own work in it.
  const bool joins_batch = out_device_ && owner_.output_joins_batch();
  GST_LOG("%s: frame recorded", name_.c_str());
  ring_->submit(frame.slot, true);
  const WriteOrder order = note_submitted(*device_, frame);
  if (!joins_batch) batch::flush();
  if (frame.outbuf && frame.out.device_local && !cuda_output && !vulkan_output) {
    // A reader of an output in device memory, on any thread, orders its work after this point.
    gst_vkcompute_memory_set_written(gst_buffer_peek_memory(frame.outbuf, 0),
                                     ring_->compute_point(frame.slot), order);
  }
  return true;
}

GstFlowReturn FrameStream::acquire_output(Frame& frame, bool& cuda_output, bool& vulkan_output) {
  GstFlowReturn flow = owner_.acquire_output(frame.inbuf, &frame.outbuf);
  if (flow != GST_FLOW_OK) return flow;
  std::string error;
  cuda_output = cuda::is_cuda_frame(frame.outbuf);
  if (cuda_output) {
    if (!cuda_) cuda_ = std::make_unique<CudaFrames>(device_, ring_->depth());
    if (cuda_->bind_output(frame.slot, frame.outbuf, out_info_, frame.out, error)) return GST_FLOW_OK;
    owner_.post_error(
        GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "Output frame in CUDA memory could not be written from the Vulkan device: " + error + ".", "");
    return GST_FLOW_ERROR;
  }
  vulkan_output = in_vulkan_image_memory(frame.outbuf);
  if (vulkan_output) {
    if (!vulkan_outputs_) vulkan_outputs_ = std::make_unique<VulkanOutputs>(device_, ring_->depth());
    if (vulkan_outputs_->bind(
            frame.slot, frame.outbuf, out_info_,
            [this](GstVulkanDevice* device) { return owner_.gst_vulkan_queue(device, GST_PAD_SRC); },
            frame.out, error))
      return GST_FLOW_OK;
    owner_.post_error(GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
                      "Output frame in GStreamer's Vulkan memory could not be written: " + error + ".", "");
    return GST_FLOW_ERROR;
  }
  GstMemory* outmem = gst_buffer_peek_memory(frame.outbuf, 0);
  const Buffer* out = gst_vkcompute_memory_get_buffer(outmem, *device_, &frame.out.device_local);
  if (!out || gst_buffer_n_memory(frame.outbuf) != 1 ||
      !frame_layout(frame.outbuf, out_info_, out->handle(), outmem->offset, frame.out, error)) {
    owner_.post_error(GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
                      "Output buffer is not from the element's Vulkan pool.", error);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

VulkanBridge* FrameStream::vulkan_bridge(GstBuffer* in, bool& shared, std::string& error) {
  if (!vulkan_ || !vulkan_->serves(in)) {
    vulkan_.reset();  // a device of GStreamer's that no frame comes from any more
    vulkan_ = VulkanBridge::make(
        in, [this](GstVulkanDevice* device) { return owner_.gst_vulkan_queue(device, GST_PAD_SINK); },
        ring_->depth(), error);
    if (!vulkan_) return nullptr;
    vulkan_shared_ = vulkan_->same_device(*device_);
    // Once per device and start: frames of another device take the slow way, through host memory.
    if (!vulkan_shared_) owner_.gst_device_not_shared(vulkan_->gst_device());
  }
  shared = vulkan_shared_;
  return vulkan_.get();
}

bool FrameStream::bind_vulkan_input(GstBuffer* in, uint32_t slot, InputBinding& input, FrameLayout& layout,
                                    std::string& error) {
  bool shared = false;
  VulkanBridge* bridge = vulkan_bridge(in, shared, error);
  if (!bridge) return false;
  if (shared) {
    input.bound_from_vulkan_image();  // recorded with the frame's commands
    return true;
  }
  GstBuffer* copy = bridge->copy(slot, in, in_info_, error);
  return copy && input.bind_copy(device_, copy, in_info_, copies_->staging(slot), layout, error);
}

bool FrameStream::record_vulkan_read(Frame& frame, GError** error) {
  std::vector<std::pair<VkSemaphore, uint64_t>> waits, signals;
  std::string why;
  const bool recorded = vulkan_->record_read(
      frame.cmd, frame.inbuf, in_info_,
      [this, &frame](gsize bytes) { return copies_->input_copy(frame.slot, vk::DeviceSize(bytes)); },
      frame.in, waits, signals, why);
  if (!recorded) {
    g_set_error(error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
                "Frame in GStreamer's Vulkan memory could not be read: %s.", why.c_str());
    return false;
  }
  for (const auto& [semaphore, value] : waits)
    ring_->wait_before(frame.slot, vk::Semaphore(semaphore), value);
  for (const auto& [semaphore, value] : signals)
    ring_->signal_after(frame.slot, vk::Semaphore(semaphore), value);
  return true;
}

bool FrameStream::bind_cuda_input(Frame& frame, InputBinding& input, bool share, std::string& error) {
  if (!cuda_) cuda_ = std::make_unique<CudaFrames>(device_, ring_->depth());
  std::shared_ptr<const CudaCopy> copy = cuda_copy_of(frame.inbuf, *device_, in_info_);
  InputPath path = InputPath::kCudaCopy;
  if (copy) {
    cuda_->note_read(*copy);
    GST_LOG("%s: frame read from its copy out of CUDA memory", name_.c_str());
  } else {
    copy = cuda_->bind_input(frame.slot, frame.inbuf, in_info_, share && gst_buffer_is_writable(frame.inbuf),
                             error);
    if (!copy) return false;
    path = InputPath::kCuda;
    GST_LOG("%s: frame copied out of CUDA memory", name_.c_str());
  }
  frame.in = copy->layout;
  input.bound_from_cuda(std::move(copy), path);
  return true;
}

// Binds the input, takes an output buffer, records and submits one frame into `slot`, and hands it
// to the scheduler. Takes `in`. The input of an analysis that passes it on leaves now, in `out`, and
// so does an output in device memory, carrying where our work ends: the work of any element of ours that
// reads it is ordered after ours on the GPU, and a CPU map waits for it (vkmemory.hpp). An output in host
// memory, and a frame that carries its results, leave when the GPU is done.
GstFlowReturn FrameStream::submit_frame(GstBuffer* in, const GstSegment& segment, uint32_t slot,
                                        GstBuffer** out, bool& leaves_with_results, bool share_cuda_copy) {
  auto work = std::make_unique<FrameWork>(*this);
  Frame& frame = work->frame;
  frame.slot = slot;
  frame.inbuf = in;
  gst_segment_copy_into(&segment, &frame.segment);

  std::string error;
  if (cuda::is_cuda_frame(in)) {
    if (!bind_cuda_input(frame, work->input, share_cuda_copy, error)) {
      owner_.post_error(GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
                        "Frame in CUDA memory could not reach the Vulkan device: " + error + ".", "");
      return GST_FLOW_ERROR;
    }
  } else if (in_vulkan_image_memory(in)) {
    if (!bind_vulkan_input(in, slot, work->input, frame.in, error)) {
      owner_.post_error(GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
                        "Frame in GStreamer's Vulkan memory could not be read: " + error + ".", "");
      return GST_FLOW_ERROR;
    }
  } else if (!work->input.bind(device_, in, in_info_, copies_->staging(slot), frame.in, error)) {
    owner_.post_error(GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
                      "Input buffer does not match its caps: " + error + ".", "");
    return GST_FLOW_ERROR;
  }
  // Our reference keeps a passed-through frame readable until the GPU is done with it (and makes
  // it read-only downstream meanwhile); taken once the input is bound (a copy out of CUDA memory
  // rides on it: cudacopies.hpp), before the scheduler may release the frame.
  if (passthrough_) *out = gst_buffer_ref(in);
  if (work->input.path() != last_path_ || submitted_ == 0)
    GST_INFO("%s: input reaches the GPU through %s", name_.c_str(), input_path_name(work->input.path()));
  last_path_ = work->input.path();

  if (!passthrough_) {
    GstFlowReturn flow = acquire_output(frame, work->cuda_output, work->vulkan_output);
    if (flow != GST_FLOW_OK) return flow;
    GST_LOG("%s: output buffer acquired", name_.c_str());
  }
  GError* gerror = nullptr;
  if (!record_and_submit(frame, work->input, work->cuda_output, work->vulkan_output, &gerror)) {
    owner_.post_error(gerror ? gerror->domain : GST_CORE_ERROR, gerror ? gerror->code : GST_CORE_ERROR_FAILED,
                      gerror ? gerror->message : name_ + " failed without saying why", "");
    g_clear_error(&gerror);
    return GST_FLOW_ERROR;
  }
  GST_LOG("%s: frame %" G_GUINT64_FORMAT " recorded and submitted", name_.c_str(), guint64(submitted_));
  submitted_++;
  if (work->input.from_host()) counts_->uploads++;
  if (frame.outbuf && !frame.out.device_local) counts_->downloads++;
  leaves_with_results = frame.leaves_with_results;
  if (leaves_with_results) {
    // Its results go with it: the frame, passed through or not, leaves from finish(), after complete().
    if (!frame.outbuf) frame.outbuf = gst_buffer_ref(in);
  } else if (frame.out.device_local && !work->cuda_output) {
    *out = std::exchange(frame.outbuf, nullptr);
  }
  scheduler_->push(std::move(work), point_of(ring_->end_point(slot)));
  return GST_FLOW_OK;
}

GstFlowReturn FrameStream::submit(GstBuffer* in, const GstSegment& segment, GstBuffer** out) {
  *out = nullptr;
  // Earlier frames that reserve() (or the completion service meanwhile) finishes leave after this
  // frame's submission has sent the batch.
  held_.hold();
  uint32_t slot = 0;
  GstFlowReturn flow = scheduler_->reserve(slot);
  GST_LOG("%s: frame %" G_GUINT64_FORMAT " in slot %u", name_.c_str(), guint64(submitted_), slot);
  if (flow != GST_FLOW_OK) {
    gst_buffer_unref(in);
    push_held();
    return flow;
  }
  // A frame in CUDA memory passed on takes our copy of it to the elements of ours after us
  // (cudacopies.hpp): on a frame of its own when others hold it (its memory shared).
  const bool share_cuda_copy = passthrough_ && cuda::is_cuda_frame(in) &&
                               !cuda_copy_of(in, *device_, in_info_) &&
                               owner_.output_reaches_ours_unwritten();
  if (share_cuda_copy) in = gst_buffer_make_writable(in);
  GstBuffer* output = nullptr;  // the frame passed on, or an output in device memory
  bool leaves_with_results = false;
  try {
    flow = submit_frame(in, segment, slot, &output, leaves_with_results, share_cuda_copy);
  } catch (const GridTooLarge& e) {
    owner_.post_error(GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
                      "Frames of " + std::to_string(GST_VIDEO_INFO_WIDTH(&in_info_)) + "x" +
                          std::to_string(GST_VIDEO_INFO_HEIGHT(&in_info_)) +
                          " are too large for the Vulkan device " + device_->name() + ".",
                      e.what());
    flow = GST_FLOW_ERROR;
  } catch (const std::exception& e) {
    owner_.post_error(GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
                      std::string("Vulkan operation failed: ") + e.what(), "");
    flow = GST_FLOW_ERROR;
  }
  // A frame that leaves with its results leaves from finish(): no reference of ours meanwhile, so
  // that it is writable there.
  if (leaves_with_results) gst_clear_buffer(&output);
  const GstFlowReturn pushed = push_held();
  if (flow == GST_FLOW_OK) flow = pushed;
  if (flow != GST_FLOW_OK) {
    if (output) gst_buffer_unref(output);
    return flow;
  }
  *out = output;
  return GST_FLOW_OK;
}

}  // namespace vkc
