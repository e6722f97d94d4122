// The "histogram" element message, parsed field by field with the types the specification
// names.
#pragma once

#include <gst/gst.h>

#include <map>
#include <string>
#include <vector>

#include "common/analysis/message_header.h"

namespace histogram_test {

// The times, source and text come from the header every analysis message shares.
struct HistogramMessage : analysis_test::MessageHeader {
  guint bins = 0;
  guint64 pixels = 0;
  // The channel fields present ("red", ..., "v"), by name: which ones a message carries depends
  // on the format, so absence is not a problem here but for the comparison with the reference.
  std::map<std::string, std::vector<guint64>> channels;
};

HistogramMessage ParseHistogramMessage(GstMessage* message);

}  // namespace histogram_test
