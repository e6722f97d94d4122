// vkc::FrameStream: an element's streaming state from start to stop and the path of each frame,
// with no GObject in it. The element glue (computefilter.cpp) negotiates, answers the allocation
// queries and forwards events; the stream does the rest:
//
//   submit(frame)      reserve a ring slot (FrameScheduler: waits only while every slot is busy),
//                      bind the input (frame.hpp: device memory ordered after its write, our host
//                      memory, an import, a gather or a staging copy), take an output buffer
//                      (Owner::acquire_output()), record the barrier after earlier work where the
//                      frame needs it (framebarriers.hpp), the upload (ChainEnds), an analysis's copy
//                      into its output, the operation's begin_frame(), the input staging, its
//                      record() and the download,
//                      then submit (joining the thread's batch when the output goes straight into
//                      another element of ours) and mark an output in device memory with the point
//                      where its write ends. That output leaves at once; the frame goes to the
//                      scheduler.
//   when the GPU is done   (the device's completion service, or the streaming thread) the
//                      operation's complete(), then an output in host memory (or in CUDA memory,
//                      once CUDA's copy into it is done: cudaframes.hpp) leaves
//                      (Owner::push(), or held while the streaming thread is inside a frame).
//   drain / discard / stop   frames leave in order before a serialized event; a flush drops them;
//                      a stop hands what the GPU may still use to the reaper.
//
// The stream calls its owner only from the threads that drive it (streaming thread, completion
// service); the owner outlives the stream, except frames handed over at stop, which touch nothing
// of either.
#pragma once

#include <gst/video/video.h>

#include <atomic>
#include <memory>
#include <string>

#include "cudaframes.hpp"
#include "heldoutputs.hpp"
#include "operation.hpp"
#include "scheduler.hpp"
#include "staging.hpp"
#include "vkmemory.hpp"
#include "vulkanbridge.hpp"
#include "vulkanoutputs.hpp"

namespace vkc {

// How long a frame (or a copy of one on GStreamer's device) may run on the GPU before it fails:
// GST_VKCOMPUTE_FRAME_TIMEOUT_MS, else 10 s.
uint64_t frame_timeout_ns();

class FrameStream {
 public:
  // What the stream needs of its element.
  class Owner {
   public:
    virtual ~Owner() = default;
    // A finished output in host memory, on the streaming thread or a worker of the completion
    // service; may block downstream. Takes `out`.
    virtual GstFlowReturn push(GstBuffer* out) = 0;
    // An output buffer for `in` from the negotiated pool, its metadata copied from `in`; posts its
    // own error when it returns one that is not FLUSHING.
    virtual GstFlowReturn acquire_output(GstBuffer* in, GstBuffer** out) = 0;
    // Whether an output in device memory goes straight into another element of ours on this thread
    // (its work then waits in the thread's batch, vk/batch.hpp).
    virtual bool output_joins_batch() = 0;
    // Whether the frames the element pushes reach an element of ours before any element that may
    // write into them in place: through elements that only pass frames on, on every branch. A copy
    // out of CUDA memory rides on such frames only (cudacopies.hpp): the CUDA memory written in place
    // on the way would leave the copy stale.
    virtual bool output_reaches_ours_unwritten() = 0;
    // Posts an element error.
    virtual void post_error(GQuark domain, gint code, const std::string& message,
                            const std::string& debug) = 0;
    // Posts an element warning.
    virtual void post_warning(GQuark domain, gint code, const std::string& message) = 0;
    // The queue on `device` of GStreamer's Vulkan elements on the pad of `side` (upstream: GST_PAD_SINK),
    // which they lock to submit (a new reference), or null (gstvk::ElementContext::queue_of()).
    virtual GstVulkanQueue* gst_vulkan_queue(GstVulkanDevice* device, GstPadDirection side) = 0;
    // Warns, once per device and start, that the element does not run on GStreamer's device `device`,
    // whose frames it meets, saying `why` (when empty: what it finds now).
    virtual void gst_device_not_shared(GstVulkanDevice* device, std::string why = {}) = 0;
    // The mean GPU time per frame of the latest window of timed frames, in microseconds, from the
    // thread that finishes frames.
    virtual void gpu_time(double mean_us) = 0;
  };

  // Opens the ring and the scheduler on `device` (throws vk errors); `name` names the ring in logs
  // and debuggers.
  FrameStream(std::shared_ptr<Device> device, Operation& operation, Owner& owner, const char* name,
              std::shared_ptr<TransferCounts> counts);
  // Hands over the frames still in flight (stop()).
  ~FrameStream();
  FrameStream(const FrameStream&) = delete;
  FrameStream& operator=(const FrameStream&) = delete;

  // The caps: frames in flight leave first, then the operation configures the new formats.
  // `in_device` and `out_device_caps`: the pads' caps have memory:VkComputeDevice; `out_device`:
  // outputs go in device memory (those caps, or system-memory caps before a tee with an element of
  // ours behind it). False with `error` set when the operation refuses them.
  bool configure(const GstVideoInfo& in, const GstVideoInfo& out, bool in_device, bool out_device,
                 bool out_device_caps, GError** error);
  // Whether frames should pass through untouched under the current caps and the operation's mode:
  // an analysis whose frames stay in the same kind of memory.
  bool wants_passthrough() const;
  // The choice the element made (GstBaseTransform's passthrough); read by allocation queries too.
  void set_passthrough(bool passthrough) { passthrough_ = passthrough; }
  bool passthrough() const { return passthrough_; }
  bool out_device() const { return out_device_; }

  // One input frame (takes `in`), in `segment`. An output in device memory, or the input of an
  // analysis that passes it through, leaves now in `out`; an output in host memory, and any frame
  // that carries its results (Frame::leaves_with_results), leaves when the GPU is done. Errors are posted
  // (Owner::post_error()) before a flow error returns.
  GstFlowReturn submit(GstBuffer* in, const GstSegment& segment, GstBuffer** out);
  // Waits until every frame in flight has left (results posted, outputs pushed).
  GstFlowReturn drain();
  // A flush: drops the frames in flight, completing none.
  void discard();
  // Hands every frame over (what the GPU still uses to the reaper); nothing is submitted after.
  void stop();

  const std::shared_ptr<Device>& device() const { return device_; }

 private:
  class FrameWork;
  // `leaves_with_results`: the frame waits for complete() and leaves from its finish (attach-meta).
  // `share_cuda_copy`: bind_cuda_input()'s `share`.
  GstFlowReturn submit_frame(GstBuffer* in, const GstSegment& segment, uint32_t slot, GstBuffer** out,
                             bool& leaves_with_results, bool share_cuda_copy);
  // Binds `frame.inbuf`, in GStreamer's CUDA memory: the copy of it that rides on it, else a copy
  // of it made now (InputPath::kCuda, kCudaCopy), which goes on with the frame when `share` (the
  // frame is passed on, writable, to elements of ours). False with `error` set.
  bool bind_cuda_input(Frame& frame, InputBinding& input, bool share, std::string& error);
  // `cuda_output`: set when the output is a frame in CUDA memory (CudaFrames::bind_output());
  // `vulkan_output`: in GStreamer's Vulkan image memory (VulkanOutputs::bind()).
  GstFlowReturn acquire_output(Frame& frame, bool& cuda_output, bool& vulkan_output);
  // The bridge to the device of `in` (GStreamer's Vulkan image memory), made on its first frame
  // (vulkanbridge.hpp); `shared` when the element runs on that device. Null with `error` set.
  VulkanBridge* vulkan_bridge(GstBuffer* in, bool& shared, std::string& error);
  // Binds `in`, GStreamer's Vulkan images: read on the GPU by the frame's commands on the device the
  // element runs on (record_vulkan_read()), else copied by their device into host memory for `slot`.
  bool bind_vulkan_input(GstBuffer* in, uint32_t slot, InputBinding& input, FrameLayout& layout,
                         std::string& error);
  // Records the copy of the frame's images into its slot's device memory (InputPath::kVulkanImage).
  bool record_vulkan_read(Frame& frame, GError** error);
  bool record_and_submit(Frame& frame, const InputBinding& input, bool cuda_output, bool vulkan_output,
                         GError** error);
  void record_analysis_output(Frame& frame);
  void stage_input(Frame& frame);
  void gather_input(Frame& frame, const InputBinding& input);
  bool follows_earlier_work(const Frame& frame, const InputBinding& input) const;
  // A finished output in host memory: sends this thread's batch first (the push may block).
  GstFlowReturn push_output(GstBuffer* out);
  GstFlowReturn push_held();
  void report_failure(Completion status);
  void note_gpu_time(double ns);
  // Frames the GPU may still run: released here when they end within a short wait, else handed to
  // the reaper with the ring and everything they may touch.
  void release_after_gpu(FrameScheduler::Frames frames);

  std::shared_ptr<Device> device_;
  Device::StreamCount counted_;  // on device_ while the stream lives
  Operation& operation_;
  Owner& owner_;
  std::string name_;
  std::shared_ptr<TransferCounts> counts_;
  uint64_t frame_timeout_ns_;
  std::unique_ptr<CommandRing> ring_;
  std::unique_ptr<SlotCopies> copies_;  // the ring slots' staging buffers and frame copies
  std::unique_ptr<CudaFrames> cuda_;    // frames in CUDA memory, from the first one on
  // Frames in GStreamer's Vulkan image memory, copied by its device (vulkanbridge.hpp), from the
  // first one on.
  std::unique_ptr<VulkanBridge> vulkan_;
  bool vulkan_shared_ = false;  // vulkan_'s device is the one we run on
  // Outputs in GStreamer's Vulkan image memory (vulkanoutputs.hpp), from the first one on.
  std::unique_ptr<VulkanOutputs> vulkan_outputs_;
  // Frames from their submission until they leave (scheduler.hpp).
  std::unique_ptr<FrameScheduler> scheduler_;
  // Outputs in host memory finished while the streaming thread is inside a frame (heldoutputs.hpp).
  HeldOutputs held_;
  std::unique_ptr<CapsState> caps_state_;  // from configure(); the ring's frames use it
  GstVideoInfo in_info_{};
  GstVideoInfo out_info_{};
  bool in_device_ = false;
  bool out_device_ = false;
  bool out_device_caps_ = false;
  // Written by the streaming thread with no frame in flight, read by allocation queries too.
  std::atomic<bool> passthrough_{false};
  uint64_t submitted_ = 0;
  InputPath last_path_ = InputPath::kOwnMemory;
  // The thread that finishes frames: GPU time of completed timed frames, from timestamp queries,
  // logged every window of them.
  double gpu_ns_ = 0;
  guint gpu_frames_ = 0;
};

}  // namespace vkc
