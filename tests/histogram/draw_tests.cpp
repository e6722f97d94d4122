// draw=true: the element outputs new frames that differ from the input only in the graph's
// corner (the bottom-left min(width, 256) x min(height, 100) pixels of the first plane, drawn
// channels only), and still posts a histogram message per frame.
//
// On a solid frame the graph is known exactly: every drawn byte of the corner becomes
// value * 3 / 4 (background), except the column of the one full bin, which becomes
// (value + 255) / 2 from the bottom to the top of the graph.
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <string>
#include <vector>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "tcases.h"

namespace histogram_test {
namespace {

constexpr guint kGraphWidth = 256, kGraphHeight = 100;

struct DrawCase {
  GstVideoFormat format;
  int width, height;
  guint bins;
};

GstHarness* NewDrawHarness(const DrawCase& c, GstBus** bus) {
  const std::string launch = "histogram draw=true bins=" + std::to_string(c.bins);
  GstHarness* h = gst_harness_new_parse(launch.c_str());
  *bus = gst_bus_new();
  gst_element_set_bus(h->element, *bus);
  GstVideoInfo info;
  gst_video_info_set_format(&info, c.format, c.width, c.height);
  GstCaps* caps = gst_video_info_to_caps(&info);
  gst_harness_set_caps(h, gst_caps_ref(caps), caps);
  return h;
}

GstBuffer* NewFrame(const GstVideoInfo& info, const std::vector<uint8_t>& bytes) {
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, info.size, nullptr);
  gst_buffer_fill(buffer, 0, bytes.data(), bytes.size());
  GST_BUFFER_PTS(buffer) = 0;
  return buffer;
}

// Whether byte `b` of a pixel of plane 0 is drawn into: R, G, B of RGB formats, Y otherwise.
bool DrawnByte(const GstVideoFormatInfo* finfo, guint b) {
  if (!GST_VIDEO_FORMAT_INFO_IS_RGB(finfo)) return b == 0;
  for (guint c = 0; c < 3; ++c)
    if (guint(GST_VIDEO_FORMAT_INFO_POFFSET(finfo, c)) == b) return true;
  return false;
}

// Compares every visible byte of `out` with `in`; inside the graph corner, drawn bytes must
// equal `expect(in_value, x)` when `expect` is given and are otherwise only counted.
template <typename Expect>
void CompareFrames(const GstVideoInfo& info, GstBuffer* inbuf, GstBuffer* outbuf, Expect expect,
                   const std::string& what, size_t* changed_in_corner) {
  GstVideoFrame in, out;
  fail_unless(gst_video_frame_map(&in, const_cast<GstVideoInfo*>(&info), inbuf, GST_MAP_READ));
  fail_unless(gst_video_frame_map(&out, const_cast<GstVideoInfo*>(&info), outbuf, GST_MAP_READ));
  const guint graph_w = MIN(guint(GST_VIDEO_INFO_WIDTH(&info)), kGraphWidth);
  const guint graph_h = MIN(guint(GST_VIDEO_INFO_HEIGHT(&info)), kGraphHeight);
  const guint top = GST_VIDEO_INFO_HEIGHT(&info) - graph_h;
  *changed_in_corner = 0;
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&in); ++p) {
    guint comp = 0;
    while (GST_VIDEO_FORMAT_INFO_PLANE(info.finfo, comp) != p) ++comp;
    const guint rows = GST_VIDEO_FRAME_COMP_HEIGHT(&in, comp);
    const guint pstride = GST_VIDEO_FRAME_COMP_PSTRIDE(&in, comp);
    const guint row_bytes = GST_VIDEO_FRAME_COMP_WIDTH(&in, comp) * pstride;
    for (guint y = 0; y < rows; ++y) {
      const auto* a = static_cast<const uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&in, p)) +
                      y * GST_VIDEO_FRAME_PLANE_STRIDE(&in, p);
      const auto* b = static_cast<const uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&out, p)) +
                      y * GST_VIDEO_FRAME_PLANE_STRIDE(&out, p);
      for (guint i = 0; i < row_bytes; ++i) {
        const guint x = i / pstride;
        const bool corner = p == 0 && y >= top && x < graph_w && DrawnByte(info.finfo, i % pstride);
        if (!corner) {
          fail_unless(a[i] == b[i], "%s: plane %u byte %u of row %u changed outside the graph (%u -> %u)",
                      what.c_str(), p, i, y, a[i], b[i]);
          continue;
        }
        if (a[i] != b[i]) ++*changed_in_corner;
        int want = expect(a[i], x, y - top);
        fail_unless(want < 0 || b[i] == want, "%s: graph pixel (%u, %u) byte %u is %u, expected %d",
                    what.c_str(), x, y, i % pstride, b[i], want);
      }
    }
  }
  gst_video_frame_unmap(&in);
  gst_video_frame_unmap(&out);
}

guint CountHistogramMessages(GstBus* bus) {
  guint n = 0;
  while (GstMessage* m = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT)) {
    if (gst_structure_has_name(gst_message_get_structure(m), "histogram")) ++n;
    gst_message_unref(m);
  }
  return n;
}

const DrawCase kSolidCases[] = {
    {GST_VIDEO_FORMAT_RGBA, 300, 130, 256}, {GST_VIDEO_FORMAT_RGB, 301, 131, 256},
    {GST_VIDEO_FORMAT_xBGR, 260, 101, 256}, {GST_VIDEO_FORMAT_GRAY8, 257, 103, 256},
    {GST_VIDEO_FORMAT_NV12, 298, 120, 256}, {GST_VIDEO_FORMAT_I420, 333, 111, 256},
    {GST_VIDEO_FORMAT_Y444, 64, 40, 64},  // graph smaller than 256 x 100: the whole frame
};

}  // namespace

// A solid frame: the corner is exactly background except one full-height column.
GST_START_TEST(test_draw_solid_frame) {
  const DrawCase& c = kSolidCases[__i__];
  const std::string what = std::string("draw solid ") + gst_video_format_to_string(c.format) + " " +
                           std::to_string(c.width) + "x" + std::to_string(c.height);
  GstBus* bus;
  GstHarness* h = NewDrawHarness(c, &bus);
  GstVideoInfo info;
  gst_video_info_set_format(&info, c.format, c.width, c.height);
  const uint8_t value = 100;
  // Every byte 100 (so every channel of every format is 100; alpha too, which must not change).
  GstBuffer* inbuf = NewFrame(info, std::vector<uint8_t>(info.size, value));
  fail_unless_equals_int(gst_harness_push(h, gst_buffer_ref(inbuf)), GST_FLOW_OK);
  gst_harness_push_event(h, gst_event_new_eos());
  GstBuffer* outbuf = gst_harness_pull(h);
  fail_unless(outbuf != nullptr && outbuf != inbuf, "%s: no new output frame", what.c_str());

  const guint graph_w = MIN(guint(c.width), kGraphWidth);
  const guint full_bin = value * c.bins / 256;
  size_t changed;
  CompareFrames(
      info, inbuf, outbuf,
      [&](uint8_t v, guint x, guint) {
        return int(x * c.bins / graph_w == full_bin ? (v + 255) / 2 : v * 3 / 4);
      },
      what, &changed);
  fail_unless(changed > 0, "%s: nothing drawn", what.c_str());
  fail_unless_equals_int(CountHistogramMessages(bus), 1);
  gst_buffer_unref(outbuf);
  gst_buffer_unref(inbuf);
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}
GST_END_TEST;

// Random frames, several in a row: only the corner changes, and every frame gets its message.
GST_START_TEST(test_draw_changes_only_the_corner) {
  const DrawCase cases[] = {{GST_VIDEO_FORMAT_BGRA, 353, 181, 64}, {GST_VIDEO_FORMAT_NV12, 97, 61, 256}};
  for (const DrawCase& c : cases) {
    const std::string what = std::string("draw random ") + gst_video_format_to_string(c.format);
    std::mt19937 rng = vktest::RngFor(what);
    GstBus* bus;
    GstHarness* h = NewDrawHarness(c, &bus);
    GstVideoInfo info;
    gst_video_info_set_format(&info, c.format, c.width, c.height);
    constexpr int kFrames = 5;
    std::vector<GstBuffer*> inputs;
    for (int n = 0; n < kFrames; ++n) {
      std::vector<uint8_t> bytes(info.size);
      for (auto& byte : bytes) byte = uint8_t(rng());
      inputs.push_back(NewFrame(info, bytes));
      GST_BUFFER_PTS(inputs.back()) = n * GST_SECOND / 30;
      fail_unless_equals_int(gst_harness_push(h, gst_buffer_ref(inputs.back())), GST_FLOW_OK);
    }
    gst_harness_push_event(h, gst_event_new_eos());
    for (int n = 0; n < kFrames; ++n) {
      GstBuffer* outbuf = gst_harness_pull(h);
      fail_unless(outbuf != nullptr, "%s: frame %d missing", vktest::WithSeed(what).c_str(), n);
      fail_unless_equals_uint64(GST_BUFFER_PTS(outbuf), GST_BUFFER_PTS(inputs[n]));
      size_t changed;
      CompareFrames(
          info, inputs[n], outbuf, [](uint8_t, guint, guint) { return -1; },
          vktest::WithSeed(what) + " frame " + std::to_string(n), &changed);
      fail_unless(changed > 0, "%s: nothing drawn", vktest::WithSeed(what).c_str());
      gst_buffer_unref(outbuf);
    }
    fail_unless_equals_int(CountHistogramMessages(bus), kFrames);
    for (GstBuffer* b : inputs) gst_buffer_unref(b);
    gst_element_set_bus(h->element, nullptr);
    gst_object_unref(bus);
    gst_harness_teardown(h);
  }
}
GST_END_TEST;

TCase* DrawTCase() {
  TCase* tcase = vktest::NewTCase("draw", 120);
  tcase_add_loop_test(tcase, test_draw_solid_frame, 0, G_N_ELEMENTS(kSolidCases));
  tcase_add_test(tcase, test_draw_changes_only_the_corner);
  return tcase;
}

}  // namespace histogram_test
