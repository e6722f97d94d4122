// Small pipeline helpers for tests that run whole pipelines instead of a GstHarness.
#pragma once

#include <gst/gst.h>

#include <string>

namespace vktest {

// gst_parse_launch() that fails the test (with the parser's message) instead of returning null.
GstElement* ParsePipeline(const char* description);

// The first ERROR or EOS message posted on `pipeline`'s bus within `timeout`, or null.
GstMessage* WaitForErrorOrEos(GstElement* pipeline, GstClockTime timeout);

// "domain code N: message (debug: ...)" for an ERROR message; the message's type otherwise.
std::string Describe(GstMessage* message);

// Fails the test unless EOS, and no error before it, reaches `pipeline`'s bus within `timeout`;
// `context` (e.g. the pipeline's description) starts the failure message.
void ExpectEos(GstElement* pipeline, GstClockTime timeout, const std::string& context);

// Runs the pipeline `description` from PLAYING to EOS (ExpectEos) and back to NULL.
void RunToEos(const std::string& description, GstClockTime timeout);

}  // namespace vktest
