#include "cudacopies.hpp"

#include <new>

namespace vkc {

namespace {

struct CudaCopyMeta {
  GstMeta meta;
  std::shared_ptr<const CudaCopy> copy;  // constructed in init, destroyed in free
  const GstMemory* image;                // the frame's memory whose copy this is (compared, never read)
  // The frame's timestamp when the copy was put on it: a pool that kept its frames' metas would hand
  // the same memory out again with the copy of an earlier frame on it.
  GstClockTime pts;
};

GType cuda_copy_meta_api() {
  static const GType type = [] {
    static const gchar* tags[] = {nullptr};
    return gst_meta_api_type_register("GstVkComputeCudaCopyMetaAPI", tags);
  }();
  return type;
}

const GstMetaInfo* cuda_copy_meta_info() {
  static const GstMetaInfo* info = gst_meta_register(
      cuda_copy_meta_api(), "GstVkComputeCudaCopyMeta", sizeof(CudaCopyMeta),
      [](GstMeta* meta, gpointer, GstBuffer*) -> gboolean {
        auto* m = reinterpret_cast<CudaCopyMeta*>(meta);
        new (&m->copy) std::shared_ptr<const CudaCopy>();
        m->image = nullptr;
        m->pts = GST_CLOCK_TIME_NONE;
        return TRUE;
      },
      [](GstMeta* meta, GstBuffer*) {
        using Copy = std::shared_ptr<const CudaCopy>;
        reinterpret_cast<CudaCopyMeta*>(meta)->copy.~Copy();
      },
      // Onto a copy of the whole frame only: a part or another frame is not this copy.
      [](GstBuffer* dest, GstMeta* meta, GstBuffer*, GQuark type, gpointer data) -> gboolean {
        if (!GST_META_TRANSFORM_IS_COPY(type) || static_cast<GstMetaTransformCopy*>(data)->region)
          return FALSE;
        const auto* from = reinterpret_cast<const CudaCopyMeta*>(meta);
        // Only onto a buffer of the same memory (gst_buffer_copy_into() copies memories before metas):
        // not onto another frame that takes this one's metadata (an element's output), which would
        // keep the copy, and its CUDA bridge, for as long as that frame lives.
        if (gst_buffer_n_memory(dest) == 0 || gst_buffer_peek_memory(dest, 0) != from->image) return FALSE;
        auto* to = reinterpret_cast<CudaCopyMeta*>(gst_buffer_add_meta(dest, cuda_copy_meta_info(), nullptr));
        if (!to) return FALSE;
        to->copy = from->copy;
        to->image = from->image;
        to->pts = from->pts;
        return TRUE;
      });
  return info;
}

}  // namespace

void attach_cuda_copy(GstBuffer* buffer, std::shared_ptr<const CudaCopy> copy) {
  while (GstMeta* old = gst_buffer_get_meta(buffer, cuda_copy_meta_api()))
    gst_buffer_remove_meta(buffer, old);
  auto* meta = reinterpret_cast<CudaCopyMeta*>(gst_buffer_add_meta(buffer, cuda_copy_meta_info(), nullptr));
  meta->copy = std::move(copy);
  meta->image = gst_buffer_peek_memory(buffer, 0);
  meta->pts = GST_BUFFER_PTS(buffer);
}

std::shared_ptr<const CudaCopy> cuda_copy_of(GstBuffer* buffer, const Device& device,
                                             const GstVideoInfo& info) {
  const auto* meta = reinterpret_cast<const CudaCopyMeta*>(gst_buffer_get_meta(buffer, cuda_copy_meta_api()));
  if (!meta || meta->image != gst_buffer_peek_memory(buffer, 0) || meta->pts != GST_BUFFER_PTS(buffer))
    return nullptr;
  const CudaCopy& copy = *meta->copy;
  const bool fits = copy.device == &device && copy.format == GST_VIDEO_INFO_FORMAT(&info) &&
                    copy.width == GST_VIDEO_INFO_WIDTH(&info) && copy.height == GST_VIDEO_INFO_HEIGHT(&info);
  return fits ? meta->copy : nullptr;
}

}  // namespace vkc
