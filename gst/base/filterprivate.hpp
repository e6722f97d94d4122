// The instance data of GstVkComputeFilter, shared by the files of the base class:
// computefilter.cpp (GstBaseTransform's side: start, caps, allocation, events, one frame in) and
// filterdownstream.cpp (the side that faces downstream: pushes, output buffers, errors, the
// streaming thread's batch and a new peer's caps), and residenttiming.cpp (the elements' operations
// on frames in device memory, for the bench). Not for elements.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "computefilter.hpp"
#include "cuda/elementcontext.hpp"
#include "filterproperties.hpp"
#include "framepools.hpp"
#include "framestream.hpp"
#include "gstvk/elementcontext.hpp"
#include "linkchanges.hpp"
#include "startgate.hpp"

// The element's side of its frame stream (framestream.hpp): pushes, output buffers and errors.
class ElementOwner final : public vkc::FrameStream::Owner {
 public:
  explicit ElementOwner(GstVkComputeFilter* self) : self_(self) {}
  GstFlowReturn push(GstBuffer* out) override;
  GstFlowReturn acquire_output(GstBuffer* in, GstBuffer** out) override;
  bool output_joins_batch() override;
  bool output_reaches_ours_unwritten() override;
  void post_error(GQuark domain, gint code, const std::string& message, const std::string& debug) override;
  void post_warning(GQuark domain, gint code, const std::string& message) override;
  GstVulkanQueue* gst_vulkan_queue(GstVulkanDevice* device, GstPadDirection side) override;
  void gst_device_not_shared(GstVulkanDevice* device, std::string why = {}) override;
  // The same for `error` (taken; null: an error that says nothing more).
  void post_error(GError* error);
  void gpu_time(double mean_us) override;

 private:
  GstVkComputeFilter* self_;
};

struct GstVkComputeFilterPrivate {
  explicit GstVkComputeFilterPrivate(GstVkComputeFilter* self) : owner(self) {}

  vkc::FilterPropertyValues values;  // object lock

  // What the element does to frames (operation.hpp), from its instance init to finalize.
  std::unique_ptr<vkc::Operation> operation;
  ElementOwner owner;
  // Streaming state, from start() to stop().
  std::shared_ptr<vkc::Device> device;
  std::unique_ptr<vkc::FramePools> pools;
  std::unique_ptr<vkc::FrameStream> stream;
  // Streaming thread: generate_output() last handed GstBaseTransform a buffer to push (see
  // gst_vkcompute_filter_chain()).
  bool base_pushes = false;
  // The thread that last brought a buffer (gst_vkcompute_filter_chain()): a stop hurries its
  // submissions (vkc::QueueLock), since the stop waits for it to leave.
  std::atomic<std::thread::id> streaming_thread{};
  // Pushes refused after a change downstream, their frames dropped
  // (gst_vkcompute_filter_after_push()): more than a ring of frames under the old caps is an error.
  vkc::RefusedPushes refused{kVkComputeFramesInFlight + 1};
  // The CUDA context shared with NVIDIA's elements around (set_context(), CONTEXT queries, frames
  // made in CUDA memory).
  vkc::cuda::ElementContext cuda_context;
  // The instance, device and queue shared with GStreamer's Vulkan elements around (set_context(),
  // CONTEXT queries, start()).
  vkc::gstvk::ElementContext vulkan_context;
  // The GStreamer device that the element last warned it does not share, since its start (object lock).
  GstVulkanDevice* not_shared_told = nullptr;
  // Marked by change_state() while READY to PAUSED runs start(), which opens the device.
  vkc::StartGate start_gate;
};

GstVkComputeFilterPrivate* gst_vkcompute_filter_private(GstVkComputeFilter* self);

// Posts `e` as the element's error (a Vulkan call that failed).
void gst_vkcompute_filter_post_exception(GstVkComputeFilter* self, const std::exception& e);

// The flow of a push of ours: a frame refused after a change downstream is dropped (linkchanges.hpp).
GstFlowReturn gst_vkcompute_filter_after_push(GstVkComputeFilter* self, GstFlowReturn flow);

// From instance init: watches the caps events that leave the source pad, for a peer that changed
// while PLAYING.
void gst_vkcompute_filter_watch_new_peers(GstVkComputeFilter* self);
