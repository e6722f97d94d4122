// draw=true: the element outputs new frames that differ from the input only in the graph's
// corner (the bottom-left min(width, 256) x min(height, 100) pixels of the first plane, drawn
// channels only), and still posts a histogram message per frame.
//
// On a solid frame the graph is known exactly: every drawn byte of the corner becomes
// value * 3 / 4 (background), except the column of the one full bin, which becomes
// (value + 255) / 2 from the bottom to the top of the graph. On any other frame ExpectedGraph
// computes it from the reference histograms.
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "common/format_names.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "histogram_message.h"
#include "tcases.h"

namespace histogram_test {
namespace {

constexpr guint kGraphWidth = 256, kGraphHeight = 100;

struct DrawCase {
  GstVideoFormat format;
  int width, height;
  guint bins;
};

// A harness around histogram with `draw` and c.bins set, for c's caps, posting to a bus of its own.
GstHarness* NewDrawHarness(const DrawCase& c, GstBus** bus, bool draw = true) {
  GstHarness* h = gst_harness_new("histogram");
  g_object_set(h->element, "draw", gboolean(draw), "bins", c.bins, nullptr);
  *bus = gst_bus_new();
  gst_element_set_bus(h->element, *bus);
  GstVideoInfo info;
  gst_video_info_set_format(&info, c.format, c.width, c.height);
  GstCaps* caps = gst_video_info_to_caps(&info);
  gst_harness_set_caps(h, gst_caps_ref(caps), caps);
  return h;
}

void TeardownDrawHarness(GstHarness* h, GstBus* bus) {
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}

GstBuffer* NewFrame(const GstVideoInfo& info, const std::vector<uint8_t>& bytes) {
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, info.size, nullptr);
  gst_buffer_fill(buffer, 0, bytes.data(), bytes.size());
  GST_BUFFER_PTS(buffer) = 0;
  return buffer;
}

// A value drawn into in each pixel of plane 0: R, G and B of RGB formats, Y otherwise. Its bits
// in the pixel read as a little-endian integer, written out from each format's definition for the
// formats deeper than 8 bits (where GstVideoFormatInfo does not place packed values).
struct DrawnValue {
  guint shift;  // first bit in the pixel
  guint depth;
  guint64 top() const { return (guint64(1) << depth) - 1; }
};

std::vector<DrawnValue> DrawnValues(const GstVideoInfo& info) {
  switch (GST_VIDEO_INFO_FORMAT(&info)) {
    case GST_VIDEO_FORMAT_P010_10LE: return {{6, 10}};
    case GST_VIDEO_FORMAT_I420_10LE:
    case GST_VIDEO_FORMAT_I422_10LE:
    case GST_VIDEO_FORMAT_Y444_10LE: return {{0, 10}};
    case GST_VIDEO_FORMAT_I420_12LE: return {{0, 12}};
    case GST_VIDEO_FORMAT_GRAY16_LE:
    case GST_VIDEO_FORMAT_P016_LE:
    case GST_VIDEO_FORMAT_Y444_16LE: return {{0, 16}};
    case GST_VIDEO_FORMAT_RGBA64_LE: return {{0, 16}, {16, 16}, {32, 16}};
    case GST_VIDEO_FORMAT_BGR10A2_LE: return {{20, 10}, {10, 10}, {0, 10}};  // B in the low bits
    default: break;
  }
  if (!GST_VIDEO_INFO_IS_RGB(&info)) return {{0, 8}};
  std::vector<DrawnValue> values;
  for (guint c = 0; c < 3; ++c) values.push_back({8 * guint(GST_VIDEO_INFO_COMP_POFFSET(&info, c)), 8});
  return values;
}

// Compares every visible byte of `out` with `in`. Inside the graph corner of plane 0, drawn value v
// (of DrawnValues(), index `value`, whose largest is `top`) must become `expect(v, top, x, row of
// the graph, value)` unless that is negative, and is counted when it changed; the pixel's other
// bits must not change.
template <typename Expect>
void CompareFrames(const GstVideoInfo& info, GstBuffer* inbuf, GstBuffer* outbuf, Expect expect,
                   const std::string& what, size_t* changed_in_corner) {
  GstVideoFrame in, out;
  fail_unless(gst_video_frame_map(&in, const_cast<GstVideoInfo*>(&info), inbuf, GST_MAP_READ));
  fail_unless(gst_video_frame_map(&out, const_cast<GstVideoInfo*>(&info), outbuf, GST_MAP_READ));
  const guint graph_w = MIN(guint(GST_VIDEO_INFO_WIDTH(&info)), kGraphWidth);
  const guint graph_h = MIN(guint(GST_VIDEO_INFO_HEIGHT(&info)), kGraphHeight);
  const guint top = GST_VIDEO_INFO_HEIGHT(&info) - graph_h;
  const std::vector<DrawnValue> drawn = DrawnValues(info);
  guint64 drawn_bits = 0;
  for (const DrawnValue& d : drawn) drawn_bits |= d.top() << d.shift;
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
      for (guint x = 0; x < row_bytes / pstride; ++x) {
        const guint at = x * pstride;
        if (!(p == 0 && y >= top && x < graph_w)) {
          for (guint i = at; i < at + pstride; ++i)
            fail_unless(a[i] == b[i], "%s: plane %u byte %u of row %u changed outside the graph (%u -> %u)",
                        what.c_str(), p, i, y, a[i], b[i]);
          continue;
        }
        guint64 before = 0, after = 0;
        for (guint i = 0; i < pstride; ++i) {
          before |= guint64(a[at + i]) << (8 * i);
          after |= guint64(b[at + i]) << (8 * i);
        }
        fail_unless((before & ~drawn_bits) == (after & ~drawn_bits),
                    "%s: graph pixel (%u, %u): bits beside the drawn values changed (%" G_GINT64_MODIFIER
                    "x -> %" G_GINT64_MODIFIER "x)",
                    what.c_str(), x, y, before, after);
        for (guint v = 0; v < drawn.size(); ++v) {
          const guint64 old_value = (before >> drawn[v].shift) & drawn[v].top();
          const guint64 new_value = (after >> drawn[v].shift) & drawn[v].top();
          if (old_value != new_value) ++*changed_in_corner;
          const gint64 want = expect(old_value, drawn[v].top(), x, y - top, v);
          fail_unless(want < 0 || gint64(new_value) == want,
                      "%s: graph pixel (%u, %u) value %u is %" G_GUINT64_FORMAT
                      ", expected %" G_GINT64_FORMAT,
                      what.c_str(), x, y, v, new_value, want);
        }
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

// The graph the element must draw over a frame whose histograms are `result`, from the
// specification (docs/elements/histogram.md), for any frame size: in a graph of gw x gh pixels,
// column x shows bin x * bins / gw; a channel's bar there is ceil(count * gh / largest count)
// pixels high (the largest count taken as at least 1); a drawn value v whose largest is `top`
// (255 at 8 bits) becomes (v + top) / 2 inside the bar and v * 3 / 4 above it. Red, green and blue
// are drawn into their own values of RGB pixels (DrawnValues() order), luma into the Y plane.
class ExpectedGraph {
 public:
  ExpectedGraph(const GstVideoInfo& info, const histogram_ref::Result& result)
      : width_(MIN(guint(GST_VIDEO_INFO_WIDTH(&info)), kGraphWidth)),
        height_(MIN(guint(GST_VIDEO_INFO_HEIGHT(&info)), kGraphHeight)),
        bins_(result.bins) {
    using histogram_ref::Channel;
    if (GST_VIDEO_FORMAT_INFO_IS_RGB(info.finfo)) {
      for (Channel c : {Channel::kRed, Channel::kGreen, Channel::kBlue})
        histograms_.push_back(result.Find(c));
    } else {
      histograms_.push_back(result.Find(Channel::kLuma));
    }
  }

  // Drawn value `value` of the pixel in column x, row `row` of the graph (0 = its top), which held v.
  gint64 operator()(guint64 v, guint64 top, guint x, guint row, guint value) const {
    const std::vector<guint64>& counts = histograms_.at(value)->counts;
    const guint64 largest = std::max<guint64>(1, *std::max_element(counts.begin(), counts.end()));
    const guint64 bar = (counts[x * bins_ / width_] * height_ + largest - 1) / largest;
    return gint64(height_ - row <= bar ? (v + top) / 2 : v * 3 / 4);
  }

 private:
  guint width_, height_, bins_;
  std::vector<const histogram_ref::ChannelHistogram*> histograms_;
};

// Fails unless `outbuf` is `frame` (whose bytes `original` holds) with exactly its graph drawn,
// counted in `bins` bins over the whole frame, and nothing else changed.
void ExpectDrawnFrame(const TestFrame& frame, GstBuffer* original, GstBuffer* outbuf, guint bins,
                      const std::string& what) {
  histogram_ref::Params params;
  params.bins = bins;
  const std::optional<histogram_ref::Result> result = histogram_ref::Analyze(ViewOf(frame), params);
  fail_unless(result.has_value(), "%s: no reference histograms", what.c_str());
  size_t changed;
  CompareFrames(frame.info, original, outbuf, ExpectedGraph(frame.info, *result), what, &changed);
}

// GPU-assisted validation checks every access of a kernel against the range of the buffer it
// goes through: a kernel that rewrites words outside its pixels (with the values it read there)
// leaves every byte as it was on a CPU device, so only the layer can tell. The layer reads
// VK_LAYER_ENABLES when the Vulkan instance is created; check runs each test in a process of its
// own, where the element creates it, so this covers the calling test only (and nothing with
// CK_FORK=no once an earlier test has created the instance).
void EnableGpuAssistedValidation() {
  if (!vktest::ValidationEnabled()) return;
  constexpr char kGpuAssisted[] = "VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT";
  const char* enables = g_getenv("VK_LAYER_ENABLES");
  std::string value = kGpuAssisted;
  if (enables != nullptr && enables[0] != '\0') value = std::string(enables) + ":" + kGpuAssisted;
  g_setenv("VK_LAYER_ENABLES", value.c_str(), TRUE);
  // lavapipe compiles the instrumented kernels at their first dispatch: seconds, on a fresh machine.
  g_setenv("GST_VKCOMPUTE_FRAME_TIMEOUT_MS", "120000", TRUE);
}

const DrawCase kSolidCases[] = {
    {GST_VIDEO_FORMAT_RGBA, 300, 130, 256}, {GST_VIDEO_FORMAT_RGB, 301, 131, 256},
    {GST_VIDEO_FORMAT_xBGR, 260, 101, 256}, {GST_VIDEO_FORMAT_GRAY8, 257, 103, 256},
    {GST_VIDEO_FORMAT_NV12, 298, 120, 256}, {GST_VIDEO_FORMAT_I420, 333, 111, 256},
    {GST_VIDEO_FORMAT_Y444, 64, 40, 64},  // graph smaller than 256 x 100: the whole frame
};

// Sizes where rows end inside a word of the graph, with every pixel size the graph kernel draws
// into: 3- and 4-byte RGB (xBGR: the padding byte first), the 1-byte Y plane of GRAY8 and NV12;
// and the deeper formats: 2-byte Y (10 bits high in P010, low in I420_10LE; 16 bits), 8-byte
// RGBA64 and 10-bit RGB packed in a word.
constexpr GstVideoFormat kOddSizeFormats[] = {
    GST_VIDEO_FORMAT_RGB,       GST_VIDEO_FORMAT_RGBA,      GST_VIDEO_FORMAT_xBGR,
    GST_VIDEO_FORMAT_GRAY8,     GST_VIDEO_FORMAT_NV12,      GST_VIDEO_FORMAT_P010_10LE,
    GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_I420_12LE, GST_VIDEO_FORMAT_GRAY16_LE,
    GST_VIDEO_FORMAT_RGBA64_LE, GST_VIDEO_FORMAT_BGR10A2_LE};
constexpr struct { int width, height; } kOddSizes[] = {{1, 1}, {2, 3}, {97, 61}};

}  // namespace

// A solid frame: the corner is exactly background except one full-height column.
GST_START_TEST(test_draw_solid_frame) {
  const DrawCase& c = kSolidCases[__i__];
  const std::string what = "draw solid " + vktest::FormatAndSize(c.format, c.width, c.height);
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
      [&](guint64 v, guint64 top, guint x, guint, guint) {
        return gint64(x * c.bins / graph_w == full_bin ? (v + top) / 2 : v * 3 / 4);
      },
      what, &changed);
  fail_unless(changed > 0, "%s: nothing drawn", what.c_str());
  fail_unless_equals_int(CountHistogramMessages(bus), 1);
  gst_buffer_unref(outbuf);
  gst_buffer_unref(inbuf);
  TeardownDrawHarness(h, bus);
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
          info, inputs[n], outbuf, [](guint64, guint64, guint, guint, guint) { return gint64(-1); },
          vktest::WithSeed(what) + " frame " + std::to_string(n), &changed);
      fail_unless(changed > 0, "%s: nothing drawn", vktest::WithSeed(what).c_str());
      gst_buffer_unref(outbuf);
    }
    fail_unless_equals_int(CountHistogramMessages(bus), kFrames);
    for (GstBuffer* b : inputs) gst_buffer_unref(b);
    TeardownDrawHarness(h, bus);
  }
}
GST_END_TEST;

// Random frames at odd sizes: the graph is exactly the one the reference histograms give, every
// other byte is unchanged, and (under GPU-assisted validation) the kernel touches no word outside
// the output frame.
GST_START_TEST(test_draw_graph_at_odd_sizes) {
  const GstVideoFormat format = kOddSizeFormats[__i__ / G_N_ELEMENTS(kOddSizes)];
  const auto& size = kOddSizes[__i__ % G_N_ELEMENTS(kOddSizes)];
  const guint bins[] = {256, 37, 1024};  // 1 024: more bins than graph columns
  const DrawCase c{format, size.width, size.height, bins[__i__ % 3]};
  EnableGpuAssistedValidation();
  const std::string what =
      "draw graph " + vktest::FormatAndSize(format, c.width, c.height) + " bins=" + std::to_string(c.bins);
  std::mt19937 rng = vktest::RngFor(what);
  GstBus* bus;
  GstHarness* h = NewDrawHarness(c, &bus);
  constexpr int kFrames = 2;
  std::vector<TestFrame> frames;
  for (int n = 0; n < kFrames; ++n) {
    frames.push_back(RandomFrame(format, c.width, c.height, rng));
    GstBuffer* inbuf = NewFrame(frames.back().info, frames.back().bytes);
    GST_BUFFER_PTS(inbuf) = n * GST_SECOND / 30;
    fail_unless_equals_int(gst_harness_push(h, inbuf), GST_FLOW_OK);
  }
  gst_harness_push_event(h, gst_event_new_eos());
  for (int n = 0; n < kFrames; ++n) {
    const std::string where = vktest::WithSeed(what) + " frame " + std::to_string(n);
    GstBuffer* outbuf = gst_harness_pull(h);
    fail_unless(outbuf != nullptr, "%s: missing", where.c_str());
    GstBuffer* original = NewFrame(frames[n].info, frames[n].bytes);
    ExpectDrawnFrame(frames[n], original, outbuf, c.bins, where);
    gst_buffer_unref(original);
    gst_buffer_unref(outbuf);
  }
  fail_unless_equals_int(CountHistogramMessages(bus), kFrames);
  TeardownDrawHarness(h, bus);
}
GST_END_TEST;

// draw switched on and off while PLAYING, between pushes on the pushing thread, so that the next
// frame is the first after each change: it applies from that frame. Drawn frames are new buffers
// from the element's pool with exactly their graph; the others are the pushed buffers themselves,
// bytes unchanged. Every frame gets its message.
GST_START_TEST(test_draw_switched_while_playing) {
  const DrawCase c{GST_VIDEO_FORMAT_RGBA, 97, 61, 64};
  const std::string what = "draw switched while playing";
  std::mt19937 rng = vktest::RngFor(what);
  GstBus* bus;
  GstHarness* h = NewDrawHarness(c, &bus, false);
  GstVideoInfo info;
  gst_video_info_set_format(&info, c.format, c.width, c.height);

  const bool draw[] = {false, false, true, true, false, true, false, false, true, true};
  constexpr size_t kFrames = G_N_ELEMENTS(draw);
  std::vector<TestFrame> frames;
  std::vector<GstBuffer*> pushed;
  bool drawing = false;
  for (size_t n = 0; n < kFrames; ++n) {
    if (draw[n] != drawing) g_object_set(h->element, "draw", gboolean(draw[n]), nullptr);
    drawing = draw[n];
    frames.push_back(RandomFrame(c.format, c.width, c.height, rng));
    pushed.push_back(NewFrame(info, frames.back().bytes));
    GST_BUFFER_PTS(pushed.back()) = n * GST_SECOND / 30;
    fail_unless_equals_int(gst_harness_push(h, gst_buffer_ref(pushed.back())), GST_FLOW_OK);
  }
  gst_harness_push_event(h, gst_event_new_eos());
  std::vector<GstBuffer*> outputs;
  for (size_t n = 0; n < kFrames; ++n) outputs.push_back(gst_harness_pull(h));
  // Each frame's message, drawn or not, carries its own counts: the ones its graph shows.
  for (size_t n = 0; n < kFrames; ++n) {
    const std::string where = vktest::WithSeed(what) + " message of frame " + std::to_string(n);
    GstMessage* message = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT);
    fail_unless(message != nullptr && analysis_test::IsElementMessage(message, "histogram"), "%s: missing",
                where.c_str());
    const HistogramMessage got = ParseHistogramMessage(message);
    gst_message_unref(message);
    histogram_ref::Params params;
    params.bins = c.bins;
    const std::optional<histogram_ref::Result> result = histogram_ref::Analyze(ViewOf(frames[n]), params);
    fail_unless(result.has_value(), "%s: no reference histograms", where.c_str());
    for (const histogram_ref::ChannelHistogram& want : result->channels) {
      const auto field = got.channels.find(histogram_ref::FieldName(want.channel));
      fail_unless(field != got.channels.end() && field->second == want.counts,
                  "%s: \"%s\" differs from the reference", where.c_str(),
                  histogram_ref::FieldName(want.channel));
    }
  }
  for (size_t n = 0; n < kFrames; ++n) {
    const std::string where =
        vktest::WithSeed(what) + " frame " + std::to_string(n) + (draw[n] ? " (draw)" : " (no draw)");
    GstBuffer* outbuf = outputs[n];
    fail_unless(outbuf != nullptr, "%s: missing", where.c_str());
    fail_unless_equals_uint64(GST_BUFFER_PTS(outbuf), GST_BUFFER_PTS(pushed[n]));
    GstBuffer* original = NewFrame(info, frames[n].bytes);
    if (draw[n]) {
      fail_unless(outbuf != pushed[n] && outbuf->pool != nullptr, "%s: not a new frame from a pool",
                  where.c_str());
      ExpectDrawnFrame(frames[n], original, outbuf, c.bins, where);
    } else {
      fail_unless(outbuf == pushed[n], "%s: not passed through", where.c_str());
      fail_unless(gst_buffer_memcmp(outbuf, 0, frames[n].bytes.data(), frames[n].bytes.size()) == 0,
                  "%s: bytes changed", where.c_str());
    }
    gst_buffer_unref(original);
    gst_buffer_unref(outbuf);
  }
  fail_unless_equals_int(CountHistogramMessages(bus), 0);
  for (GstBuffer* b : pushed) gst_buffer_unref(b);
  TeardownDrawHarness(h, bus);
}
GST_END_TEST;

TCase* DrawTCase() {
  TCase* tcase = vktest::NewTCase("draw", 120);
  tcase_add_loop_test(tcase, test_draw_solid_frame, 0, G_N_ELEMENTS(kSolidCases));
  tcase_add_test(tcase, test_draw_changes_only_the_corner);
  tcase_add_loop_test(tcase, test_draw_graph_at_odd_sizes, 0,
                      G_N_ELEMENTS(kOddSizeFormats) * G_N_ELEMENTS(kOddSizes));
  tcase_add_test(tcase, test_draw_switched_while_playing);
  return tcase;
}

}  // namespace histogram_test
