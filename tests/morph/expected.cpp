#include "expected.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace morph_test {

TestFrame ExpectedByReference(const TestFrame& input, const morph_ref::MorphSpec& spec) {
  TestFrame expected = input;
  for (const ChannelField& field : FilteredChannelsOf(input.format()).fields)
    SetChannel(expected, field, morph_ref::Apply(GetChannel(input, field), spec));
  return expected;
}

std::optional<TestFrame> ExpectedByOpenCV(const TestFrame& input, const morph_ref::MorphSpec& spec) {
  const FilteredChannels channels = FilteredChannelsOf(input.format());
  const int bits = channels.fields[0].bits;
  if (bits != 8 && bits != 16) return std::nullopt;
  // Every sample of the pixel as a channel of OpenCV's: bytes, or 16-bit words.
  const int type = bits == 16 ? CV_16UC(channels.bytes_per_pixel / 2) : CV_8UC(channels.bytes_per_pixel);
  const cv::Mat src(input.height(), input.width(), type, const_cast<uint8_t*>(input.planes[0].data()),
                    input.row_bytes[0]);
  cv::Mat dst;
  const cv::Mat kernel = cv::getStructuringElement(int(spec.shape), cv::Size(spec.width, spec.height));
  cv::morphologyEx(src, dst, int(spec.operation), kernel, cv::Point(-1, -1), spec.iterations);

  TestFrame filtered = input;
  for (int y = 0; y < input.height(); ++y)
    std::memcpy(&filtered.planes[0][size_t(y) * input.row_bytes[0]], dst.ptr(y), input.row_bytes[0]);
  // Only the filtered channels come from OpenCV.
  TestFrame expected = input;
  for (const ChannelField& field : channels.fields) SetChannel(expected, field, GetChannel(filtered, field));
  return expected;
}

}  // namespace morph_test
