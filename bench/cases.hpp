// The benchmark cases: an input (format and size), our element and the peers a user would run
// instead, each as a pipeline fragment between appsrc and fakesink or an in-process OpenCV call.
#pragma once

#include <gst/video/video.h>

#include <string>
#include <vector>

namespace bench {

// The frame size a --sizes name stands for: "4k" 3840x2160, "360p" 640x360 (quick runs: the test
// suite's smoke test on a software device), anything else 1920x1080.
struct FrameSize {
  int width, height;
};
// 1080p, 4k, 360p or WIDTHxHEIGHT; {0, 0} for anything else.
FrameSize frame_size(const std::string& size);

enum class OpenCvOp {
  kNone,
  kRgbaToI420,
  kRgbToI420,
  kMinMaxRgba,
  kMinMaxY,
  kHistRgba,
  kHistNv12,
  kDilate,
  kLut,
  kHistP010,   // calcHist of 1 024 bins over the 16-bit Y and UV planes
  kDilateY16,  // dilate of the 16-bit Y plane (P010_10LE)
};

struct Variant {
  std::string label;     // "vkcompute", "videoconvert n-threads=1", ...
  std::string pipeline;  // fragment between appsrc and fakesink; empty for OpenCV
  OpenCvOp opencv = OpenCvOp::kNone;
  bool ours = false;  // our element, named "dut" in the fragment (for its gpu-time)
  std::string note;   // how the peer differs from our element, printed with its results
  // No element at all (the harness alone): its CPU time is what appsrc, the streaming thread and
  // fakesink cost without us. Not a peer: no ratio, not plotted.
  bool reference = false;
  // With `reference`: an identity named "poster" posts, for each frame, a copy of the first element
  // message our element posted in this case: what the messages alone cost the pipeline and the
  // application, whoever computes them.
  bool repost = false;
  // With `reference`: upstream pushes at the frame rate our element reached in this case, not as
  // fast as it can. Threads then sleep and wake per frame as they do around our element.
  bool paced = false;
  // With `repost`: the identity also submits an empty command buffer to the GPU per frame through
  // a ring as deep as our elements', waiting when it is full for the second-oldest submission as
  // they do: what remains of our element's CPU time above this is what only it does (binding the
  // frame, recording its kernels).
  bool submits = false;
  // With `submits`: each command buffer copies the frame's bytes (in_bytes) from host memory to
  // device memory, and upstream pushes at full speed: the GPU sets the pace and the streaming
  // thread sleeps on fences, as around ours.
  bool copies_frame = false;
  // Live: upstream pushes timestamped frames at this rate, and the run measures each frame's time
  // from the push to the sink (mean and maximum) rather than the throughput.
  double live_fps = 0;
};

struct Case {
  std::string name;  // "rgb2yuv RGBA->NV12", unique with size
  std::string size;  // "1080p" or "4k"
  GstVideoFormat format;
  int width, height;
  int kernel = 0;  // morph: kernel width and height
  // Bytes our element moves between host memory and the GPU per frame (frame in, frame out).
  double in_bytes = 0, out_bytes = 0;
  std::vector<Variant> variants;
  bool smooth = false;      // frames of smooth content (fill_smooth_frame()) instead of random bytes
  std::string colorimetry;  // of the input caps ("bt2100-pq"); empty: GStreamer's default for the size
};

// Every case at each of `sizes`; `cube` is a 33^3 .cube file the lut cases read.
std::vector<Case> build_cases(const std::vector<std::string>& sizes, const std::string& cube);

}  // namespace bench
