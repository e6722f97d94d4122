// The warning a user sees when the automatic device choice lands on a CPU implementation of Vulkan
// (Mesa's lavapipe). main() gives the Vulkan loader lavapipe alone, so the automatic choice lands
// there on any machine. For every element: each start (READY -> PAUSED) through the automatic
// choice posts exactly one RESOURCE NOT_FOUND warning that names the device, says it is a CPU
// implementation and points to the `device` property and GST_VKCOMPUTE_DEVICE; a caps change
// while playing posts none; a device chosen by index (the property or GST_VKCOMPUTE_DEVICE) posts
// no warning at all.
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <string>
#include <vector>

#include "common/bus_wait.h"
#include "common/vktest.h"

namespace {

struct ElementCase {
  const char* factory;
  const char* in_format;
  const char* out_format;  // the src pad's format; null: the same as the input
};

// Every element of the plugin, each with a format it takes.
const ElementCase kElements[] = {
    {"rgb2yuv", "RGBA", "NV12"}, {"lumamax", "RGBA", nullptr}, {"histogram", "NV12", nullptr},
    {"morph", "GRAY8", nullptr}, {"lut", "RGBx", nullptr},
};

GstElement* NewElement(const ElementCase& element_case) {
  GstElement* element = gst_element_factory_make(element_case.factory, nullptr);
  fail_unless(element != nullptr, "%s is not registered (GST_PLUGIN_PATH?)", element_case.factory);
  if (g_str_equal(element_case.factory, "lut")) {
    const std::string table = std::string(LUT_TEST_DATA_DIR) + "/lookup_amatorka.png";
    g_object_set(element, "location", table.c_str(), nullptr);
  }
  return element;
}

// The warnings on `bus` since the last call: how many are the CPU device's, whose texts are kept in
// `texts` ("message | debug"). Any other warning, or an error, fails the test.
int TakeCpuWarnings(GstBus* bus, const char* factory, std::vector<std::string>* texts = nullptr) {
  int count = 0;
  while (GstMessage* message = gst_bus_pop_filtered(
             bus, static_cast<GstMessageType>(GST_MESSAGE_WARNING | GST_MESSAGE_ERROR))) {
    fail_unless(GST_MESSAGE_TYPE(message) == GST_MESSAGE_WARNING, "%s posted an error: %s", factory,
                vktest::Describe(message).c_str());
    GError* error = nullptr;
    gchar* debug = nullptr;
    gst_message_parse_warning(message, &error, &debug);
    const std::string text = std::string(error->message) + " | " + (debug != nullptr ? debug : "");
    const bool cpu = vktest::IsCpuDeviceWarning(message);
    g_error_free(error);
    g_free(debug);
    gst_message_unref(message);
    fail_unless(cpu, "%s posted another warning: %s", factory, text.c_str());
    ++count;
    if (texts != nullptr) texts->push_back(text);
  }
  return count;
}

// The warning says what the device is, what that means and where to choose another.
void CheckWarningText(const std::string& text, const std::string& device_name, const char* factory) {
  for (const std::string& part :
       {"The Vulkan device chosen automatically, " + device_name + ", is a CPU implementation of Vulkan",
        std::string("frames are processed on the CPU and will be slow"),
        std::string("the device property (device=N)"), std::string("GST_VKCOMPUTE_DEVICE=N"),
        std::string("Vulkan device 0. The Vulkan loader lists 1 device(s), none of them a GPU")})
    fail_unless(text.find(part) != std::string::npos, "%s's warning\n  %s\ndoes not say\n  %s", factory,
                text.c_str(), part.c_str());
}

std::string DeviceName(GstElement* element) {
  gchar* name = nullptr;
  g_object_get(element, "device-name", &name, nullptr);
  const std::string text = name != nullptr ? name : "";
  g_free(name);
  return text;
}

std::string Caps(const char* format, int width, int height) {
  return std::string("video/x-raw,format=") + format + ",width=" + std::to_string(width) +
         ",height=" + std::to_string(height) + ",framerate=30/1";
}

// Pushes one frame of the case's input format at `width` x `height`, under new caps.
void PushFrame(GstHarness* harness, const ElementCase& element_case, int width, int height) {
  const std::string caps = Caps(element_case.in_format, width, height);
  gst_harness_set_src_caps_str(harness, caps.c_str());
  GstVideoInfo info;
  GstCaps* parsed = gst_caps_from_string(caps.c_str());
  fail_unless(gst_video_info_from_caps(&info, parsed));
  gst_caps_unref(parsed);
  GstBuffer* buffer = gst_harness_create_buffer(harness, info.size);
  gst_buffer_memset(buffer, 0, 0x80, info.size);
  fail_unless_equals_int(gst_harness_push(harness, buffer), GST_FLOW_OK);
}

// Starts with the automatic choice: one warning per start, none for a caps change while playing.
GST_START_TEST(test_automatic_choice_warns_once_per_start) {
  for (const ElementCase& element_case : kElements) {
    const char* factory = element_case.factory;
    GstElement* element = NewElement(element_case);
    GstBus* bus = gst_bus_new();
    gst_element_set_bus(element, bus);
    GstHarness* harness = gst_harness_new_with_element(element, "sink", "src");
    if (element_case.out_format != nullptr) {
      const std::string sink_caps = std::string("video/x-raw,format=") + element_case.out_format;
      gst_harness_set_sink_caps_str(harness, sink_caps.c_str());
    }
    gst_harness_play(harness);

    std::vector<std::string> texts;
    fail_unless_equals_int(TakeCpuWarnings(bus, factory, &texts), 1);
    CheckWarningText(texts[0], DeviceName(element), factory);

    // Two caps in one stream: no further warning.
    PushFrame(harness, element_case, 16, 8);
    PushFrame(harness, element_case, 33, 17);
    fail_unless(gst_harness_push_event(harness, gst_event_new_eos()));  // the last frame leaves
    for (int frame = 0; frame < 2; ++frame) {
      GstBuffer* out = gst_harness_pull(harness);
      fail_unless(out != nullptr, "%s: frame %d did not come out", factory, frame);
      gst_buffer_unref(out);
    }
    fail_unless_equals_int(TakeCpuWarnings(bus, factory), 0);

    // A second start warns again, once.
    fail_unless(gst_element_set_state(element, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int(TakeCpuWarnings(bus, factory), 0);
    fail_unless(gst_element_set_state(element, GST_STATE_PLAYING) == GST_STATE_CHANGE_SUCCESS);
    texts.clear();
    fail_unless_equals_int(TakeCpuWarnings(bus, factory, &texts), 1);
    CheckWarningText(texts[0], DeviceName(element), factory);

    gst_harness_teardown(harness);
    gst_element_set_bus(element, nullptr);
    gst_object_unref(bus);
    gst_object_unref(element);
  }
}
GST_END_TEST;

// The number of CPU device warnings one start of each element posts, with `device` set to
// `index` (-1: not set).
void ExpectWarningsAtStart(int index, int expected, const char* how) {
  for (const ElementCase& element_case : kElements) {
    GstElement* element = NewElement(element_case);
    if (index >= 0) g_object_set(element, "device", index, nullptr);
    GstBus* bus = gst_bus_new();
    gst_element_set_bus(element, bus);
    fail_unless(gst_element_set_state(element, GST_STATE_PAUSED) == GST_STATE_CHANGE_SUCCESS,
                "%s (%s) did not start", element_case.factory, how);
    fail_unless(DeviceName(element).rfind("llvmpipe", 0) == 0, "%s runs on %s", element_case.factory,
                DeviceName(element).c_str());
    const int warnings = TakeCpuWarnings(bus, element_case.factory);
    fail_unless(warnings == expected, "%s (%s): %d CPU device warnings, expected %d", element_case.factory,
                how, warnings, expected);
    fail_unless(gst_element_set_state(element, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
    gst_element_set_bus(element, nullptr);
    gst_object_unref(bus);
    gst_object_unref(element);
  }
}

// A CPU device the user named is theirs to choose: logged, not warned of.
GST_START_TEST(test_explicit_choice_does_not_warn) {
  ExpectWarningsAtStart(0, 0, "device=0");
  g_setenv("GST_VKCOMPUTE_DEVICE", "0", TRUE);
  ExpectWarningsAtStart(-1, 0, "GST_VKCOMPUTE_DEVICE=0");
  // -1 there is the automatic choice.
  g_setenv("GST_VKCOMPUTE_DEVICE", "-1", TRUE);
  ExpectWarningsAtStart(-1, 1, "GST_VKCOMPUTE_DEVICE=-1");
  g_unsetenv("GST_VKCOMPUTE_DEVICE");
}
GST_END_TEST;

Suite* cpu_device_suite() {
  Suite* suite = suite_create("cpu_device");
  TCase* tcase = vktest::NewTCase("cpu_device", 300);
  suite_add_tcase(suite, tcase);
  tcase_add_test(tcase, test_automatic_choice_warns_once_per_start);
  tcase_add_test(tcase, test_explicit_choice_does_not_warn);
  return suite;
}

}  // namespace

int main(int argc, char** argv) {
  // Lavapipe alone, whatever else the machine has, and no device forced by the environment.
  const std::string lavapipe = vktest::LavapipeManifest();
  if (lavapipe.empty()) {
    g_printerr("Mesa's lavapipe (mesa-vulkan-drivers) is not installed: this test needs it\n");
    return 1;
  }
  g_setenv("VK_DRIVER_FILES", lavapipe.c_str(), TRUE);
  g_setenv("VK_ICD_FILENAMES", lavapipe.c_str(), TRUE);
  g_unsetenv("GST_VKCOMPUTE_DEVICE");
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(cpu_device_suite(), "cpu_device", __FILE__);
}
