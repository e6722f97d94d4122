// vkc::FramePools: the memory an element's frames live in. Its two allocators (host-visible and
// device-local Vulkan memory), the pool it offers upstream in the ALLOCATION query and the output
// pool it decides on: GstBaseTransform's propose_allocation and decide_allocation, without the
// GObject glue.
#pragma once

#include <gst/gst.h>

#include <memory>

#include "vkmemory.hpp"

namespace vkc {

class FramePools {
 public:
  // `frames_in_flight`: how many frames the element keeps on the GPU; `counts` is shared with the
  // device-memory allocator (CPU maps of it count as downloads).
  FramePools(std::shared_ptr<Device> device, std::shared_ptr<TransferCounts> counts, guint frames_in_flight);
  ~FramePools();
  FramePools(const FramePools&) = delete;
  FramePools& operator=(const FramePools&) = delete;

  // Answers upstream's ALLOCATION query. `passthrough`: the element pushes its input buffers on,
  // so the query goes on to the element downstream (`src`) first and its pool wins.
  bool propose(GstQuery* query, bool passthrough, GstPad* src);
  // Sets the output pool in downstream's ALLOCATION query: always one of ours, of device memory
  // when `device` (the caps name it, or an element of ours is further downstream), else of
  // host-visible memory.
  bool decide(GstQuery* query, bool device);
  // A buffer from `pool` (the one decide() set, which GstBaseTransform kept; null when there is
  // none), activated on first use. Posts an element error on `element` for a flow that is not OK
  // or FLUSHING.
  static GstFlowReturn acquire(GstElement* element, GstBufferPool* pool, GstBuffer** out);

 private:
  // The allocator of the memory that `caps` name: device-local for memory:VkComputeDevice.
  GstAllocator* allocator_for(GstCaps* caps) const;

  guint frames_in_flight_;
  GstAllocator* host_ = nullptr;
  GstAllocator* device_ = nullptr;
  GstBufferPool* upstream_pool_ = nullptr;  // offered in propose(), kept while the caps stay
};

}  // namespace vkc
