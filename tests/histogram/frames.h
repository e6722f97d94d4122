// Frames of any histogram format: every byte random (every channel is counted, so every byte
// that holds a sample matters), or one colour everywhere. The frame type is shared with the other
// analysis suites (common/analysis).
#pragma once

#include <gst/video/video.h>

#include <array>
#include <cstdint>
#include <random>

#include "common/analysis/test_frame.h"
#include "reference/histogram_ref.h"

namespace histogram_test {

using analysis_test::TestFrame;

// A frame of `format` whose bytes (samples, x bytes and row padding alike) are all random.
TestFrame RandomFrame(GstVideoFormat format, int width, int height, std::mt19937& rng);

// Sample values by GStreamer component index: R, G, B, A for RGB formats (A ignored without
// alpha), Y, U, V for the others.
using Colour = std::array<uint8_t, 4>;

// Every pixel (and chroma sample) of the frame holds `colour`; bytes holding no sample (x bytes,
// row padding) are random, since they must not be counted.
TestFrame SolidFrame(GstVideoFormat format, int width, int height, const Colour& colour, std::mt19937& rng);

// The reference's view of the frame's planes (in its default layout).
histogram_ref::FrameView ViewOf(const TestFrame& frame);

// Sets the sample of component `component` at (x, y), in that component's own resolution.
void SetSample(TestFrame& frame, int component, int x, int y, uint8_t value);

}  // namespace histogram_test
