// The part every analysis element's message shares: its source and the frame's four times.
// Each element's message type derives from MessageHeader and reads its own fields after it.
#pragma once

#include <gst/gst.h>

#include <string>

#include "field_reader.h"

namespace analysis_test {

struct MessageHeader {
  std::string problem;                // empty when every field read has its specified type
  std::string text;                   // the (start of the) structure, for failure messages
  const GstObject* source = nullptr;  // compared by identity only, never dereferenced
  guint64 timestamp = 0;
  guint64 stream_time = 0;
  guint64 running_time = 0;
  guint64 duration = 0;
};

// True for an ELEMENT message whose structure is named `name`.
bool IsElementMessage(GstMessage* message, const char* name);

// Fills `header` from `message` (its text cut to `max_text` characters: check limits the length
// of a failure message, and the fields that matter are printed apart) and returns the reader
// that goes on with the element's own fields, sharing the header's problem.
FieldReader ReadMessageHeader(GstMessage* message, size_t max_text, MessageHeader* header);

}  // namespace analysis_test
