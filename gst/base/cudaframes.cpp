#include "cudaframes.hpp"

#include <algorithm>
#include <atomic>

#include "cuda/gstcudamemory.hpp"

namespace vkc {

CudaFrames::~CudaFrames() {
  // A copy that rides on a frame keeps its bridge, which keeps the frame's CUDA context.
  inputs_.clear();
  outputs_.clear();
  shared_inputs_.clear();
  shared_outputs_.clear();
  bound_outputs_.clear();
  bridge_.reset();
}

bool CudaFrames::map(GstBuffer* buffer, const GstVideoInfo& info, GstMapFlags flags, Planes& planes,
                     FrameLayout& layout, std::string& error) {
  GstMemory* memory = gst_buffer_peek_memory(buffer, 0);
  GObject* owner = nullptr;
  void* context = cuda::context_of(memory, error, &owner);
  if (!context) return false;
  if (context != context_) {
    if (bridge_) {
      // Frames of another CUDA context: those of the old one may still be copied.
      error =
          "frames in CUDA memory of a second CUDA context (an element takes one CUDA context: its "
          "input's, shared with the elements around it)";
      return false;
    }
    bridge_ = cuda::Bridge::create(device_, context, owner, error);
    if (!bridge_) return false;
    context_ = context;
  }
  if (flags & GST_MAP_READ) cuda::wait_for_writer(memory);
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, const_cast<GstVideoInfo*>(&info), buffer,
                           GstMapFlags(flags | cuda::kMapCuda))) {
    error = "the CUDA memory could not be mapped on the GPU";
    return false;
  }
  planes = Planes{};
  layout = FrameLayout{};
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
    const auto stride = size_t(GST_VIDEO_INFO_PLANE_STRIDE(&info, p));
    const auto pitch = size_t(GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p));
    guint rows = 0;
    gsize row_bytes = 0;
    plane_extent(info, p, rows, row_bytes);
    planes.cuda.push_back(
        {uint64_t(uintptr_t(GST_VIDEO_FRAME_PLANE_DATA(&frame, p))), pitch, std::min(stride, pitch), rows});
    planes.offsets.push_back(uint32_t(GST_VIDEO_INFO_PLANE_OFFSET(&info, p)));
    planes.strides.push_back(uint32_t(stride));
    layout.offset[p] = planes.offsets.back();
    layout.stride[p] = planes.strides.back();
  }
  // The buffer, held until the frame completes (input) or leaves (output), keeps the memory; a map
  // for writing marks it as written on the GPU, so that a CPU map later copies it down.
  gst_video_frame_unmap(&frame);
  layout.device_local = true;
  return true;
}

std::shared_ptr<CudaCopy> CudaFrames::copy_for(Copies& by_slot, Copies& pool, uint32_t slot, bool shared,
                                               const GstVideoInfo& info, const char* name,
                                               std::string& error) {
  std::shared_ptr<CudaCopy>* copy = &by_slot[slot];
  if (shared) {
    // use_count() 1: the pool's is the only reference, no frame and no reader holds the copy.
    const auto free =
        std::find_if(pool.begin(), pool.end(), [](const auto& c) { return c.use_count() == 1; });
    // The last reader let go of it on another thread: what it did comes before the writes below.
    std::atomic_thread_fence(std::memory_order_acquire);
    if (free != pool.end())
      copy = &*free;
    else if (pool.size() < kSharedCopies)
      copy = &pool.emplace_back();
  }
  if (!*copy) *copy = std::make_shared<CudaCopy>();
  CudaCopy& c = **copy;
  const gsize bytes = GST_VIDEO_INFO_SIZE(&info);
  if (!c.target || c.bridge != bridge_ || c.target->buffer().size() < bytes) {
    c.target.reset();
    c.bridge = bridge_;
    c.device = device_.get();
    c.target = bridge_->make_target(bytes, name, error);
    if (!c.target) return nullptr;
  }
  c.format = GST_VIDEO_INFO_FORMAT(&info);
  c.width = GST_VIDEO_INFO_WIDTH(&info);
  c.height = GST_VIDEO_INFO_HEIGHT(&info);
  c.cuda_value = 0;
  return *copy;
}

std::shared_ptr<const CudaCopy> CudaFrames::bind_input(uint32_t slot, GstBuffer* buffer,
                                                       const GstVideoInfo& info, bool shared,
                                                       std::string& error) {
  Planes planes;
  FrameLayout layout;
  if (!map(buffer, info, GST_MAP_READ, planes, layout, error)) return nullptr;
  std::shared_ptr<CudaCopy> copy =
      copy_for(inputs_, shared_inputs_, slot, shared, info, "vkcompute CUDA input", error);
  if (!copy) return nullptr;
  layout.buffer = copy->target->buffer().handle();
  copy->layout = layout;
  copy->cuda_value = bridge_->copy_in(planes.cuda, *copy->target, planes.offsets, planes.strides, error);
  if (!copy->cuda_value) return nullptr;
  if (copy != inputs_[slot]) attach_cuda_copy(buffer, copy);  // the slot's own is written again
  return copy;
}

bool CudaFrames::bind_output(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info, FrameLayout& layout,
                             std::string& error) {
  auto& [copy, planes] = bound_outputs_[slot];
  copy.reset();
  if (!map(buffer, info, GST_MAP_WRITE, planes, layout, error)) return false;
  copy = copy_for(outputs_, shared_outputs_, slot, true, info, "vkcompute CUDA output", error);
  if (!copy) return false;
  layout.buffer = copy->target->buffer().handle();
  copy->layout = layout;
  return true;
}

bool CudaFrames::copy_output(uint32_t slot, std::string& error) {
  const auto& [copy, planes] = bound_outputs_[slot];
  return bridge_->copy_out(*copy->target, planes.offsets, planes.strides, planes.cuda, error);
}

bool CudaFrames::wait_output(uint32_t slot, GstBuffer** frame, bool share, std::string& error) {
  auto& [copy, planes] = bound_outputs_[slot];
  if (!bridge_->wait_copied_out(*copy->target, error)) return false;
  // The slot's own copy is written again by the slot's next frame: only a shared one rides on.
  if (share && copy != outputs_[slot]) {
    *frame = gst_buffer_make_writable(*frame);
    attach_cuda_copy(*frame, std::move(copy));
  }
  copy.reset();
  return true;
}

void CudaFrames::note_read(const CudaCopy& copy) {
  std::lock_guard<std::mutex> guard(read_bridge_lock_);
  if (read_bridge_ != copy.bridge) read_bridge_ = copy.bridge;
}

bool CudaFrames::release_if_lost() {
  std::shared_ptr<cuda::Bridge> read;
  {
    std::lock_guard<std::mutex> guard(read_bridge_lock_);
    read = read_bridge_;
  }
  const bool own = bridge_ && bridge_->release_if_lost();
  const bool read_lost = read && read->release_if_lost();
  return own || read_lost;
}

}  // namespace vkc
