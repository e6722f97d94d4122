// Drives one converter element (rgb2yuv, or videoconvert as a second opinion) through a
// GstHarness: input caps follow the frames pushed, output caps follow what "downstream" asks
// for, and everything the element outputs is recorded for verification.
#pragma once

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <memory>
#include <string>
#include <vector>

#include "common/input_placement.h"
#include "common/upstream_allocation.h"
#include "common/video_output_recorder.h"
#include "rgb_frame.h"

namespace rgb2yuv_test {

// Output caps downstream accepts: a format and optionally colorimetry and chroma siting (an
// empty string leaves the field out, so the element and GStreamer's defaults decide).
struct OutputSpec {
  GstVideoFormat format = GST_VIDEO_FORMAT_I420;
  std::string colorimetry;
  std::string chroma_site;

  GstCaps* ToCaps() const;
  std::string Describe() const;
};

// How a frame's bytes are put into its input buffer.
using vktest::InputPlacement;

struct PushedFrame {
  RgbFrame frame;
  InputPlacement placement;
  OutputSpec output;  // what downstream asked for when the frame was pushed
  GstClockTime pts;
  GstClockTime duration;
  GstFlowReturn flow;  // what pushing it returned
};

class ConversionStream {
 public:
  // Puts a harness around `element` (a reference is taken) and sets it PLAYING.
  // `downstream_video_meta` makes downstream accept GstVideoMeta in the ALLOCATION query.
  ConversionStream(GstElement* element, const OutputSpec& output, bool downstream_video_meta = false);
  // A stream through a new element of `factory` (properties at their defaults), or through a bin of
  // the elements a gst-launch description names ("morph ... ! rgb2yuv").
  ConversionStream(const char* factory, const OutputSpec& output, bool downstream_video_meta = false);
  ~ConversionStream();
  ConversionStream(const ConversionStream&) = delete;
  ConversionStream& operator=(const ConversionStream&) = delete;

  // Downstream asks for other caps; the element renegotiates (RECONFIGURE) before the next frame.
  void SetOutput(const OutputSpec& output);

  // Sends new caps when the frame's format or size differs from the previous one, then the
  // frame in a buffer built as `placement` says, timestamped in sequence. The flow is returned.
  GstFlowReturn Push(const RgbFrame& frame, const InputPlacement& placement = {});

  // Sends EOS and waits (bounded) until it came out of the element.
  bool EndOfStream(int timeout_ms = 60000);

  // Sends FLUSH_START and FLUSH_STOP, then a new segment as a real upstream does after a flush.
  void Flush() {
    FlushStart();
    FlushStop();
  }
  // The two halves of Flush(), for flushing while another thread pushes: FLUSH_START may come
  // from any thread, FLUSH_STOP (and the segment) once the pushing thread stopped.
  void FlushStart();
  void FlushStop();

  const std::vector<PushedFrame>& pushed() const { return pushed_; }
  const vktest::VideoOutputRecorder& recorder() const { return *recorder_; }
  GstHarness* harness() const { return harness_; }
  // Allocation state after the last caps change (null before the first frame).
  const vktest::UpstreamAllocation* allocation() const { return allocation_.get(); }

 private:
  void SendInputCaps(const RgbFrame& frame);
  void SendSegment();

  GstHarness* harness_;
  std::unique_ptr<vktest::VideoOutputRecorder> recorder_;
  std::unique_ptr<vktest::UpstreamAllocation> allocation_;
  GstVideoInfo input_info_;
  bool have_input_caps_ = false;
  OutputSpec output_;
  std::vector<PushedFrame> pushed_;
};

}  // namespace rgb2yuv_test
