// GstVkComputeFilter: the base class of every vkcompute element.
//
// It owns the Vulkan side of an element: device choice (`device`, `device-name`), the memory of
// its frames (vkc::FramePools: host-visible Vulkan memory offered upstream and used for output in
// system memory, device-local memory between two elements of ours, negotiated as
// memory:VkComputeDevice in memorycaps.hpp), binding each input buffer for the GPU (device
// memory, own memory, host import or staging copy), a ring of command buffers so several frames
// are in flight (vkc::FrameScheduler in scheduler.hpp: each frame is finished the moment the GPU
// is done with it), and draining or dropping them on events and state changes. A subclass
// negotiates formats, builds its kernels in configure() and records one frame's work in record().
//
// Two kinds of element share it. Filters (rgb2yuv, ...) write a new output buffer per frame: in
// device memory it leaves at submit (the GPU orders the next element's work after it), in system
// memory once the GPU is done. Analysis elements (`analysis` set in class_init: lumamax, ...) push
// each input buffer on at once, unchanged (or copied between host and device memory when the two
// pads' memories differ), and get complete() for each frame, in order, when its GPU results are
// ready (to post a message).
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include <memory>

#include "frame.hpp"

namespace vkc {
// How an element's kernels read their input, so that the base class can stage it before record():
// planes [0, planes) of the frame's rows, each byte once, `load_bytes` at a time. Where the device
// reads host memory slower than a transfer moves it (DeviceFeatures::copy_input_to_device:
// discrete GPUs) and the loads are narrow, the base class copies those rows into device memory of
// the frame's slot first and points frame->in at the copy. The copy moves whole rows: a region
// (Frame::x0, x1) narrower than half the frame is read in place instead. planes = 0: read as it is.
struct InputReads {
  guint planes = 0;
  guint load_bytes = 0;
};

// What an element derives from the negotiated caps (kernels, parameters, per-slot buffers). The
// base class owns it: replaced after the frames in flight have drained, released at stop.
struct CapsState {
  virtual ~CapsState() = default;
  InputReads input_reads;  // set by configure()
};
}  // namespace vkc

G_BEGIN_DECLS

#define GST_TYPE_VKCOMPUTE_FILTER (gst_vkcompute_filter_get_type())
G_DECLARE_DERIVABLE_TYPE(GstVkComputeFilter, gst_vkcompute_filter, GST, VKCOMPUTE_FILTER, GstBaseTransform)

struct _GstVkComputeFilterClass {
  GstBaseTransformClass parent_class;

  // Builds the per-caps state (kernels, parameters) for the negotiated formats, or returns null
  // with `error` set. Called on the streaming thread after every in-flight frame has completed.
  std::unique_ptr<vkc::CapsState> (*configure)(GstVkComputeFilter* self, const GstVideoInfo* in,
                                               const GstVideoInfo* out, GError** error);

  // Optional: takes this frame's settings before the base class stages its input, on the
  // streaming thread: an element whose kernels read part of the frame sets frame->x0 .. y1. Keeps
  // what record() and complete() need of the settings in its per-slot state, so that a property
  // change between the two calls cannot split a frame. FALSE with `error` set refuses the frame.
  gboolean (*begin_frame)(GstVkComputeFilter* self, vkc::Frame* frame, GError** error);

  // Records one frame's GPU work into frame->cmd, its input staged as the caps state's
  // input_reads asked. The base class adds the barrier that makes the results visible to the CPU
  // and submits.
  gboolean (*record)(GstVkComputeFilter* self, vkc::Frame* frame, GError** error);

  // Analysis elements: called in frame order once a frame's GPU work has completed, with
  // frame->inbuf still valid, on the element's completion thread or its streaming thread (never two
  // frames at once; see scheduler.hpp). Not called for frames dropped by a flush.
  void (*complete)(GstVkComputeFilter* self, vkc::Frame* frame);

  // The formats a pad can take for the caps of the other pad (`direction`: the pad of `caps`), as
  // GstBaseTransformClass::transform_caps without filter and memory: the base class offers each
  // result in both memories. Null: the same formats on both pads.
  GstCaps* (*transform_formats)(GstPadDirection direction, GstCaps* caps);

  // TRUE for analysis elements: same caps in and out, input buffers pass through untouched.
  gboolean analysis;

  // Analysis elements: TRUE when the current settings make the element write into the frames
  // (histogram's draw). It then gets output buffers like a filter, and complete() is called when
  // each frame is pushed. Asked when caps are set and before each frame (streaming thread): a
  // changed answer applies from the next frame.
  gboolean (*modifies_frames)(GstVkComputeFilter* self);
};

G_END_DECLS

// The device the element opened at start (null before).
const std::shared_ptr<vkc::Device>& gst_vkcompute_filter_get_device(GstVkComputeFilter* self);

// The state configure() built for the current caps (null before the first caps).
vkc::CapsState* gst_vkcompute_filter_get_caps_state(GstVkComputeFilter* self);

namespace vkc {
// The element's own CapsState type, from record() or complete().
template <typename State>
State& caps_state(GstVkComputeFilter* self) {
  return static_cast<State&>(*gst_vkcompute_filter_get_caps_state(self));
}
}  // namespace vkc

// Adds the pad templates of the element: the caps strings' structures (formats, sizes, rates), each
// in device memory (memory:VkComputeDevice, preferred between two elements of ours) and in system
// memory.
void gst_vkcompute_filter_class_add_pad_templates(GstVkComputeFilterClass* klass, const char* sink_caps,
                                                  const char* src_caps);

// Makes `klass` an analysis element class: same caps on both pads (`caps`, templates added here),
// frames passing through untouched while they stay in the same memory.
void gst_vkcompute_filter_class_init_analysis(GstVkComputeFilterClass* klass, const char* caps);

// Frames the element keeps in flight on the GPU.
constexpr guint kVkComputeFramesInFlight = 4;
