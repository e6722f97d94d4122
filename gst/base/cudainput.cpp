#include "cudainput.hpp"

#include "cuda/gstcudamemory.hpp"

namespace vkc {

CudaInput::~CudaInput() {
  targets_.clear();
  bridge_.reset();
}

uint64_t CudaInput::bind(uint32_t slot, GstBuffer* buffer, const GstVideoInfo& info, FrameLayout& layout,
                         std::string& error) {
  GstMemory* memory = gst_buffer_peek_memory(buffer, 0);
  void* context = cuda::context_of(memory, error);
  if (!context) return 0;
  if (context != context_) {
    if (bridge_) {
      // Frames of another CUDA context: those of the old one may still be read.
      error = "frames in CUDA memory of a second CUDA context (one element takes one decoder's context)";
      return 0;
    }
    bridge_ = cuda::Bridge::create(device_, context, error);
    if (!bridge_) return 0;
    context_ = context;
  }
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, const_cast<GstVideoInfo*>(&info), buffer,
                           GstMapFlags(GST_MAP_READ | cuda::kMapCuda))) {
    error = "the CUDA memory could not be mapped on the GPU";
    return 0;
  }
  std::vector<cuda::CudaPlane> planes;
  std::vector<uint32_t> offsets, strides;
  layout = FrameLayout{};
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
    const auto stride = size_t(GST_VIDEO_INFO_PLANE_STRIDE(&info, p));
    const auto pitch = size_t(GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p));
    guint rows = 0;
    gsize row_bytes = 0;
    plane_extent(info, p, rows, row_bytes);
    planes.push_back(
        {uint64_t(uintptr_t(GST_VIDEO_FRAME_PLANE_DATA(&frame, p))), pitch, std::min(stride, pitch), rows});
    offsets.push_back(uint32_t(GST_VIDEO_INFO_PLANE_OFFSET(&info, p)));
    strides.push_back(uint32_t(stride));
    layout.offset[p] = offsets.back();
    layout.stride[p] = strides.back();
  }
  gst_video_frame_unmap(&frame);  // the buffer, held until the frame completes, keeps the memory
  std::unique_ptr<cuda::Target>& target = targets_[slot];
  if (!target || target->buffer().size() < GST_VIDEO_INFO_SIZE(&info)) {
    target.reset();
    target = bridge_->make_target(GST_VIDEO_INFO_SIZE(&info), "vkcompute CUDA input", error);
    if (!target) return 0;
  }
  layout.buffer = target->buffer().handle();
  layout.device_local = true;
  return bridge_->copy_in(planes, *target, offsets, strides, error);
}

}  // namespace vkc
