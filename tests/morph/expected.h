// What the element must output for a frame: from the CPU reference, and from OpenCV.
#pragma once

#include <optional>

#include "reference/morph_ref.h"
#include "test_frame.h"

namespace morph_test {

// Each filtered channel through morph_ref::Apply; every other byte as in the input.
TestFrame ExpectedByReference(const TestFrame& input, const morph_ref::MorphSpec& spec);

// The filtered plane through cv::morphologyEx with cv::getStructuringElement (all channels of
// plane 0 at once, 8- or 16-bit), then the bytes that are not filtered (alpha, padding, chroma)
// put back. Null for 10-bit fields packed in a word (BGR10A2_LE), which no OpenCV type holds.
std::optional<TestFrame> ExpectedByOpenCV(const TestFrame& input, const morph_ref::MorphSpec& spec);

}  // namespace morph_test
