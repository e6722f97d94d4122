// Input buffer allocation the way a real upstream element does it: after the caps event, ask
// the element with an ALLOCATION query and use the first pool it proposes.
#pragma once

#include <gst/video/video.h>

#include <cstdint>

namespace vktest {

class UpstreamAllocation {
 public:
  // Runs the ALLOCATION query (need-pool) for `caps` through `srcpad` and activates the first
  // proposed pool, with GstVideoMeta enabled when the pool offers that option (as videoconvert
  // or videotestsrc do). Without a proposed pool, buffers come from the proposed allocator.
  UpstreamAllocation(GstPad* srcpad, GstCaps* caps);
  ~UpstreamAllocation();
  UpstreamAllocation(const UpstreamAllocation&) = delete;
  UpstreamAllocation& operator=(const UpstreamAllocation&) = delete;

  bool has_pool() const { return pool_ != nullptr; }
  bool pool_has_video_meta() const { return video_meta_; }
  GstBufferPool* pool() const { return pool_; }

  // A buffer holding the tightly packed rows, laid out as the pool or allocator decides.
  GstBuffer* NewBuffer(const uint8_t* rows, int row_bytes);

 private:
  GstVideoInfo info_;
  GstBufferPool* pool_ = nullptr;
  bool video_meta_ = false;
  GstAllocator* allocator_ = nullptr;
  GstAllocationParams params_;
};

}  // namespace vktest
