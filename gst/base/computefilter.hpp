// GstVkComputeFilter: the base class of every vkcompute element.
//
// It owns the Vulkan side of an element: device choice (`device`, `device-name`), the memory of
// its frames (vkc::FramePools: host-visible Vulkan memory offered upstream and used for output in
// system memory, device-local memory between two elements of ours, negotiated as
// memory:VkComputeDevice in memorycaps.hpp), binding each input buffer for the GPU (device
// memory, own memory, host import or staging copy), a ring of command buffers so several frames
// are in flight (vkc::FrameScheduler in scheduler.hpp: each frame is finished the moment the GPU
// is done with it), and draining or dropping them on events and state changes. A subclass
// negotiates formats and gives the base class its vkc::Operation (operation.hpp), which builds its
// kernels in configure() and records one frame's work in record().
//
// Two kinds of element share it. Filters (rgb2yuv, ...) write a new output buffer per frame: in
// device memory it leaves at submit (the GPU orders the next element's work after it), in system
// memory once the GPU is done. Analysis elements (`analysis` set in class_init: lumamax, ...) push
// each input buffer on at once, unchanged (or copied between host and device memory when the two
// pads' memories differ), and get complete() for each frame, in order, when its GPU results are
// ready (to post a message); a frame that carries its results (attach-meta) leaves after that.
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include <memory>

#include "operation.hpp"

G_BEGIN_DECLS

#define GST_TYPE_VKCOMPUTE_FILTER (gst_vkcompute_filter_get_type())
G_DECLARE_DERIVABLE_TYPE(GstVkComputeFilter, gst_vkcompute_filter, GST, VKCOMPUTE_FILTER, GstBaseTransform)

struct _GstVkComputeFilterClass {
  GstBaseTransformClass parent_class;

  // The formats a pad can take for the caps of the other pad (`direction`: the pad of `caps`), as
  // GstBaseTransformClass::transform_caps without filter and memory: the base class offers each
  // result in both memories. Null: the same formats on both pads.
  GstCaps* (*transform_formats)(GstPadDirection direction, GstCaps* caps);

  // TRUE for analysis elements (gst_vkcompute_filter_class_init_analysis()): the same caps on both
  // pads; their operation's mode() is then kAnalysis or kDrawing.
  gboolean analysis;
};

G_END_DECLS

namespace vkc {
// An operation that belongs to one element, which it reads its settings from and posts its
// messages on (the element owns the operation: no reference).
class ElementOperation : public Operation {
 public:
  explicit ElementOperation(GstElement* element) : element_(element) {}

 protected:
  GstElement* const element_;
};

// A filter's operation: a new output frame per input frame, whatever its settings.
class FilterOperation : public ElementOperation {
 public:
  using ElementOperation::ElementOperation;
  Mode mode() const final { return Mode::kFilter; }
};
}  // namespace vkc

// Gives the element its operation (operation.hpp), from its instance init: the base class drives it
// from start to stop and frees it with the element.
void gst_vkcompute_filter_set_operation(GstVkComputeFilter* self, std::unique_ptr<vkc::Operation> operation);

// Adds the pad templates of the element: the caps strings' structures (formats, sizes, rates), each
// in device memory (memory:VkComputeDevice, preferred between two elements of ours), in system
// memory and, for the formats it holds, in GStreamer's CUDA memory.
void gst_vkcompute_filter_class_add_pad_templates(GstVkComputeFilterClass* klass, const char* sink_caps,
                                                  const char* src_caps);

// Makes `klass` an analysis element class: same caps on both pads (`caps`, templates added here),
// frames passing through untouched while they stay in the same memory.
void gst_vkcompute_filter_class_init_analysis(GstVkComputeFilterClass* klass, const char* caps);
