// Small pipeline helpers for tests that run whole pipelines instead of a GstHarness.
#pragma once

#include <gst/gst.h>

#include <string>
#include <vector>

namespace vktest {

// gst_parse_launch() that fails the test (with the parser's message) instead of returning null.
GstElement* ParsePipeline(const char* description);

// The first ERROR or EOS message posted on `pipeline`'s bus within `timeout`, or null.
GstMessage* WaitForErrorOrEos(GstElement* pipeline, GstClockTime timeout);

// "domain code N: message (debug: ...)" for an ERROR message; the message's type otherwise.
std::string Describe(GstMessage* message);

// Fails the test unless EOS, and no error before it, reaches `pipeline`'s bus within `timeout`;
// `context` (e.g. the pipeline's description) starts the failure message. Other messages before
// EOS are dropped, except element messages when `element_messages` is given: they are appended
// to it (DescribeElementMessage()), oldest first.
void ExpectEos(GstElement* pipeline, GstClockTime timeout, const std::string& context,
               std::vector<std::string>* element_messages = nullptr);

// "source: structure" of an element message, as a test compares messages.
std::string DescribeElementMessage(GstMessage* message);

// Runs the pipeline `description` from PLAYING to EOS (ExpectEos) and back to NULL.
void RunToEos(const std::string& description, GstClockTime timeout);

// The element warning every vkcompute element posts at start when the automatic device choice
// lands on a CPU implementation of Vulkan (lavapipe, where the suite runs): RESOURCE NOT_FOUND,
// "The Vulkan device chosen automatically, NAME, is a CPU implementation of Vulkan, ...".
bool IsCpuDeviceWarning(GstMessage* message);

// The oldest message of `types` on `bus` (caller unrefs), or null; CPU device warnings
// (IsCpuDeviceWarning) are passed over and dropped, so tests of an element's own warnings see those.
GstMessage* PopMessage(GstBus* bus, GstMessageType types);

}  // namespace vktest
