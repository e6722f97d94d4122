#include "histogram_message.h"

#include "reference/histogram_ref.h"

namespace histogram_test {

using analysis_test::FieldReader;

HistogramMessage ParseHistogramMessage(GstMessage* message) {
  HistogramMessage parsed;
  // check limits the length of a failure message; 256-entry arrays would not fit, and the
  // fields that matter are printed apart.
  FieldReader read = analysis_test::ReadMessageHeader(message, 200, &parsed);
  parsed.bins = read.Uint("bins");
  parsed.pixels = read.Uint64("pixels");
  for (histogram_ref::Channel channel : histogram_ref::kAllChannels) {
    const char* name = histogram_ref::FieldName(channel);
    if (gst_structure_has_field(gst_message_get_structure(message), name))
      parsed.channels[name] = read.Uint64Array(name);
  }
  return parsed;
}

}  // namespace histogram_test
