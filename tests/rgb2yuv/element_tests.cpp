// The element as applications see it: registration, pad templates, device selection,
// failures to start and repeated state changes.
#include <atomic>
#include <set>
#include <string>

#include "common/bus_wait.h"
#include "common/caps_formats.h"
#include "common/vktest.h"
#include "formats.h"
#include "tcases.h"

namespace rgb2yuv_test {
namespace {

constexpr GstClockTime kMessageTimeout = 30 * GST_SECOND;

void ExpectTemplateFormats(GstElementFactory* factory, GstPadDirection direction,
                           const std::set<std::string>& expected) {
  for (const GList* l = gst_element_factory_get_static_pad_templates(factory); l; l = l->next) {
    auto* templ = static_cast<GstStaticPadTemplate*>(l->data);
    if (templ->direction != direction) continue;
    GstCaps* caps = gst_static_pad_template_get_caps(templ);
    const std::set<std::string> listed = vktest::FormatsOf(caps);
    gst_caps_unref(caps);
    fail_unless(listed == expected, "%s template lists formats {%s}, expected {%s}", templ->name_template,
                vktest::JoinNames(listed).c_str(), vktest::JoinNames(expected).c_str());
    return;
  }
  fail("rgb2yuv has no %s pad template", direction == GST_PAD_SINK ? "sink" : "src");
}

// Runs `pipeline` to EOS (or error) and returns the final message's description ("eos").
std::string RunToEnd(GstElement* pipeline) {
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstMessage* message = vktest::WaitForErrorOrEos(pipeline, kMessageTimeout);
  std::string result = message == nullptr ? "timeout" : vktest::Describe(message);
  if (message != nullptr) gst_message_unref(message);
  return result;
}

std::string DeviceName(GstElement* element) {
  gchar* name = nullptr;
  g_object_get(element, "device-name", &name, nullptr);
  std::string result = name != nullptr ? name : "";
  g_free(name);
  return result;
}

}  // namespace

GST_START_TEST(test_vulkan_device_present) {
  vktest::RequirePhysicalDevice();
}
GST_END_TEST;

// What gst-inspect-1.0 shows: the registered factory's templates list exactly the specified
// formats.
GST_START_TEST(test_pad_templates) {
  GstElementFactory* factory = gst_element_factory_find("rgb2yuv");
  fail_unless(factory != nullptr, "rgb2yuv is not registered (GST_PLUGIN_PATH?)");
  std::set<std::string> inputs = vktest::NamesOf(kInputFormats), outputs = vktest::NamesOf(kOutputFormats);
  inputs.merge(vktest::NamesOf(kDeepInputFormats));
  outputs.merge(vktest::NamesOf(kDeepOutputFormats));
  ExpectTemplateFormats(factory, GST_PAD_SINK, inputs);
  ExpectTemplateFormats(factory, GST_PAD_SRC, outputs);
  gst_object_unref(factory);
}
GST_END_TEST;

GST_START_TEST(test_properties) {
  GstElement* element = gst_element_factory_make("rgb2yuv", nullptr);
  fail_unless(element != nullptr);
  GParamSpec* device = g_object_class_find_property(G_OBJECT_GET_CLASS(element), "device");
  fail_unless(device != nullptr && G_PARAM_SPEC_VALUE_TYPE(device) == G_TYPE_INT,
              "no gint 'device' property");
  fail_unless((device->flags & G_PARAM_WRITABLE) != 0);
  fail_unless_equals_int(G_PARAM_SPEC_INT(device)->default_value, -1);
  GParamSpec* name = g_object_class_find_property(G_OBJECT_GET_CLASS(element), "device-name");
  fail_unless(name != nullptr && G_PARAM_SPEC_VALUE_TYPE(name) == G_TYPE_STRING,
              "no string 'device-name' property");
  fail_unless((name->flags & G_PARAM_READABLE) != 0 && (name->flags & G_PARAM_WRITABLE) == 0,
              "'device-name' must be read-only");
  gst_object_unref(element);
}
GST_END_TEST;

// Once started, the element names the device it uses: the default one, or the one chosen by
// index (in the loader's enumeration order).
GST_START_TEST(test_device_name) {
  vktest::RequirePhysicalDevice();
  const std::vector<std::string> devices = vktest::PhysicalDeviceNames();
  for (int index : {-1, 0, static_cast<int>(devices.size()) - 1}) {
    GstElement* pipeline = vktest::ParsePipeline(
        "videotestsrc num-buffers=2 ! video/x-raw,format=RGBx,width=16,height=8 ! "
        "rgb2yuv name=convert ! video/x-raw,format=I420 ! fakesink");
    GstElement* convert = gst_bin_get_by_name(GST_BIN(pipeline), "convert");
    g_object_set(convert, "device", index, nullptr);
    const std::string result = RunToEnd(pipeline);
    fail_unless(result == "eos", "device=%d: pipeline ended with %s", index, result.c_str());
    const std::string name = DeviceName(convert);
    fail_if(name.empty(), "device=%d: device-name is empty after start", index);
    if (index >= 0) {
      fail_unless(name == devices[index], "device=%d: device-name '%s', the loader names '%s'", index,
                  name.c_str(), devices[index].c_str());
    } else {
      bool known = false;
      for (const std::string& device : devices) known |= device == name;
      fail_unless(known, "device-name '%s' is not a device of this machine", name.c_str());
    }
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(convert);
    gst_object_unref(pipeline);
  }
}
GST_END_TEST;

// gpu-time (from the base class) reports the mean GPU time of one frame in 64 once 8 of them have
// completed (frames 0, 64, ..., 448): still 0 after 440 frames, positive and sane after 449.
GST_START_TEST(test_gpu_time) {
  vktest::RequirePhysicalDevice();
  for (int frames : {440, 449}) {
    GstElement* pipeline = vktest::ParsePipeline(
        ("videotestsrc num-buffers=" + std::to_string(frames) +
         " ! video/x-raw,format=RGBA,width=64,height=32 ! rgb2yuv name=convert ! video/x-raw,format=NV12 ! "
         "fakesink")
            .c_str());
    GstElement* convert = gst_bin_get_by_name(GST_BIN(pipeline), "convert");
    const std::string result = RunToEnd(pipeline);
    fail_unless(result == "eos", "%d frames: pipeline ended with %s", frames, result.c_str());
    gdouble gpu_us = -1;
    g_object_get(convert, "gpu-time", &gpu_us, nullptr);
    if (frames < 449)
      fail_unless(gpu_us == 0, "gpu-time %.3f us after %d frames, before its first window", gpu_us, frames);
    else
      fail_unless(gpu_us > 0 && gpu_us < 1e6, "gpu-time %.3f us after %d frames", gpu_us, frames);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(convert);
    gst_object_unref(pipeline);
  }
}
GST_END_TEST;

// A device index that does not exist must fail the state change with a resource error on the
// bus, not crash or hang, and the pipeline must still shut down.
GST_START_TEST(test_invalid_device) {
  GstElement* pipeline = vktest::ParsePipeline(
      "videotestsrc num-buffers=1 ! video/x-raw,format=RGBA ! rgb2yuv device=1000 ! fakesink");
  const GstStateChangeReturn ret = gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstStateChangeReturn final_ret = ret;
  if (ret == GST_STATE_CHANGE_ASYNC) {
    final_ret = gst_element_get_state(pipeline, nullptr, nullptr, kMessageTimeout);
  }
  fail_unless(final_ret == GST_STATE_CHANGE_FAILURE, "state change with device=1000 returned %s",
              gst_element_state_change_return_get_name(final_ret));
  GstMessage* message = vktest::WaitForErrorOrEos(pipeline, kMessageTimeout);
  fail_unless(message != nullptr, "no ERROR message with device=1000");
  fail_unless(GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR, "got %s instead of an error",
              GST_MESSAGE_TYPE_NAME(message));
  GError* error = nullptr;
  gst_message_parse_error(message, &error, nullptr);
  fail_unless(error->domain == GST_RESOURCE_ERROR, "error domain is %s: %s", g_quark_to_string(error->domain),
              error->message);
  g_error_free(error);
  gst_message_unref(message);
  fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  gst_object_unref(pipeline);
}
GST_END_TEST;

// Interlaced RGB into a format with vertically subsampled chroma is refused with an error that
// says why (a chroma row would mix the two fields); into Y444 (no vertical subsampling) it converts.
GST_START_TEST(test_interlaced_input) {
  const std::string source =
      "videotestsrc num-buffers=2 ! video/x-raw,format=RGBA,width=16,height=8,"
      "interlace-mode=interleaved ! rgb2yuv ! video/x-raw,format=";
  for (const char* format : {"I420", "NV12"}) {
    GstElement* pipeline = vktest::ParsePipeline((source + format + " ! fakesink").c_str());
    const std::string end = RunToEnd(pipeline);
    fail_unless(end.find("interlaced frames (interlace-mode=interleaved) cannot become") != std::string::npos,
                "interlaced RGBA to %s: %s", format, end.c_str());
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
  }
  GstElement* pipeline = vktest::ParsePipeline((source + "Y444 ! fakesink").c_str());
  const std::string end = RunToEnd(pipeline);
  fail_unless(end == "eos", "interlaced RGBA to Y444: %s", end.c_str());
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}
GST_END_TEST;

// PLAYING <-> NULL on the same pipeline: every other round runs to EOS, the others are torn
// down while buffers are flowing (the live source paces the 5 buffers over ~170 ms, so the
// teardown after the first one really happens mid-stream).
GST_START_TEST(test_state_loop) {
  GstElement* pipeline = vktest::ParsePipeline(
      "videotestsrc is-live=true num-buffers=5 ! video/x-raw,format=BGRA,width=64,height=48 ! "
      "rgb2yuv ! video/x-raw,format=NV12 ! fakesink name=sink");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  GstPad* sinkpad = gst_element_get_static_pad(sink, "sink");
  std::atomic<int> buffers{0};
  gst_pad_add_probe(
      sinkpad, GST_PAD_PROBE_TYPE_BUFFER,
      [](GstPad*, GstPadProbeInfo*, gpointer data) {
        ++*static_cast<std::atomic<int>*>(data);
        return GST_PAD_PROBE_OK;
      },
      &buffers, nullptr);

  for (int round = 0; round < 20; ++round) {
    buffers = 0;
    fail_if(gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE,
            "round %d: cannot go to PLAYING", round);
    if (round % 2 == 0) {
      GstMessage* message = vktest::WaitForErrorOrEos(pipeline, kMessageTimeout);
      fail_unless(message != nullptr, "round %d: no EOS", round);
      const std::string result = vktest::Describe(message);
      gst_message_unref(message);
      fail_unless(result == "eos", "round %d: %s", round, result.c_str());
      fail_unless_equals_int(buffers.load(), 5);
    } else {
      // Tear down as soon as data flows (or after 5 s, which still exercises a running start).
      for (int wait = 0; wait < 500 && buffers.load() == 0; ++wait) g_usleep(10000);
    }
    // Going to NULL flushes the bus, so look for errors of the round before.
    GstBus* bus = gst_element_get_bus(pipeline);
    GstMessage* error = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
    gst_object_unref(bus);
    fail_unless(error == nullptr, "round %d: %s", round,
                error != nullptr ? vktest::Describe(error).c_str() : "");
    fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS,
                "round %d: cannot go back to NULL", round);
    vktest::AssertNoValidationErrors(std::string("round ") + std::to_string(round) +
                                     (round % 2 == 0 ? " (ran to EOS)" : " (stopped while running)"));
  }
  gst_object_unref(sinkpad);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
}
GST_END_TEST;

TCase* ElementTCase() {
  TCase* tcase = vktest::NewTCase("element", 120);
  tcase_add_test(tcase, test_vulkan_device_present);
  tcase_add_test(tcase, test_pad_templates);
  tcase_add_test(tcase, test_properties);
  tcase_add_test(tcase, test_device_name);
  tcase_add_test(tcase, test_gpu_time);
  tcase_add_test(tcase, test_invalid_device);
  tcase_add_test(tcase, test_state_loop);
  tcase_add_test(tcase, test_interlaced_input);
  return tcase;
}

}  // namespace rgb2yuv_test
