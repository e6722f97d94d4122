// The "histogram" element message, parsed field by field with the types the specification
// names.
#pragma once

#include <gst/gst.h>

#include <map>
#include <string>
#include <vector>

namespace histogram_test {

struct HistogramMessage {
  std::string problem;                // empty when every field present has its specified type
  std::string text;                   // the start of the structure, for failure messages
  const GstObject* source = nullptr;  // compared by identity only, never dereferenced
  guint64 timestamp = 0;
  guint64 stream_time = 0;
  guint64 running_time = 0;
  guint64 duration = 0;
  guint bins = 0;
  guint64 pixels = 0;
  // The channel fields present ("red", ..., "v"), by name: which ones a message carries depends
  // on the format, so absence is not a problem here but for the comparison with the reference.
  std::map<std::string, std::vector<guint64>> channels;
};

// True for an ELEMENT message whose structure is named "histogram".
bool IsHistogramMessage(GstMessage* message);

HistogramMessage ParseHistogramMessage(GstMessage* message);

}  // namespace histogram_test
