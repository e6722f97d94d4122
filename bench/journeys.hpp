// Where a live pipeline's frames spend their time: when each was pushed, when each element of the
// fragment got it (its sink pad) and passed it on (its src pad), and when it reached the sink, by
// frame number (from the PTS). The latency and many-streams modes use it to say which element held
// their slowest frames.
#pragma once

#include <gst/gst.h>

#include <deque>
#include <string>
#include <vector>

namespace bench {

// When one element got each frame and passed it on (0: never), by frame number.
struct ElementTimes {
  std::string name;
  std::vector<gint64> in_us, out_us;
};

// One stream's frames. Each array has one writer (the pushing thread, the sink's or an element's
// streaming thread) and is read once the pipeline has stopped. Its probes point into it: it must
// not move once watch() has run.
class Journeys {
 public:
  // Room for `frames` frames of `period_ns`, and probes on each element after `src` up to the sink.
  void watch(GstElement* src, size_t frames, GstClockTime period_ns);
  // The frame number of `buffer` (SIZE_MAX without a PTS).
  size_t frame_of(GstBuffer* buffer) const;
  // Frame `n`'s journey on one line: each element's arrival and departure in ms after its push,
  // and which step between two pads took longest.
  void print_path(size_t n, const std::string& which) const;

  GstClockTime period_ns = 0;
  std::vector<gint64> pushed_us, arrived_us;  // pushed_us <= 0: not pushed
  std::vector<ElementTimes> elements;         // in pipeline order

 private:
  struct PadWatch {
    Journeys* journeys;
    size_t element;
    bool out;  // its src pad, else its sink pad
  };
  static GstPadProbeReturn note_frame(GstPad*, GstPadProbeInfo* info, gpointer data);
  std::deque<PadWatch> watches_;  // the probes' data: a deque keeps it in place as it grows
};

}  // namespace bench
