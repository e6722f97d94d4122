// YUV images as one sample array per component, independent of how a format lays them out in
// memory, so that outputs of any YUV format can be compared sample by sample.
#pragma once

#include <gst/video/video.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vktest {

// Component indices follow GstVideoFormatInfo: GST_VIDEO_COMP_Y, _U, _V and _A.
struct YuvPlanes {
  GstVideoFormat format = GST_VIDEO_FORMAT_UNKNOWN;
  int width = 0;
  int height = 0;
  int n_components = 0;              // 3, or 4 when the format carries alpha
  int depth = 8;                     // bits of every sample: 8, or 10, 12, 16 for the deep formats
  std::vector<uint16_t> samples[4];  // code values, row-major, ComponentWidth(c) samples per row

  int ComponentWidth(int component) const;
  int ComponentHeight(int component) const;
  uint16_t& At(int component, int x, int y);
  uint16_t At(int component, int x, int y) const;
};

// Zero-filled planes sized by the format's subsampling (odd sizes round chroma up), for the 8-bit
// YUV formats and the deep ones reference::FindDeepLayout knows.
YuvPlanes MakeYuvPlanes(GstVideoFormat format, int width, int height);

// Stores the samples where a buffer laid out as `info` holds them; `data` has info->size bytes.
// Bytes that hold no sample (stride padding) are left untouched.
void WriteToLayout(const YuvPlanes& planes, const GstVideoInfo& info, uint8_t* data);

// Reads the samples of a mapped frame, honouring its strides and offsets (GstVideoMeta).
YuvPlanes ReadFromFrame(const GstVideoFrame& frame);

struct SampleMismatch {
  int component;
  int plane;
  int x;
  int y;
  int got;
  int expected;
};

// The first sample (component by component, row by row) differing by more than `tolerance`.
std::optional<SampleMismatch> FindMismatch(const YuvPlanes& got, const YuvPlanes& expected, int tolerance);

// Largest absolute difference over all samples (for diagnostics).
int MaxDifference(const YuvPlanes& got, const YuvPlanes& expected);

// "U sample (plane 1) at x=3 y=2: got 100, expected 97".
std::string Describe(const SampleMismatch& mismatch);

}  // namespace vktest
