#include "cudaframes.hpp"

#include "cuda/gstcudamemory.hpp"

namespace vkc {

CudaFrames::~CudaFrames() {
  inputs_.clear();
  outputs_.clear();
  bridge_.reset();
}

bool CudaFrames::map(GstBuffer* buffer, const GstVideoInfo& info, GstMapFlags flags, Planes& planes,
                     FrameLayout& layout, std::string& error) {
  GstMemory* memory = gst_buffer_peek_memory(buffer, 0);
  void* context = cuda::context_of(memory, error);
  if (!context) return false;
  if (context != context_) {
    if (bridge_) {
      // Frames of another CUDA context: those of the old one may still be copied.
      error =
          "frames in CUDA memory of a second CUDA context (an element takes one CUDA context: its "
          "input's, shared with the elements around it)";
      return false;
    }
    bridge_ = cuda::Bridge::create(device_, context, error);
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

cuda::Target* CudaFrames::target(std::vector<std::unique_ptr<cuda::Target>>& targets, uint32_t slot,
                                 gsize bytes, const char* name, std::string& error) {
  std::unique_ptr<cuda::Target>& target = targets[slot];
  if (!target || target->buffer().size() < bytes) {
    target.reset();
    target = bridge_->make_target(bytes, name, error);
  }
  return target.get();
}

uint64_t CudaFrames::bind_input(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info,
                                FrameLayout& layout, std::string& error) {
  Planes planes;
  if (!map(buffer, info, GST_MAP_READ, planes, layout, error)) return 0;
  cuda::Target* to = target(inputs_, slot, GST_VIDEO_INFO_SIZE(&info), "vkcompute CUDA input", error);
  if (!to) return 0;
  layout.buffer = to->buffer().handle();
  return bridge_->copy_in(planes.cuda, *to, planes.offsets, planes.strides, error);
}

bool CudaFrames::bind_output(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info, FrameLayout& layout,
                             std::string& error) {
  if (!map(buffer, info, GST_MAP_WRITE, output_planes_[slot], layout, error)) return false;
  cuda::Target* from = target(outputs_, slot, GST_VIDEO_INFO_SIZE(&info), "vkcompute CUDA output", error);
  if (!from) return false;
  layout.buffer = from->buffer().handle();
  return true;
}

bool CudaFrames::copy_output(uint32_t slot, std::string& error) {
  const Planes& planes = output_planes_[slot];
  return bridge_->copy_out(*outputs_[slot], planes.offsets, planes.strides, planes.cuda, error);
}

bool CudaFrames::wait_output(uint32_t slot, std::string& error) {
  return bridge_->wait_copied_out(*outputs_[slot], error);
}

}  // namespace vkc
