#include "test_frame.h"

#include <cstring>

#include "common/format_names.h"
#include "common/packed_buffer.h"
#include "reference/deep_layout.h"

namespace morph_test {

std::string TestFrame::Describe() const {
  return vktest::FormatAndSize(format(), width(), height());
}

TestFrame EmptyFrame(GstVideoFormat format, int width, int height) {
  TestFrame frame;
  gst_video_info_set_format(&frame.info, format, width, height);
  const GstVideoFormatInfo* finfo = frame.info.finfo;
  for (int p = 0; p < frame.n_planes(); ++p) {
    int c = 0;
    while (int(GST_VIDEO_FORMAT_INFO_PLANE(finfo, c)) != p) ++c;
    frame.row_bytes[p] =
        GST_VIDEO_FORMAT_INFO_SCALE_WIDTH(finfo, c, width) * GST_VIDEO_FORMAT_INFO_PSTRIDE(finfo, c);
    frame.rows[p] = GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT(finfo, c, height);
    frame.planes[p].assign(size_t(frame.row_bytes[p]) * frame.rows[p], 0);
  }
  return frame;
}

TestFrame RandomFrame(GstVideoFormat format, int width, int height, std::mt19937& rng) {
  TestFrame frame = EmptyFrame(format, width, height);
  const bool sparse = rng() % 2 == 0;
  const uint8_t background = rng() % 2 ? 0xff : uint8_t(rng());
  for (int p = 0; p < frame.n_planes(); ++p) {
    for (uint8_t& byte : frame.planes[p]) byte = sparse && rng() % 16 != 0 ? background : uint8_t(rng());
  }
  return frame;
}

TestFrame NoiseFrame(GstVideoFormat format, int width, int height, std::mt19937& rng) {
  TestFrame frame = EmptyFrame(format, width, height);
  for (int p = 0; p < frame.n_planes(); ++p)
    for (uint8_t& byte : frame.planes[p]) byte = uint8_t(rng());
  return frame;
}

FilteredChannels FilteredChannelsOf(GstVideoFormat format) {
  // RGBA64_LE's 16-bit R, G, B and BGR10A2_LE's 10-bit fields, from the hand-written table.
  if (const reference::DeepLayout* deep = reference::FindDeepLayout(format); deep && deep->rgb) {
    FilteredChannels channels{deep->c[0].pixel_stride, {}};
    for (int c = 0; c < 3; ++c) {
      const reference::DeepComponent& at = deep->c[c];
      channels.fields.push_back({at.offset, at.bytes, at.shift, at.depth});
    }
    return channels;
  }
  const GstVideoFormatInfo* finfo = gst_video_format_get_info(format);
  const int bpp = GST_VIDEO_FORMAT_INFO_PSTRIDE(finfo, 0);
  // 16-bit gray and deep Y planes are filtered as whole words (P010's low bits too).
  const bool sixteen_bit = !GST_VIDEO_FORMAT_INFO_IS_RGB(finfo) && bpp == 2;
  FilteredChannels channels{bpp, {}};
  const int n = GST_VIDEO_FORMAT_INFO_IS_RGB(finfo) ? 3 : 1;  // colour channels, or gray / Y
  for (int c = 0; c < n; ++c) {
    const int offset = static_cast<int>(GST_VIDEO_FORMAT_INFO_POFFSET(finfo, c));  // a byte within the pixel
    channels.fields.push_back({offset, sixteen_bit ? 2 : 1, 0, sixteen_bit ? 16 : 8});
  }
  return channels;
}

namespace {

uint8_t* SampleAt(const TestFrame& frame, const ChannelField& field, int x, int y) {
  const int bpp = FilteredChannelsOf(frame.format()).bytes_per_pixel;
  return const_cast<uint8_t*>(&frame.planes[0][size_t(y) * frame.row_bytes[0] + x * bpp + field.offset]);
}

}  // namespace

morph_ref::Channel GetChannel(const TestFrame& frame, const ChannelField& field) {
  morph_ref::Channel channel{frame.width(), frame.height(), {}};
  channel.values.resize(size_t(frame.width()) * frame.height());
  for (int y = 0; y < frame.height(); ++y) {
    for (int x = 0; x < frame.width(); ++x) {
      const uint8_t* at = SampleAt(frame, field, x, y);
      uint32_t sample = 0;
      for (int b = 0; b < field.bytes; ++b) sample |= uint32_t(at[b]) << (8 * b);
      channel.values[size_t(y) * frame.width() + x] = (sample >> field.shift) & ((1u << field.bits) - 1);
    }
  }
  return channel;
}

void SetChannel(TestFrame& frame, const ChannelField& field, const morph_ref::Channel& channel) {
  const uint32_t mask = ((1u << field.bits) - 1) << field.shift;
  for (int y = 0; y < frame.height(); ++y) {
    for (int x = 0; x < frame.width(); ++x) {
      uint8_t* at = SampleAt(frame, field, x, y);
      uint32_t sample = 0;
      for (int b = 0; b < field.bytes; ++b) sample |= uint32_t(at[b]) << (8 * b);
      sample = (sample & ~mask) | ((channel.At(x, y) << field.shift) & mask);
      for (int b = 0; b < field.bytes; ++b) at[b] = uint8_t(sample >> (8 * b));
    }
  }
}

GstBuffer* NewSystemBuffer(const TestFrame& frame, const InputPlacement& placement) {
  if (frame.n_planes() == 1) {
    // The shared helpers lay out single-plane frames.
    const vktest::Placement where{frame.row_bytes[0] + placement.stride_padding, placement.offset};
    return placement.memory == vktest::MemoryKind::kSplit
               ? vktest::NewSplitMemoryBuffer(frame.info, frame.planes[0].data(), frame.row_bytes[0], where)
               : vktest::NewSystemMemoryBuffer(frame.info, frame.planes[0].data(), frame.row_bytes[0], where);
  }
  gsize offsets[GST_VIDEO_MAX_PLANES] = {};
  gint strides[GST_VIDEO_MAX_PLANES] = {};
  gsize size = placement.offset;
  for (int p = 0; p < frame.n_planes(); ++p) {
    offsets[p] = size;
    strides[p] = frame.row_bytes[p] + placement.stride_padding;
    size += gsize(strides[p]) * frame.rows[p];
  }
  std::vector<uint8_t> bytes(size, 0x5a);
  for (int p = 0; p < frame.n_planes(); ++p)
    for (int y = 0; y < frame.rows[p]; ++y)
      std::memcpy(&bytes[offsets[p] + gsize(y) * strides[p]], &frame.planes[p][gsize(y) * frame.row_bytes[p]],
                  frame.row_bytes[p]);
  GstBuffer* buffer = gst_buffer_new();
  // Split: inside the first plane's middle row, so that no single mapping covers the frame.
  const gsize split = placement.memory == vktest::MemoryKind::kSplit
                          ? offsets[0] + gsize(frame.rows[0] / 2) * strides[0] + frame.row_bytes[0] / 2 + 1
                          : size;
  for (auto [from, to] : {std::pair{gsize(0), split}, std::pair{split, size}}) {
    if (from != to) gst_buffer_append_memory(buffer, vktest::NewSystemMemory(&bytes[from], to - from));
  }
  gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, frame.format(), frame.width(),
                                 frame.height(), frame.n_planes(), offsets, strides);
  return buffer;
}

void FillBuffer(GstBuffer* buffer, const GstVideoInfo& info, const TestFrame& frame) {
  GstVideoFrame mapped;
  if (!gst_video_frame_map(&mapped, &info, buffer, GST_MAP_WRITE)) g_error("cannot map an input buffer");
  for (int p = 0; p < frame.n_planes(); ++p) {
    auto* data = static_cast<uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&mapped, p));
    const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&mapped, p);
    for (int y = 0; y < frame.rows[p]; ++y)
      std::memcpy(data + gsize(y) * stride, &frame.planes[p][gsize(y) * frame.row_bytes[p]],
                  frame.row_bytes[p]);
  }
  gst_video_frame_unmap(&mapped);
}

TestFrame ReadBuffer(GstBuffer* buffer, const GstVideoInfo& info) {
  TestFrame frame =
      EmptyFrame(GST_VIDEO_INFO_FORMAT(&info), GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info));
  GstVideoFrame mapped;
  if (!gst_video_frame_map(&mapped, &info, buffer, GST_MAP_READ)) g_error("cannot map an output buffer");
  for (int p = 0; p < frame.n_planes(); ++p) {
    const auto* data = static_cast<const uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&mapped, p));
    const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&mapped, p);
    for (int y = 0; y < frame.rows[p]; ++y)
      std::memcpy(&frame.planes[p][gsize(y) * frame.row_bytes[p]], data + gsize(y) * stride,
                  frame.row_bytes[p]);
  }
  gst_video_frame_unmap(&mapped);
  return frame;
}

std::string FirstDifference(const TestFrame& got, const TestFrame& expected) {
  for (int p = 0; p < expected.n_planes(); ++p) {
    for (int y = 0; y < expected.rows[p]; ++y) {
      for (int i = 0; i < expected.row_bytes[p]; ++i) {
        const size_t at = size_t(y) * expected.row_bytes[p] + i;
        if (got.planes[p][at] != expected.planes[p][at])
          return "plane " + std::to_string(p) + " byte " + std::to_string(i) + " of row " +
                 std::to_string(y) + ": got " + std::to_string(got.planes[p][at]) + ", expected " +
                 std::to_string(expected.planes[p][at]);
      }
    }
  }
  return "";
}

}  // namespace morph_test
