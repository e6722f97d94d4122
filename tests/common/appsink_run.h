// A pipeline ending in an appsink named "out", run to its end: every frame that reached the sink
// and every element message posted, in order (test_results_meta, test_analytics).
#pragma once

#include <gst/gst.h>

#include <functional>
#include <string>
#include <vector>

namespace vktest {

struct AppsinkRun {
  std::vector<GstSample*> samples;      // in the order they reached the appsink
  std::vector<GstStructure*> messages;  // the element messages' structures, in the order posted
  std::vector<std::string> warnings;    // the warnings posted but the CPU device's (IsCpuDeviceWarning)
  std::string e_sink_caps;              // the caps of the sink pad of the element named "e", if any
  std::string e_src_caps;               // and of its src pad
  guint64 e_uploads = 0;                // its `uploads` and `downloads` properties at the end, when it
  guint64 e_downloads = 0;              // has them
  // Called with the pipeline before it plays (to set a context), and at its end, before it stops (to
  // read what the elements hold while running); either may be empty.
  std::function<void(GstElement*pipeline)> before_play, at_end;
  AppsinkRun() = default;
  AppsinkRun(const AppsinkRun&) = delete;
  AppsinkRun& operator=(const AppsinkRun&) = delete;
  ~AppsinkRun();
  // The messages named `name`, in order.
  std::vector<const GstStructure*> named(const char* name) const;
};

// The element messages of two runs (`want`: the same element on system memory), field by field.
void ExpectSameMessages(const AppsinkRun& got, const AppsinkRun& want, const std::string& what);

// The frames of two runs (`want`: in system memory, or a reference pipeline), byte for byte (their
// visible bytes), and as many, at least one.
void ExpectSameFrames(const AppsinkRun& got, const AppsinkRun& want, const std::string& what);

// Plays `description` (which names its appsink "out") until EOS reaches the sink, pulling every
// sample, then stops it. Fails the test on an error message, on no EOS, or on a validation message.
void RunToAppsink(const std::string& description, AppsinkRun& run);

}  // namespace vktest
