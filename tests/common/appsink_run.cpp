#include "appsink_run.h"

#include <algorithm>
#include <utility>

#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "bus_wait.h"
#include "visible_bytes.h"
#include "vktest.h"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

namespace vktest {

namespace {
// How long a pull waits for the next frame: 60 s, or longer than the frame timeout the suite gives the
// plugin (GST_VKCOMPUTE_FRAME_TIMEOUT_MS, tests/meson.build), so that a frame that never completes ends
// as the plugin's error, not as the pull's. On GStreamer's Vulkan device lavapipe runs the GPU-assisted
// checks, and a chain of four elements' first frame, compiling their kernels instrumented with a cold
// shader cache and another test on the other core, took more than 60 s in a fresh Debian 13 root
// (test_gstvulkan, 2026-12-02), within the suite's frame timeout of 120 s.
GstClockTime PullTimeout() {
  const char* ms = g_getenv("GST_VKCOMPUTE_FRAME_TIMEOUT_MS");
  const GstClockTime frame_timeout = ms ? g_ascii_strtoull(ms, nullptr, 10) * GST_MSECOND : 0;
  return std::max<GstClockTime>(60 * GST_SECOND, frame_timeout + 30 * GST_SECOND);
}

std::string Text(const GstStructure* s) {
  gchar* text = gst_structure_to_string(s);
  std::string result = text;
  g_free(text);
  return result;
}

std::string Bytes(GstSample* sample) {
  GstVideoInfo info;
  fail_unless(gst_video_info_from_caps(&info, gst_sample_get_caps(sample)));
  return VisibleBytes(info, gst_sample_get_buffer(sample));
}
}  // namespace

AppsinkRun::~AppsinkRun() {
  for (GstSample* s : samples) gst_sample_unref(s);
  for (GstStructure* m : messages) gst_structure_free(m);
}

std::vector<const GstStructure*> AppsinkRun::named(const char* name) const {
  std::vector<const GstStructure*> list;
  for (const GstStructure* m : messages)
    if (gst_structure_has_name(m, name)) list.push_back(m);
  return list;
}

void RunToAppsink(const std::string& description, AppsinkRun& run) {
  GstElement* pipeline = ParsePipeline(description.c_str());
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "out");
  fail_unless(sink != nullptr, "%s: no appsink named out", description.c_str());
  if (run.before_play) run.before_play(pipeline);
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE, "%s",
              description.c_str());
  while (GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), PullTimeout()))
    run.samples.push_back(sample);
  fail_unless(gst_app_sink_is_eos(GST_APP_SINK(sink)), "%s: no EOS after %zu frames", description.c_str(),
              run.samples.size());
  GstBus* bus = gst_element_get_bus(pipeline);
  while (GstMessage* message = gst_bus_pop(bus)) {
    fail_unless(GST_MESSAGE_TYPE(message) != GST_MESSAGE_ERROR, "%s: %s", description.c_str(),
                Describe(message).c_str());
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ELEMENT)
      run.messages.push_back(gst_structure_copy(gst_message_get_structure(message)));
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_WARNING && !IsCpuDeviceWarning(message)) {
      GError* warning = nullptr;
      gst_message_parse_warning(message, &warning, nullptr);
      run.warnings.push_back(warning ? warning->message : Describe(message));
      g_clear_error(&warning);
    }
    gst_message_unref(message);
  }
  gst_object_unref(bus);
  if (GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), "e")) {
    for (auto [name, text] : {std::pair{"sink", &run.e_sink_caps}, std::pair{"src", &run.e_src_caps}}) {
      GstPad* pad = gst_element_get_static_pad(e, name);
      if (GstCaps* caps = pad ? gst_pad_get_current_caps(pad) : nullptr) {
        gchar* string = gst_caps_to_string(caps);
        *text = string;
        g_free(string);
        gst_caps_unref(caps);
      }
      if (pad) gst_object_unref(pad);
    }
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(e), "uploads"))
      g_object_get(e, "uploads", &run.e_uploads, "downloads", &run.e_downloads, nullptr);
    gst_object_unref(e);
  }
  if (run.at_end) run.at_end(pipeline);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  AssertNoValidationErrors(description);
}

void ExpectSameMessages(const AppsinkRun& got, const AppsinkRun& want, const std::string& what) {
  fail_unless(got.messages.size() == want.messages.size(), "%s: %zu messages, %zu in system memory",
              what.c_str(), got.messages.size(), want.messages.size());
  for (size_t i = 0; i < got.messages.size(); ++i)
    fail_unless(gst_structure_is_equal(got.messages[i], want.messages[i]),
                "%s: message %zu\n  %s\nin system memory\n  %s", what.c_str(), i,
                Text(got.messages[i]).c_str(), Text(want.messages[i]).c_str());
}

void ExpectSameFrames(const AppsinkRun& got, const AppsinkRun& want, const std::string& what) {
  fail_unless(got.samples.size() == want.samples.size() && !want.samples.empty(),
              "%s: %zu frames, %zu in system memory", what.c_str(), got.samples.size(), want.samples.size());
  for (size_t i = 0; i < got.samples.size(); ++i)
    fail_unless(Bytes(got.samples[i]) == Bytes(want.samples[i]), "%s: frame %zu differs", what.c_str(), i);
}

}  // namespace vktest
