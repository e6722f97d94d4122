// Checks every analysis element's stream must pass, whatever its message carries: each frame
// went through unchanged, and a message's header (times, well-formedness) is its frame's.
#pragma once

#include <gst/check/gstcheck.h>

#include <string>
#include <vector>

#include "message_header.h"
#include "pushed_frame.h"

namespace analysis_test {

// Fails unless the push of `frame` returned OK and passed the frame on unchanged.
void ExpectPassedThrough(const FrameRecord& frame, const std::string& context);

// Fails unless every push returned OK and passed the frame on unchanged.
template <typename Stream>
void ExpectFramesPassedThrough(const Stream& stream, const std::string& context) {
  for (const FrameRecord& frame : stream.pushed()) ExpectPassedThrough(frame, context);
}

// Fails unless `got` is well-formed, `frame` has a reference result at all (`has_expected`),
// and timestamp, duration, running-time and stream-time are those of its PTS/duration/segment.
void ExpectHeaderMatches(const MessageHeader& got, const FrameRecord& frame, bool has_expected,
                         const std::string& where);

// Message i must come from `element` (named `element_name`) and match `*wanted[i]` as
// `expect_match(message, frame, where)` says; the caller has checked the counts agree.
template <typename Message, typename Frame, typename ExpectMatch>
void ExpectEachMessage(const std::vector<Message>& messages, const std::vector<const Frame*>& wanted,
                       GstElement* element, const char* element_name, const std::string& context,
                       ExpectMatch expect_match) {
  for (size_t i = 0; i < wanted.size(); ++i) {
    const std::string where = context + ": " + wanted[i]->description;
    fail_unless(messages[i].source == GST_OBJECT(element), "%s: message not posted by the %s element",
                where.c_str(), element_name);
    expect_match(messages[i], *wanted[i], where);
  }
}

}  // namespace analysis_test
