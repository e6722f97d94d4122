// What the shared base class guarantees for every element, whatever the element does: a frame that
// outlives the frame timeout stops the stream with one error and the pipeline still reaches NULL
// (and starts again); an element dropped while PLAYING goes quietly; `device` cannot change under
// a running element; output buffers hold the same bytes in every run, row padding included, whatever
// the input's padding held; a buffer in one memory per plane reaches the GPU without a CPU copy;
// every buffer a frame held is released by the time the state change to NULL returns; analysis
// messages of frames in a segment not in time carry no stream or running time; a frame too large
// for one dispatch on the device is refused with an error that says so.
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/bus_wait.h"
#include "common/test_data.h"
#include "common/test_seed.h"
#include "common/visible_bytes.h"
#include "common/vktest.h"

namespace {

constexpr GstClockTime kTimeout = 120 * GST_SECOND;
const char* const kElements[] = {"rgb2yuv", "lumamax", "histogram", "morph", "lut"};

// The element named dut, with settings that run several of its kernels, and the output caps it
// needs (lut needs a table: a lookup image from tests/data). A 1080p frame takes milliseconds on
// lavapipe; not much longer, as the frames left running after a stop delay the next stream.
std::string HeavyElement(const std::string& name) {
  if (name == "morph") return "morph name=dut operation=gradient shape=ellipse width=5 height=5";
  if (name == "lut")
    return "lut name=dut interpolation=tetrahedral location=" + vktest::TestDataDir() +
           "/lookup_amatorka.png";
  if (name == "rgb2yuv") return "rgb2yuv name=dut ! video/x-raw,format=I420";
  if (name == "histogram") return "histogram name=dut draw=true";
  return name + " name=dut count=4 min-distance=8";
}

// Every ERROR message on the bus now, as text.
std::vector<std::string> PendingErrors(GstElement* pipeline) {
  std::vector<std::string> errors;
  GstBus* bus = gst_element_get_bus(pipeline);
  while (GstMessage* message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR)) {
    errors.push_back(vktest::Describe(message));
    gst_message_unref(message);
  }
  gst_object_unref(bus);
  return errors;
}

}  // namespace

// With the frame timeout lowered to 1 ms, large frames outlive it: each element posts exactly one
// error saying so (not a lost device), NULL is reached with frames still running on the GPU (whose
// memory must outlive them: the validation layer reports freeing memory in use), and the same
// element instance then runs a stream normally with the default timeout.
GST_START_TEST(test_slow_frame_stops_cleanly) {
  for (const char* name : kElements) {
    // morph takes seconds per 1080p frame on lavapipe: the frames it leaves running would hold up
    // the second stream past the default timeout.
    const std::string size = name == std::string("morph") ? "width=320,height=240" : "width=1920,height=1080";
    const std::string description = "videotestsrc name=src num-buffers=12 ! video/x-raw,format=RGBx," + size +
                                    " ! " + HeavyElement(name) + " ! fakesink";
    g_setenv("GST_VKCOMPUTE_FRAME_TIMEOUT_MS", "1", TRUE);
    GstElement* pipeline = vktest::ParsePipeline(description.c_str());
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    GstMessage* message = vktest::WaitForErrorOrEos(pipeline, kTimeout);
    fail_unless(message != nullptr, "%s: neither an error nor EOS", name);
    const std::string first = vktest::Describe(message);
    fail_unless(GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR,
                "%s: frames outlived a 1 ms timeout without an error", name);
    fail_unless(first.find("took longer than 1 ms") != std::string::npos &&
                    first.find("not lost") != std::string::npos,
                "%s: the error does not say the frame was slow: %s", name, first.c_str());
    gst_message_unref(message);
    fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS,
                "%s: the pipeline did not reach NULL", name);
    const std::vector<std::string> more = PendingErrors(pipeline);
    fail_unless(more.empty(), "%s: %zu more error(s) after the first, e.g. %s", name, more.size(),
                more.empty() ? "" : more[0].c_str());

    // The same element starts again, now with the default timeout.
    g_unsetenv("GST_VKCOMPUTE_FRAME_TIMEOUT_MS");
    GstElement* source = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    g_object_set(source, "num-buffers", 2, nullptr);
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    vktest::ExpectEos(pipeline, kTimeout, std::string(name) + " after the timeout");
    fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
    gst_object_unref(source);
    gst_object_unref(pipeline);
    vktest::AssertNoValidationErrors(name);
  }
}
GST_END_TEST;

// GStreamer warns (a critical) when an element is dropped outside NULL; ours must not abort then
// (the analysis elements' completion thread), nor free what frames in flight use.
GST_START_TEST(test_dispose_while_playing) {
  for (const char* name : kElements) {
    GstElement* pipeline = vktest::ParsePipeline(
        ("videotestsrc name=src is-live=true ! video/x-raw,format=RGBx,width=64,height=48 ! " +
         HeavyElement(name) + " ! fakesink")
            .c_str());
    fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
    fail_unless(gst_element_get_state(pipeline, nullptr, nullptr, kTimeout) == GST_STATE_CHANGE_SUCCESS);
    // The source stops pushing first (alone, to NULL); then our element leaves the pipeline still
    // PLAYING, and our reference is its last one.
    GstElement* source = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    gst_element_set_state(source, GST_STATE_NULL);
    GstElement* element = gst_bin_get_by_name(GST_BIN(pipeline), "dut");
    fail_unless(element != nullptr && GST_STATE(element) == GST_STATE_PLAYING, "%s is not PLAYING", name);
    gst_bin_remove(GST_BIN(pipeline), element);
    GstBus* bus = gst_element_get_bus(pipeline);
    gst_bus_set_flushing(bus, TRUE);  // its messages hold references to the element
    gst_object_unref(bus);
    fail_unless_equals_int(GST_OBJECT_REFCOUNT_VALUE(element), 1);
    ASSERT_CRITICAL(gst_object_unref(element));
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(source);
    gst_object_unref(pipeline);
  }
}
GST_END_TEST;

// `device` is read at start: a running element refuses a new value with a warning and keeps its
// own; in READY it is accepted again.
GST_START_TEST(test_device_refused_while_playing) {
  for (const char* name : kElements) {
    GstElement* pipeline =
        vktest::ParsePipeline(("videotestsrc is-live=true ! video/x-raw,format=RGBx,width=64,height=48 ! " +
                               HeavyElement(name) + " ! fakesink")
                                  .c_str());
    GstElement* dut = gst_bin_get_by_name(GST_BIN(pipeline), "dut");
    g_object_set(dut, "device", 0, nullptr);
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    fail_unless(gst_element_get_state(pipeline, nullptr, nullptr, kTimeout) == GST_STATE_CHANGE_SUCCESS);
    ASSERT_WARNING(g_object_set(dut, "device", 5, nullptr));
    gint device = -2;
    g_object_get(dut, "device", &device, nullptr);
    fail_unless_equals_int(device, 0);
    gst_element_set_state(pipeline, GST_STATE_READY);
    g_object_set(dut, "device", -1, nullptr);
    g_object_get(dut, "device", &device, nullptr);
    fail_unless_equals_int(device, -1);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(dut);
    gst_object_unref(pipeline);
  }
}
GST_END_TEST;

namespace {

// Which bytes of a frame laid out as `info` hold samples (every component of every pixel).
std::vector<bool> SampleBytes(const GstVideoInfo& info) {
  std::vector<bool> used(info.size, false);
  const GstVideoFormatInfo* finfo = info.finfo;
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c) {
    const guint plane = GST_VIDEO_FORMAT_INFO_PLANE(finfo, c);
    const gint pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE(finfo, c);
    const guint bytes = (GST_VIDEO_FORMAT_INFO_DEPTH(finfo, c) + 7) / 8;
    for (gint y = 0; y < GST_VIDEO_INFO_COMP_HEIGHT(&info, c); ++y)
      for (gint x = 0; x < GST_VIDEO_INFO_COMP_WIDTH(&info, c); ++x)
        for (guint b = 0; b < bytes; ++b)
          used[GST_VIDEO_INFO_PLANE_OFFSET(&info, plane) + y * GST_VIDEO_INFO_PLANE_STRIDE(&info, plane) +
               x * pstride + GST_VIDEO_FORMAT_INFO_POFFSET(finfo, c) + b] = true;
  }
  return used;
}

// Fills every byte of each frame leaving `pad` that holds no sample (row and plane padding) with
// values from `rng`: what upstream leaves there must not reach the output.
GstPadProbeReturn ScribbleOnPadding(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
  auto* rng = static_cast<std::mt19937*>(data);
  GstCaps* caps = gst_pad_get_current_caps(pad);
  GstVideoInfo video;
  fail_unless(caps && gst_video_info_from_caps(&video, caps));
  gst_caps_unref(caps);
  GstBuffer* buffer = gst_buffer_make_writable(GST_PAD_PROBE_INFO_BUFFER(info));
  GST_PAD_PROBE_INFO_DATA(info) = buffer;
  const std::vector<bool> used = SampleBytes(video);
  GstMapInfo map;
  fail_unless(gst_buffer_map(buffer, &map, GST_MAP_WRITE));
  for (size_t i = 0; i < std::min<size_t>(map.size, used.size()); ++i)
    if (!used[i]) map.data[i] = guint8((*rng)());
  gst_buffer_unmap(buffer, &map);
  return GST_PAD_PROBE_OK;
}

struct Output {
  GstVideoInfo info;
  std::vector<std::vector<guint8>> buffers;  // every byte of each buffer
};

// Every output buffer of `description` (ending in "appsink name=sink"), whole. The padding of the
// frames leaving an element named "scribble" is filled from `padding`.
Output Collect(const std::string& description, std::mt19937 padding = std::mt19937()) {
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  if (GstElement* scribble = gst_bin_get_by_name(GST_BIN(pipeline), "scribble")) {
    GstPad* src = gst_element_get_static_pad(scribble, "src");
    gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_BUFFER, ScribbleOnPadding, &padding, nullptr);
    gst_object_unref(src);
    gst_object_unref(scribble);
  }
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  Output output;
  while (GstSample* sample = gst_app_sink_pull_sample(GST_APP_SINK(sink))) {
    fail_unless(gst_video_info_from_caps(&output.info, gst_sample_get_caps(sample)));
    GstMapInfo map;
    fail_unless(gst_buffer_map(gst_sample_get_buffer(sample), &map, GST_MAP_READ));
    output.buffers.emplace_back(map.data, map.data + map.size);
    gst_buffer_unmap(gst_sample_get_buffer(sample), &map);
    gst_sample_unref(sample);
  }
  vktest::ExpectEos(pipeline, kTimeout, "'" + description + "'");
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  return output;
}

}  // namespace

// Whole output buffers, compared between two runs of the same input, and the bytes that hold no
// sample (row padding at width 97, gaps between planes) between the frames of a run: files and
// checksums of identical streams are identical.
GST_START_TEST(test_output_bytes_are_deterministic) {
  // The filter, and whether its output is a new frame: then the input's padding, random and
  // different in the two runs, must not reach the output. Planes an element copies keep their
  // padding, as a passed-through frame does: histogram draws into a copy of its input, and morph
  // copies the chroma planes of YUV frames.
  const std::pair<std::string, bool> filters[] = {
      {"video/x-raw,format=RGB ! rgb2yuv ! video/x-raw,format=I420", true},
      {"video/x-raw,format=BGRx ! rgb2yuv ! video/x-raw,format=NV12", true},
      {"video/x-raw,format=RGB ! lut location=" + vktest::TestDataDir() + "/lookup_amatorka.png", true},
      {"video/x-raw,format=GRAY8 ! morph operation=dilate width=3 height=3", true},
      {"video/x-raw,format=I420 ! morph operation=erode shape=cross width=5 height=5", false},
      {"video/x-raw,format=RGB ! histogram draw=true", false},
  };
  for (const auto& [filter, new_frames] : filters) {
    // The filter's first caps become a capsfilter that the padding probe can find.
    const std::string description =
        "videotestsrc num-buffers=3 pattern=ball ! video/x-raw,width=97,height=61 ! videoconvert ! "
        "capsfilter name=" +
        std::string(new_frames ? "scribble" : "kept") + " caps=" + filter + " ! appsink name=sink sync=false";
    const Output first = Collect(description, vktest::RngFor(filter + ": padding, first run"));
    // A second run after memory that held other frames was freed and may come back.
    vktest::RunToEos(
        "videotestsrc num-buffers=3 pattern=snow ! video/x-raw,width=97,height=61 ! videoconvert ! " +
            filter + " ! fakesink",
        kTimeout);
    const Output second = Collect(description, vktest::RngFor(filter + ": padding, second run"));
    fail_unless(first.buffers.size() == 3, "%s: %zu frames out of 3", filter.c_str(), first.buffers.size());
    const std::vector<bool> used = SampleBytes(first.info);
    for (size_t f = 0; f < std::min(first.buffers.size(), second.buffers.size()); ++f) {
      const std::vector<guint8>&a = first.buffers[f], &b = second.buffers[f];
      fail_unless(a.size() == b.size(), "%s: frame %zu is %zu bytes in one run, %zu in the other",
                  filter.c_str(), f, a.size(), b.size());
      const auto differ = std::mismatch(a.begin(), a.end(), b.begin());
      const size_t at = size_t(differ.first - a.begin());
      fail_unless(differ.first == a.end(),
                  "%s: two runs of the same frames differ: frame %zu, byte %zu (%s): %u, %u (%s)",
                  filter.c_str(), f, at, at < used.size() && used[at] ? "a sample" : "no sample",
                  *differ.first, *differ.second, vktest::SeedDescription().c_str());
    }
    // Each output buffer of a run came from a different allocation: bytes outside the samples
    // that no kernel writes would show what each allocation held before.
    const std::vector<guint8>& reference = first.buffers[0];
    for (const std::vector<guint8>& bytes : first.buffers)
      for (size_t i = 0; i < std::min(bytes.size(), used.size()); ++i)
        fail_unless(used[i] || bytes[i] == reference[i],
                    "%s: byte %zu holds no sample and differs between frames: %u, %u", filter.c_str(), i,
                    reference[i], bytes[i]);
  }
}
GST_END_TEST;

namespace {

// Counts the base class's log lines that say how an input reached the GPU.
struct InputPathLog {
  std::atomic<int> gathered{0}, staged{0};
  static void Log(GstDebugCategory* category, GstDebugLevel, const gchar*, const gchar*, gint, GObject*,
                  GstDebugMessage* message, gpointer data) {
    if (g_strcmp0(gst_debug_category_get_name(category), "vkcomputefilter") != 0) return;
    auto* self = static_cast<InputPathLog*>(data);
    const char* text = gst_debug_message_get(message);
    if (!text || !strstr(text, "input reaches the GPU")) return;
    if (strstr(text, "gathered")) self->gathered++;
    if (strstr(text, "staging copy")) self->staged++;
  }
};

// `bytes` (a frame laid out as `info`) as one buffer: in one memory, or in one memory per plane.
GstBuffer* FrameBuffer(const GstVideoInfo& info, const std::vector<guint8>& bytes, bool per_plane) {
  GstBuffer* buffer = gst_buffer_new();
  const guint planes = per_plane ? GST_VIDEO_INFO_N_PLANES(&info) : 1;
  for (guint p = 0; p < planes; ++p) {
    const gsize begin = per_plane ? GST_VIDEO_INFO_PLANE_OFFSET(&info, p) : 0;
    const gsize end = per_plane && p + 1 < planes ? GST_VIDEO_INFO_PLANE_OFFSET(&info, p + 1) : bytes.size();
    GstMemory* memory = gst_allocator_alloc(nullptr, end - begin, nullptr);
    GstMapInfo map;
    fail_unless(gst_memory_map(memory, &map, GST_MAP_WRITE));
    std::memcpy(map.data, bytes.data() + begin, end - begin);
    gst_memory_unmap(memory, &map);
    gst_buffer_append_memory(buffer, memory);
  }
  GstVideoInfo layout = info;
  gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(&info),
                                 GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info),
                                 GST_VIDEO_INFO_N_PLANES(&info), layout.offset, layout.stride);
  return buffer;
}

}  // namespace

// A buffer with one memory per plane (as some decoders and sources hand them out) reaches the GPU
// without a CPU copy: each memory is imported and the GPU gathers them into one device buffer. The
// output equals that of the same frame in one memory.
GST_START_TEST(test_buffer_per_plane) {
  InputPathLog log;
  gst_debug_set_threshold_for_name("vkcomputefilter", GST_LEVEL_INFO);
  gst_debug_add_log_function(&InputPathLog::Log, &log, nullptr);
  for (const char* format : {"I420", "NV12", "Y444"}) {
    const std::string caps =
        std::string("video/x-raw,format=") + format + ",width=97,height=61,framerate=30/1";
    GstCaps* parsed = gst_caps_from_string(caps.c_str());
    GstVideoInfo info;
    fail_unless(gst_video_info_from_caps(&info, parsed));
    gst_caps_unref(parsed);
    std::mt19937 rng = vktest::RngFor(caps);
    std::vector<guint8> bytes(info.size);
    for (guint8& b : bytes) b = guint8(rng());

    GstHarness* h = gst_harness_new_parse("morph operation=dilate width=3 height=5");
    gst_harness_set_src_caps_str(h, caps.c_str());
    std::string outputs[2];
    for (bool per_plane : {false, true}) {
      fail_unless_equals_int(gst_harness_push(h, FrameBuffer(info, bytes, per_plane)), GST_FLOW_OK);
      GstBuffer* out = gst_harness_pull(h);
      fail_unless(out != nullptr, "%s: no output", format);
      outputs[per_plane] = vktest::VisibleBytes(info, out);
      gst_buffer_unref(out);
    }
    gst_harness_teardown(h);
    fail_unless(outputs[0] == outputs[1], "%s: the frame in one memory per plane gave another output (%s)",
                format, vktest::SeedDescription().c_str());
    vktest::AssertNoValidationErrors(format);
  }
  gst_debug_remove_log_function_by_data(&log);
  gst_debug_unset_threshold_for_name("vkcomputefilter");
  fail_unless(
      log.gathered > 0 && log.staged == 0,
      "the planes reached the GPU %d time(s) gathered by GPU copies and %d time(s) through a CPU copy",
      log.gathered.load(), log.staged.load());
}
GST_END_TEST;

namespace {

gpointer SetPlaying(gpointer element) {
  gst_element_set_state(GST_ELEMENT(element), GST_STATE_PLAYING);
  return nullptr;
}

GstStaticPadTemplate kRawSrc =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS("video/x-raw"));
GstStaticPadTemplate kRawSink =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS("video/x-raw"));

}  // namespace

// An element upstream that already streams when ours starts (a branch added while PLAYING, synced
// source first) gets its events and frames through as soon as our sink pad is active: GStreamer
// activates it before start(), which opens the device. Here a pad pushes a frame again and again
// while the element goes to PLAYING in another thread, so its caps arrive while start() runs. They
// wait for the start, and the frame comes out as from an element started first (the elements
// crashed, configuring kernels on no device).
GST_START_TEST(test_caps_while_starting) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_RGBA, 97, 61);
  std::mt19937 rng = vktest::RngFor("caps while starting");
  std::vector<guint8> bytes(info.size);
  for (guint8& b : bytes) b = guint8(rng());
  GstCaps* caps = gst_video_info_to_caps(&info);
  const std::string lut_location = vktest::TestDataDir() + "/lookup_amatorka.png";
  const std::vector<std::pair<const char*, std::vector<std::pair<const char*, std::string>>>> elements = {
      {"morph", {{"operation", "dilate"}, {"width", "3"}, {"height", "5"}}},
      {"lut", {{"location", lut_location}}}};
  for (const auto& [name, settings] : elements) {
    std::string description = name;
    for (const auto& [property, value] : settings) description += std::string(" ") + property + "=" + value;
    GstHarness* h = gst_harness_new_parse(description.c_str());
    gst_harness_set_src_caps(h, gst_caps_ref(caps));
    GstBuffer* first_started = gst_harness_push_and_pull(h, FrameBuffer(info, bytes, false));
    fail_unless(first_started != nullptr, "%s: no output", description.c_str());
    const std::string expected = vktest::VisibleBytes(info, first_started);
    gst_buffer_unref(first_started);
    gst_harness_teardown(h);

    GstElement* element = gst_check_setup_element(name);
    for (const auto& [property, value] : settings)
      gst_util_set_object_arg(G_OBJECT(element), property, value.c_str());
    GstPad* src = gst_check_setup_src_pad(element, &kRawSrc);
    GstPad* sink = gst_check_setup_sink_pad(element, &kRawSink);
    gst_pad_set_active(src, TRUE);
    gst_pad_set_active(sink, TRUE);
    // The events go with the first push that the element's sink pad lets through.
    gst_pad_store_sticky_event(src, gst_event_new_stream_start("caps-while-starting"));
    gst_pad_store_sticky_event(src, gst_event_new_caps(caps));
    GstSegment segment;
    gst_segment_init(&segment, GST_FORMAT_TIME);
    gst_pad_store_sticky_event(src, gst_event_new_segment(&segment));
    GThread* starter = g_thread_new("starter", SetPlaying, element);
    GstBuffer* frame = FrameBuffer(info, bytes, false);
    GstFlowReturn flow;
    while ((flow = gst_pad_push(src, gst_buffer_ref(frame))) == GST_FLOW_FLUSHING) g_thread_yield();
    gst_buffer_unref(frame);
    fail_unless_equals_int(flow, GST_FLOW_OK);
    g_thread_join(starter);
    g_mutex_lock(&check_mutex);
    while (g_list_length(buffers) < 1) g_cond_wait(&check_cond, &check_mutex);
    g_mutex_unlock(&check_mutex);
    fail_unless(vktest::VisibleBytes(info, GST_BUFFER(buffers->data)) == expected,
                "%s: the frame differs from that of an element started first (%s)", description.c_str(),
                vktest::SeedDescription().c_str());
    gst_check_drop_buffers();
    gst_element_set_state(element, GST_STATE_NULL);
    gst_pad_set_active(src, FALSE);
    gst_pad_set_active(sink, FALSE);
    gst_check_teardown_src_pad(element);
    gst_check_teardown_sink_pad(element);
    gst_check_teardown_element(element);
    vktest::AssertNoValidationErrors(description);
  }
  gst_caps_unref(caps);
}
GST_END_TEST;

namespace {

// What the notifies of an application's frames count: their releases, and those on the reaper's
// thread (the memory carries our import, whose freeing unpins its pages, most of a millisecond a
// 1080p frame on a GPU, which neither the sink's thread nor ours pays). Each frame keeps it, so a
// frame let go of after a failed check has ended the test still counts into live memory.
struct Releases {
  std::atomic<int> all{0}, by_reaper{0};
};

// An application's frame memory of `size` zero bytes, wrapped into a buffer whose notify counts.
struct WrappedFrame {
  std::shared_ptr<Releases> releases;
  guint8* data;

  static GstBuffer* New(const std::shared_ptr<Releases>& releases, gsize size, GstClockTime pts) {
    auto* frame = new WrappedFrame{releases, static_cast<guint8*>(g_malloc0(size))};
    GstBuffer* buffer = gst_buffer_new_wrapped_full(GstMemoryFlags(0), frame->data, size, 0, size, frame,
                                                    WrappedFrame::Release);
    GST_BUFFER_PTS(buffer) = pts;
    return buffer;
  }
  // Pushes `frames` such frames into appsrc `src`, at 30 frames/s.
  static void Push(GstElement* src, const std::shared_ptr<Releases>& releases, int frames, gsize size) {
    for (int i = 0; i < frames; ++i)
      fail_unless_equals_int(
          gst_app_src_push_buffer(GST_APP_SRC(src), New(releases, size, i * GST_SECOND / 30)), GST_FLOW_OK);
  }
  static void Release(gpointer user_data) {
    auto* frame = static_cast<WrappedFrame*>(user_data);
    char thread[16] = {};
    pthread_getname_np(pthread_self(), thread, sizeof thread);
    if (std::string(thread) == "vkc:reaper") frame->releases->by_reaper.fetch_add(1);
    frame->releases->all.fetch_add(1);
    g_free(frame->data);
    delete frame;
  }
};

GstPadProbeReturn CountBuffer(GstPad*, GstPadProbeInfo*, gpointer data) {
  static_cast<std::atomic<int>*>(data)->fetch_add(1);
  return GST_PAD_PROBE_OK;
}

}  // namespace

// Every buffer a frame holds has been released when the state change to NULL returns, as stock
// elements release theirs: an application's wrapped memory gets its notify then, and may go. The
// pipeline goes to NULL as soon as the element has taken the last frame, with frames on the GPU.
GST_START_TEST(test_buffers_released_by_null) {
  constexpr int kFrames = 12, kWidth = 320, kHeight = 240;
  for (const char* name : kElements) {
    const std::string description =
        "appsrc name=src format=time caps=video/x-raw,format=RGBx,width=" + std::to_string(kWidth) +
        ",height=" + std::to_string(kHeight) + ",framerate=30/1 ! " + HeavyElement(name) +
        " ! fakesink sync=false";
    GstElement* pipeline = vktest::ParsePipeline(description.c_str());
    GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    GstElement* dut = gst_bin_get_by_name(GST_BIN(pipeline), "dut");
    std::atomic<int> taken{0}, arrived{0};
    auto releases = std::make_shared<Releases>();
    GstPad* sink = gst_element_get_static_pad(dut, "sink");
    gst_pad_add_probe(sink, GST_PAD_PROBE_TYPE_BUFFER, CountBuffer, &taken, nullptr);
    gst_object_unref(sink);
    GstPad* finished = gst_element_get_static_pad(dut, "src");
    gst_pad_add_probe(finished, GST_PAD_PROBE_TYPE_BUFFER, CountBuffer, &arrived, nullptr);
    gst_object_unref(finished);
    fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
    const gsize size = gsize(kWidth) * kHeight * 4;
    WrappedFrame::Push(src, releases, kFrames, size);
    const gint64 give_up = g_get_monotonic_time() + gint64(kTimeout / GST_USECOND);
    while (taken.load() < kFrames && g_get_monotonic_time() < give_up) g_usleep(1000);
    fail_unless_equals_int(taken.load(), kFrames);
    fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
    fail_unless(releases->all.load() == kFrames, "%s: %d of %d frames' memory still held after NULL", name,
                kFrames - releases->all.load(), kFrames);
    // Each frame the element finished read its input through an import (one it dropped at the stop
    // may not have).
    fail_unless(arrived.load() > 0 && releases->by_reaper.load() >= arrived.load(),
                "%s: %d frames' memory freed on the reaper's thread, %d frames finished", name,
                releases->by_reaper.load(), arrived.load());
    gst_object_unref(dut);
    gst_object_unref(src);
    gst_object_unref(pipeline);
    vktest::AssertNoValidationErrors(name);
  }
}
GST_END_TEST;

// An application that lets go of many frames at once (an appsink's samples held, then dropped
// together) gets every frame's memory back: at most a few wait for the reaper's thread at a time,
// the rest are freed where they go (hostimports.cpp).
GST_START_TEST(test_many_frames_let_go_of_at_once) {
  constexpr int kFrames = 48, kWidth = 64, kHeight = 48;
  GstElement* pipeline =
      vktest::ParsePipeline(("appsrc name=src is-live=true format=time caps=video/x-raw,format=RGBx,width=" +
                             std::to_string(kWidth) + ",height=" + std::to_string(kHeight) +
                             ",framerate=30/1 ! lumamax ! appsink name=out sync=false")
                                .c_str());
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* out = gst_bin_get_by_name(GST_BIN(pipeline), "out");
  // Every frame stays in the appsink's queue and nowhere else: no last sample, no preroll (live).
  g_object_set(out, "max-buffers", 0u, "enable-last-sample", FALSE, nullptr);
  auto releases = std::make_shared<Releases>();
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  const gsize size = gsize(kWidth) * kHeight * 4;
  WrappedFrame::Push(src, releases, kFrames, size);
  std::vector<GstSample*> samples;
  for (int i = 0; i < kFrames; ++i) {
    GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(out), kTimeout);
    fail_unless(sample != nullptr, "frame %d of %d never reached the appsink", i, kFrames);
    samples.push_back(sample);
  }
  fail_unless_equals_int(releases->all.load(), 0);
  for (GstSample* sample : samples) gst_sample_unref(sample);
  // The appsink keeps the sample object it handed out last (and its frame) until it goes.
  const gint64 give_up = g_get_monotonic_time() + gint64(kTimeout / GST_USECOND);
  while (releases->all.load() < kFrames - 1 && g_get_monotonic_time() < give_up) g_usleep(1000);
  fail_unless(releases->all.load() >= kFrames - 1, "%d of %d frames' memory not freed",
              kFrames - 1 - releases->all.load(), kFrames - 1);
  fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  gst_object_unref(out);
  gst_object_unref(src);
  gst_object_unref(pipeline);
  while (releases->all.load() < kFrames && g_get_monotonic_time() < give_up) g_usleep(1000);
  fail_unless(releases->all.load() == kFrames, "the appsink's last frame's memory not freed once it went");
  GST_INFO("%d of %d frames' memory freed on the reaper's thread", releases->by_reaper.load(), kFrames);
  vktest::AssertNoValidationErrors("many frames let go of at once");
}
GST_END_TEST;

namespace {

// Counts the hand-overs of imported memory to the reaper's thread (hostimports.cpp logs each).
struct HandOverLog {
  std::atomic<int> handed{0};
  static void Log(GstDebugCategory* category, GstDebugLevel, const gchar*, const gchar*, gint, GObject*,
                  GstDebugMessage* message, gpointer data) {
    if (g_strcmp0(gst_debug_category_get_name(category), "vkcompute") != 0) return;
    const char* text = gst_debug_message_get(message);
    if (text && strstr(text, "handed to the reaper")) static_cast<HandOverLog*>(data)->handed++;
  }
};

// Pushes `frames` buffers that `make(i)` returns through lumamax to a fakesink, to EOS and NULL.
void PushThroughLumamax(int frames, gsize width, gsize height, const std::function<GstBuffer*(int)>& make) {
  GstElement* pipeline = vktest::ParsePipeline(
      ("appsrc name=src format=time caps=video/x-raw,format=RGBx,width=" + std::to_string(width) +
       ",height=" + std::to_string(height) + ",framerate=30/1 ! lumamax ! fakesink sync=false")
          .c_str());
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  for (int i = 0; i < frames; ++i)
    fail_unless_equals_int(gst_app_src_push_buffer(GST_APP_SRC(src), make(i)), GST_FLOW_OK);
  gst_app_src_end_of_stream(GST_APP_SRC(src));
  vktest::ExpectEos(pipeline, kTimeout, "frames pushed through lumamax");
  fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  gst_object_unref(src);
  gst_object_unref(pipeline);
}

}  // namespace

// Frames that share their memory with a buffer the application keeps (shallow copies of it, as an
// application that sends one frame again makes, or videorate) leave that memory in use when they
// go: none of it waits for the reaper's thread, which would wait for a release that does not come,
// and it comes back when the application lets go of its buffer. Frames of their own memory are
// handed over (the same count, so the count is seen to work).
GST_START_TEST(test_shared_memory_stays_with_its_holder) {
  constexpr int kFrames = 8;
  constexpr gsize kWidth = 320, kHeight = 240, kSize = kWidth * kHeight * 4;
  HandOverLog log;
  gst_debug_set_threshold_for_name("vkcompute", GST_LEVEL_LOG);
  gst_debug_add_log_function(&HandOverLog::Log, &log, nullptr);
  auto releases = std::make_shared<Releases>();
  GstBuffer* kept = WrappedFrame::New(releases, kSize, 0);
  PushThroughLumamax(kFrames, kWidth, kHeight, [&](int i) {
    GstBuffer* copy = gst_buffer_copy(kept);  // shares `kept`'s memory
    GST_BUFFER_PTS(copy) = i * GST_SECOND / 30;
    return copy;
  });
  const int handed_shared = log.handed.load();
  const int released_while_kept = releases->all.load();
  gst_buffer_unref(kept);
  const int released_after = releases->all.load();
  PushThroughLumamax(kFrames, kWidth, kHeight,
                     [&](int i) { return WrappedFrame::New(releases, kSize, i * GST_SECOND / 30); });
  gst_debug_remove_log_function_by_data(&log);
  gst_debug_unset_threshold_for_name("vkcompute");
  fail_unless_equals_int(handed_shared, 0);
  fail_unless_equals_int(released_while_kept, 0);
  fail_unless_equals_int(released_after, 1);
  fail_unless(log.handed.load() > handed_shared,
              "no frame of its own memory was handed to the reaper (%d of %d released)",
              releases->all.load() - 1, kFrames);
  vktest::AssertNoValidationErrors("shared memory");
}
GST_END_TEST;

// An analysis element fed a segment that is not in time (an appsrc left in its default bytes
// format) posts its messages with the frame's timestamp and no stream or running time, where the
// conversions would fail an assertion (a GStreamer critical, which fails the test) for every frame.
GST_START_TEST(test_analysis_messages_without_a_time_segment) {
  constexpr int kFrames = 3;
  for (const char* name : {"lumamax", "histogram"}) {
    const std::string description =
        std::string("appsrc name=src caps=video/x-raw,format=RGBx,width=64,height=48 ! ") + name +
        " ! fakesink sync=false";
    GstElement* pipeline = vktest::ParsePipeline(description.c_str());
    GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
    for (int i = 0; i < kFrames; ++i) {
      GstBuffer* buffer = gst_buffer_new_and_alloc(64 * 48 * 4);
      gst_buffer_memset(buffer, 0, guint8(40 * i), 64 * 48 * 4);
      GST_BUFFER_PTS(buffer) = i * GST_SECOND / 30;
      fail_unless_equals_int(gst_app_src_push_buffer(GST_APP_SRC(src), buffer), GST_FLOW_OK);
    }
    gst_app_src_end_of_stream(GST_APP_SRC(src));
    GstBus* bus = gst_element_get_bus(pipeline);
    int posted = 0;
    while (GstMessage* message = gst_bus_timed_pop_filtered(
               bus, kTimeout, GstMessageType(GST_MESSAGE_ELEMENT | GST_MESSAGE_EOS | GST_MESSAGE_ERROR))) {
      const GstMessageType type = GST_MESSAGE_TYPE(message);
      fail_if(type == GST_MESSAGE_ERROR, "%s: %s", name, vktest::Describe(message).c_str());
      const GstStructure* s = gst_message_get_structure(message);
      if (type == GST_MESSAGE_ELEMENT && gst_structure_has_name(s, name)) {
        guint64 timestamp = 0, stream_time = 0, running_time = 0;
        fail_unless(gst_structure_get_uint64(s, "timestamp", &timestamp) &&
                    gst_structure_get_uint64(s, "stream-time", &stream_time) &&
                    gst_structure_get_uint64(s, "running-time", &running_time));
        fail_unless_equals_uint64(timestamp, guint64(posted) * GST_SECOND / 30);
        fail_unless_equals_uint64(stream_time, GST_CLOCK_TIME_NONE);
        fail_unless_equals_uint64(running_time, GST_CLOCK_TIME_NONE);
        ++posted;
      }
      gst_message_unref(message);
      if (type == GST_MESSAGE_EOS) break;
    }
    fail_unless(posted == kFrames, "%s: %d messages for %d frames", name, posted, kFrames);
    gst_object_unref(bus);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(src);
    gst_object_unref(pipeline);
  }
}
GST_END_TEST;

// A frame whose dispatch needs more workgroups in a direction than the device takes at once
// (maxComputeWorkGroupCount: 65 535 in X and Y on lavapipe) stops the stream with an error that
// says the frame is too large for the device, with no validation message; one row shorter, the
// frame goes through. The heights follow from device 0's limits and each element's largest grid:
// morph's row table (a one-row mask; other rectangles take tiles of rows) has a workgroup per row in
// X, lumamax's tiles (count > 1) and lut 4 rows per
// workgroup in Y, rgb2yuv 8, histogram's blocks (bins other than 256) 16. (lumamax with count = 1
// and histogram with 256 bins, on 1-byte pixels, take grids of a bounded number of workgroups,
// whatever the height.) A limit that no frame height reaches (NVIDIA's 2^31 - 1 in X) is printed,
// not tested.
GST_START_TEST(test_frames_beyond_one_dispatch) {
  struct Case {
    const char* format;
    int axis;  // of maxComputeWorkGroupCount
    int64_t rows_per_workgroup;
    std::string element;  // the element's name, then its properties
    std::string after;    // what follows the element in the pipeline
  };
  const Case cases[] = {
      {"GRAY8", 0, 1, "morph width=3 height=1", ""},
      {"GRAY8", 1, 4, "lumamax count=2", ""},
      {"RGBA", 1, 4, "lut location=" + vktest::TestDataDir() + "/lookup_amatorka.png", ""},
      {"RGBA", 1, 8, "rgb2yuv", " ! video/x-raw,format=I420"},
      {"GRAY8", 1, 16, "histogram bins=64", ""},
  };
  const auto devices = vktest::PhysicalDeviceProperties();
  fail_if(devices.empty(), "no Vulkan device");
  constexpr int64_t kTallestFrame = 1 << 24;
  for (const Case& c : cases) {
    // The first height refused.
    const int64_t refused = c.rows_per_workgroup * devices[0].limits.maxComputeWorkGroupCount[c.axis] + 1;
    const std::string name = c.element.substr(0, c.element.find(' '));
    if (refused > kTallestFrame) {
      std::printf("%s: %s's maxComputeWorkGroupCount[%d] (%u) is beyond any frame's height: not tested\n",
                  name.c_str(), devices[0].deviceName, c.axis,
                  devices[0].limits.maxComputeWorkGroupCount[c.axis]);
      continue;
    }
    for (const int64_t height : {refused - 1, refused}) {
      const std::string description =
          "videotestsrc num-buffers=1 ! video/x-raw,width=1,height=" + std::to_string(height) +
          ",format=" + c.format + " ! " + name + " device=0" + c.element.substr(name.size()) + c.after +
          " ! fakesink";
      GstElement* pipeline = vktest::ParsePipeline(description.c_str());
      gst_element_set_state(pipeline, GST_STATE_PLAYING);
      GstMessage* message = vktest::WaitForErrorOrEos(pipeline, kTimeout);
      fail_unless(message != nullptr, "%s: neither an error nor EOS", description.c_str());
      const std::string text = vktest::Describe(message);
      if (height < refused) {
        fail_unless(GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS, "%s: %s", description.c_str(),
                    text.c_str());
      } else {
        fail_unless(GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR &&
                        text.find("are too large for the Vulkan device") != std::string::npos &&
                        text.find("maxComputeWorkGroupCount") != std::string::npos,
                    "%s: expected the too-large error, got %s", description.c_str(), text.c_str());
      }
      gst_message_unref(message);
      fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
      gst_object_unref(pipeline);
      vktest::AssertNoValidationErrors(description);
    }
  }
}
GST_END_TEST;

static Suite* robustness_suite() {
  Suite* suite = suite_create("robustness");
  TCase* tcase = vktest::NewTCase("robustness", 600);
  tcase_add_test(tcase, test_slow_frame_stops_cleanly);
  tcase_add_test(tcase, test_dispose_while_playing);
  tcase_add_test(tcase, test_device_refused_while_playing);
  tcase_add_test(tcase, test_output_bytes_are_deterministic);
  tcase_add_test(tcase, test_buffer_per_plane);
  tcase_add_test(tcase, test_caps_while_starting);
  tcase_add_test(tcase, test_buffers_released_by_null);
  tcase_add_test(tcase, test_many_frames_let_go_of_at_once);
  tcase_add_test(tcase, test_shared_memory_stays_with_its_holder);
  tcase_add_test(tcase, test_analysis_messages_without_a_time_segment);
  tcase_add_test(tcase, test_frames_beyond_one_dispatch);
  suite_add_tcase(suite, tcase);
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(robustness_suite(), "robustness", __FILE__);
}
