// What an element does to frames on the GPU, apart from GStreamer: the interface each element
// implements (gst/elements/*.cpp) and the base class drives (computefilter.hpp, framestream.hpp).
//
// The base class negotiates caps and memory, binds each input buffer, takes output buffers, records
// the copies around the element's work, submits, and finishes frames in order when the GPU is done.
// The operation builds its kernels for the negotiated formats (configure()), records one frame's
// work (record()), and reads its results once the frame is done (complete()).
#pragma once

#include <gst/video/video.h>

#include <memory>

#include "frame.hpp"

// Frames an element keeps in flight on the GPU: the ring's slots, and the slots of per-frame state
// (Frame::slot) that an operation keeps.
constexpr guint kVkComputeFramesInFlight = 4;

namespace vkc {

class Device;

// What the element does with a frame, under its current settings.
enum class Mode {
  kFilter,    // writes a new output frame per input frame (rgb2yuv, morph, lut)
  kAnalysis,  // reads each frame and passes it on untouched (copied only when the two pads' memories
              // differ); complete() gets its results (lumamax, histogram)
  kDrawing,   // an analysis that writes into the frame too (histogram's draw): it gets output
              // buffers like a filter, and complete() as an analysis
};

// How an element's kernels read their input, so that the base class can stage it before record():
// planes [0, planes) of the frame's rows, each byte once, `load_bytes` at a time. Where the device
// reads host memory slower than a transfer moves it (DeviceFeatures::copy_input_to_device:
// discrete GPUs) and the loads are narrow, the base class copies those rows into device memory of
// the frame's slot first and points frame.in at the copy. The copy moves whole rows: a region
// (Frame::x0, x1) narrower than half the frame is read in place instead. planes = 0: read as it is.
struct InputReads {
  guint planes = 0;
  guint load_bytes = 0;
};

// What an element derives from the negotiated caps (kernels, parameters, per-slot buffers). The
// base class owns it: replaced after the frames in flight have drained, released at stop, handed
// back to the operation with every frame.
struct CapsState {
  virtual ~CapsState() = default;
  InputReads input_reads;  // set by configure(); begin_frame() may change it for its frame
};

// Every call comes from the element's streaming thread, except complete(), which comes from the
// thread that finishes the frame (the device's completion service or the streaming thread; never
// two frames at once, and in frame order: scheduler.hpp).
class Operation {
 public:
  virtual ~Operation() = default;

  // Asked when caps are set and before each frame: a changed answer applies from the next frame.
  // A filter's never changes; an analysis may turn into drawing and back.
  virtual Mode mode() const = 0;

  // Builds the per-caps state (kernels, parameters) for the negotiated formats on `device`, or
  // returns null with `error` set. Called after every frame in flight has left.
  virtual std::unique_ptr<CapsState> configure(const std::shared_ptr<Device>& device, const GstVideoInfo& in,
                                               const GstVideoInfo& out, GError** error) = 0;

  // Takes this frame's settings before the base class stages its input: an operation whose kernels
  // read part of the frame sets frame.x0 .. y1. Keeps what record() and complete() need of the
  // settings in its per-slot state, so that a property change between the two calls cannot split a
  // frame. False with `error` set refuses the frame.
  virtual bool begin_frame(CapsState&, Frame&, GError**) { return true; }

  // Records one frame's GPU work into frame.cmd, its input staged as the caps state's input_reads
  // asked. The base class adds the barrier that makes the results visible to the CPU, and submits.
  virtual bool record(CapsState& state, Frame& frame, GError** error) = 0;

  // Analysis and drawing: called in frame order once a frame's GPU work has completed, with
  // frame.inbuf still valid. Not called for frames dropped by a flush.
  virtual void complete(CapsState&, Frame&) {}

  // The stream starts, or starts over after a flush (no frame in flight): what an operation
  // accumulates across frames begins again.
  virtual void restart() {}
};

}  // namespace vkc
