// Checks of a ConversionStream's outputs against the CPU reference or another converter.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/test_seed.h"
#include "common/video_output_recorder.h"
#include "conversion_stream.h"
#include "formats.h"
#include "reference/rgb2yuv_ref.h"

namespace rgb2yuv_test {

// Fails the test unless the stream produced exactly one output per pushed frame, in order, each
// with the input's timestamp and duration, caps within what downstream asked for, and samples
// within ±1 of the reference. Parameters come from `params` when given, else from each output's
// negotiated caps (GstVideoInfo, i.e. with GStreamer's colorimetry defaults applied).
// `context` starts every failure message.
void ExpectMatchesReference(const ConversionStream& stream, const std::string& context,
                            const std::optional<rgb2yuv_ref::Params>& params = std::nullopt);

// Checks one recorded output against the reference conversion of `input`.
void ExpectOutputMatchesReference(const vktest::RecordedItem& output, const PushedFrame& input,
                                  const std::string& context,
                                  const std::optional<rgb2yuv_ref::Params>& params);

// Fails the test unless both streams produced the same number of outputs with the same caps
// and samples within ±tolerance.
void ExpectStreamsAgree(const ConversionStream& tested, const ConversionStream& other, int tolerance,
                        const std::string& context);

// One frame size and input placement of a RunAgainstReference() stream.
struct Step {
  int width;
  int height;
  InputPlacement placement;
};

// "<prefix> RGBA->I420 bt709 jpeg": a random frame of `input` per step (seeded by that name)
// through one rgb2yuv asked for `output` with `color` and `siting`, each size change
// renegotiating; every output against the reference. `converter`: what the stream runs through
// (ConversionStream), when elements come before rgb2yuv.
void RunAgainstReference(const std::string& prefix, GstVideoFormat input, GstVideoFormat output,
                         const ColorSetup& color, const SitingSetup& siting, const std::vector<Step>& steps,
                         const char* converter = "rgb2yuv");

// Failure messages name the seed alike in every element's tests.
using vktest::WithSeed;

// "in=RGB 97x61 system stride=row+12 offset=64 frame#3 -> out=I420 ... seed=..."
std::string DescribeFrame(const PushedFrame& input, size_t index);

}  // namespace rgb2yuv_test
