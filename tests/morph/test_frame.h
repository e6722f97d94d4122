// A video frame of any morph format as tightly packed planes, the channels the element filters,
// and the buffers that carry it in and out of the element.
#pragma once

#include <gst/video/video.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/input_placement.h"
#include "reference/morph_ref.h"

namespace morph_test {

struct TestFrame {
  GstVideoInfo info;               // format and size (its own layout is not used)
  std::vector<uint8_t> planes[4];  // tightly packed rows
  int row_bytes[4] = {}, rows[4] = {};

  int n_planes() const { return GST_VIDEO_INFO_N_PLANES(&info); }
  GstVideoFormat format() const { return GST_VIDEO_INFO_FORMAT(&info); }
  int width() const { return GST_VIDEO_INFO_WIDTH(&info); }
  int height() const { return GST_VIDEO_INFO_HEIGHT(&info); }
  std::string Describe() const;  // "RGBA 97x61"
};

// An all-zero frame.
TestFrame EmptyFrame(GstVideoFormat format, int width, int height);

// Random content: uniform noise, or a flat background with sparse random pixels (so that erosion
// and dilation results are not all at one extreme), picked at random.
TestFrame RandomFrame(GstVideoFormat format, int width, int height, std::mt19937& rng);

// Uniform noise only: every operation and mask change changes the result.
TestFrame NoiseFrame(GstVideoFormat format, int width, int height, std::mt19937& rng);

// A filtered channel in a pixel of plane 0: the little-endian sample of `bytes` bytes at byte
// `offset`, its value in `bits` bits from bit `shift`.
struct ChannelField {
  int offset;
  int bytes;
  int shift;
  int bits;
};

// The channels the element filters (colour channels, gray, Y) and the pixel's size.
struct FilteredChannels {
  int bytes_per_pixel;
  std::vector<ChannelField> fields;
};
FilteredChannels FilteredChannelsOf(GstVideoFormat format);

morph_ref::Channel GetChannel(const TestFrame& frame, const ChannelField& field);
void SetChannel(TestFrame& frame, const ChannelField& field, const morph_ref::Channel& channel);

// How a frame's bytes are put into its input buffer.
using vktest::InputPlacement;

// A buffer of system memory holding the frame at `placement` (every plane padded alike), with a
// GstVideoMeta; split into two memories when `placement` says so.
GstBuffer* NewSystemBuffer(const TestFrame& frame, const InputPlacement& placement);

// Copies the frame into a writable buffer laid out as `info` or its GstVideoMeta.
void FillBuffer(GstBuffer* buffer, const GstVideoInfo& info, const TestFrame& frame);

// Reads a buffer laid out as `info` or its GstVideoMeta.
TestFrame ReadBuffer(GstBuffer* buffer, const GstVideoInfo& info);

// "" when equal, else the first difference: plane, byte column, row, values.
std::string FirstDifference(const TestFrame& got, const TestFrame& expected);

}  // namespace morph_test
