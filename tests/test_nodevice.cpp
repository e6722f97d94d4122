// Without any Vulkan driver (meson points the loader at a driver manifest that does not exist)
// the element must fail to start with a resource error on the bus, within bounded time, and
// neither crash nor hang.
#include <gst/check/gstcheck.h>

#include <cstring>
#include <string>

#include "common/bus_wait.h"
#include "common/vktest.h"

namespace {

constexpr GstClockTime kTimeout = 20 * GST_SECOND;

// Case-insensitive search, so "vulkan" in any spelling counts.
bool Mentions(const gchar* text, const char* word) {
  if (text == nullptr) return false;
  gchar* lower = g_ascii_strdown(text, -1);
  gchar* needle = g_ascii_strdown(word, -1);
  const bool found = std::strstr(lower, needle) != nullptr;
  g_free(lower);
  g_free(needle);
  return found;
}

}  // namespace

GST_START_TEST(test_no_driver_is_a_resource_error) {
  fail_unless(vktest::PhysicalDeviceNames().empty(),
              "a Vulkan device is visible: VK_DRIVER_FILES/VK_ICD_FILENAMES were not applied");

  GstElement* pipeline = vktest::ParsePipeline("videotestsrc num-buffers=1 ! rgb2yuv ! fakesink");
  const GstStateChangeReturn ret = gst_element_set_state(pipeline, GST_STATE_PLAYING);
  fail_unless(ret != GST_STATE_CHANGE_SUCCESS,
              "going to PLAYING succeeded although there is no Vulkan driver");

  GstMessage* message = vktest::WaitForErrorOrEos(pipeline, kTimeout);
  fail_unless(message != nullptr, "no ERROR message within %" GST_TIME_FORMAT, GST_TIME_ARGS(kTimeout));
  fail_unless(GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR, "got %s instead of an error",
              GST_MESSAGE_TYPE_NAME(message));
  GError* error = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_error(message, &error, &debug);
  fail_unless(error->domain == GST_RESOURCE_ERROR, "error domain %s: %s", g_quark_to_string(error->domain),
              error->message);
  fail_unless(Mentions(error->message, "vulkan") || Mentions(debug, "vulkan"),
              "the error does not mention Vulkan: %s (%s)", error->message,
              debug != nullptr ? debug : "no debug text");
  g_error_free(error);
  g_free(debug);
  gst_message_unref(message);

  fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  gst_object_unref(pipeline);
}
GST_END_TEST;

// The element alone (no pipeline) fails its state change too, and can be disposed of.
GST_START_TEST(test_no_driver_element_state_change) {
  GstElement* element = gst_element_factory_make("rgb2yuv", nullptr);
  fail_unless(element != nullptr, "rgb2yuv is not registered (GST_PLUGIN_PATH?)");
  GstBus* bus = gst_bus_new();
  gst_element_set_bus(element, bus);
  fail_unless(gst_element_set_state(element, GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE,
              "rgb2yuv reached PAUSED without a Vulkan driver");
  GstMessage* message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  fail_unless(message != nullptr, "no ERROR message posted by the element");
  gst_message_unref(message);
  fail_unless(gst_element_set_state(element, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus(element, nullptr);
  gst_object_unref(bus);
  gst_object_unref(element);
}
GST_END_TEST;

static Suite* nodevice_suite() {
  Suite* suite = suite_create("nodevice");
  TCase* tcase = vktest::NewTCase("nodevice", 60);
  suite_add_tcase(suite, tcase);
  tcase_add_test(tcase, test_no_driver_is_a_resource_error);
  tcase_add_test(tcase, test_no_driver_element_state_change);
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(nodevice_suite(), "nodevice", __FILE__);
}
