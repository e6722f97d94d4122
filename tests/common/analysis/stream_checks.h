// Checks every analysis element's stream must pass: each frame went through unchanged, a
// message's header (times, well-formedness) is its frame's, and each frame that wants a message
// has its own, as the element's case (element_case.h) compares it.
#pragma once

#include <gst/check/gstcheck.h>

#include <string>
#include <vector>

#include "analysis_stream.h"
#include "common/test_seed.h"
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

// Fails unless every push returned OK and passed the frame on unchanged, and the element posted
// exactly one correct message per frame that wants one (PushedFrame::WantsMessage()), in order,
// from itself. Call after EndOfStream().
template <const auto& kCase>
void ExpectStreamMatches(const AnalysisStream<kCase>& stream, const std::string& context) {
  using Frame = typename AnalysisStream<kCase>::Frame;
  ExpectFramesPassedThrough(stream, context);
  std::vector<const Frame*> wanted;
  for (const Frame& frame : stream.pushed()) {
    if (frame.WantsMessage()) wanted.push_back(&frame);
  }
  const auto messages = stream.log().Messages();
  fail_unless(messages.size() == wanted.size(), "%s: %zu frames pushed, %zu want a message, %zu %s messages",
              vktest::WithSeed(context).c_str(), stream.pushed().size(), wanted.size(), messages.size(),
              kCase.element);
  for (size_t i = 0; i < wanted.size(); ++i) {
    const std::string where = context + ": " + wanted[i]->description;
    fail_unless(messages[i].source == GST_OBJECT(stream.element()),
                "%s: message not posted by the %s element", where.c_str(), kCase.element);
    kCase.expect_message_matches(messages[i], *wanted[i], where);
  }
}

// The end of most stream tests: EOS, which must come out, and then ExpectStreamMatches().
template <const auto& kCase>
void EndAndExpectStreamMatches(AnalysisStream<kCase>& stream, const std::string& name) {
  fail_unless(stream.EndOfStream(), "%s: EOS did not come out", vktest::WithSeed(name).c_str());
  ExpectStreamMatches(stream, name);
}

}  // namespace analysis_test
