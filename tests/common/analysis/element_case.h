// What the shared analysis tests are told of one analysis element and its suite: the element's
// name, the types of its reference and its message, the functions that set, describe, compute and
// compare them, and the suite's choices for the tests written once (stream_tests.h,
// element_tests.h, roi_checks.h). Each suite defines one ElementCase object
// (lumamax/lumamax_case.cpp, histogram/histogram_case.cpp); the stream, the bus log and the
// shared tests take it as a template argument (`template <const auto& kCase>`), so every suite
// gets them for its element without writing them again.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <optional>
#include <random>
#include <string>
#include <type_traits>

#include "pushed_frame.h"
#include "test_frame.h"

namespace analysis_test {

template <typename ParamsT, typename ResultT, typename MessageT>
struct ElementCase {
  using Params = ParamsT;    // the reference's parameters: the element's properties
  using Result = ResultT;    // the reference's result of one frame
  using Message = MessageT;  // the element's message, parsed (a MessageHeader and its own fields)
  using Frame = PushedFrame<Params, Result>;

  // The element's factory name, which is also the name of its message's structure.
  const char* element;
  // Sets the element's properties from `params`.
  void (*apply_params)(GstElement* element, const Params& params);
  // "count=3 min-distance=2 matrix=bt709 roi=0,0,0x0", for failure messages.
  std::string (*describe_params)(const Params& params);
  // The reference result of `buffer` (laid out as `info`, or as its GstVideoMeta says), read
  // exactly as the element must read it; nullopt when the ROI is empty.
  std::optional<Result> (*analyze_buffer)(GstBuffer* buffer, const GstVideoInfo& info, const Params& params);
  // One of the element's messages, read field by field.
  Message (*parse_message)(GstMessage* message);
  // Fails the test unless `got` is the message the specification requires for `frame`.
  void (*expect_message_matches)(const Message& got, const Frame& frame, const std::string& where);
  // The suite's usual random frame.
  TestFrame (*random_frame)(GstVideoFormat format, int width, int height, std::mt19937& rng);

  // The suite's choices for the shared tests: the format of the frames pushed after a flush, and
  // of a 2x3 frame in padded system memory (post-messages=false);
  GstVideoFormat after_flush_format;
  GstVideoFormat odd_placement_format;
  // the properties of the EOS pipeline, of the flush between pushes and of the flush while
  // another thread pushes;
  Params eos_params;
  Params flush_params;
  Params flush_while_streaming_params;
  // the caps format of the pipelines that start with an empty ROI;
  const char* empty_roi_caps_format;
  // whether the element takes the formats deeper than 8 bits (formats.h's kDeepFormats) too.
  bool deep_formats = false;
};

// The types of a case given as a template argument.
template <const auto& kCase>
using ParamsOf = typename std::decay_t<decltype(kCase)>::Params;
template <const auto& kCase>
using MessageOf = typename std::decay_t<decltype(kCase)>::Message;

}  // namespace analysis_test
