// Our elements among GStreamer's Vulkan elements share one GstVulkanDevice through GStreamer's
// contexts (gst/gstvk/elementcontext.hpp): from 1.24 the device an element of ours makes when a
// Vulkan element of GStreamer's is near (through a queue too) is the one those elements take, with
// the extensions ours need, and the one it runs on (gst/base/deviceshare.hpp); on 1.22, where no device of
// GStreamer's can be shared, ours makes and answers none and the stock elements keep their own; a device the
// application sets on an element of ours is the one it answers with and the stock elements take, on both; a
// pipeline with no Vulkan element of GStreamer's near ours sees no instance made and no Vulkan context
// message; and once the pipeline is gone, nothing holds the shared device any more.
#include <string>

#include "gstvk/library.hpp"

#include "common/bus_wait.h"
#include "common/gstvk_library.h"
#include "common/runtime_test.h"

namespace {

using gstvk_test::GstMinor;
using gstvk_test::Library;
using vkc::gstvk::GstVulkanLibrary;

constexpr const char* kDeviceContext = "gst.vulkan.device";

// The device that a CONTEXT query for "gst.vulkan.device" sent to `element`'s pad `pad` gives (a new
// reference), or null when nothing answers.
GstVulkanDevice* DeviceAnswered(GstElement* pipeline, const char* element, const char* pad) {
  GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), element);
  fail_unless(e != nullptr, "no element %s", element);
  GstPad* p = gst_element_get_static_pad(e, pad);
  GstQuery* query = gst_query_new_context(kDeviceContext);
  GstVulkanDevice* device = nullptr;
  if (gst_pad_query(p, query)) {
    GstContext* context = nullptr;
    gst_query_parse_context(query, &context);
    if (context) Library().context_get_vulkan_device(context, &device);
  }
  gst_query_unref(query);
  gst_object_unref(p);
  gst_object_unref(e);
  return device;
}

void SetStateAndWait(GstElement* pipeline, GstState state, const char* what) {
  gst_element_set_state(pipeline, state);
  GstState now = GST_STATE_VOID_PENDING;
  fail_unless(
      gst_element_get_state(pipeline, &now, nullptr, gstvk_test::kFrameWait) == GST_STATE_CHANGE_SUCCESS &&
          now == state,
      "%s did not reach %s", what, gst_element_state_get_name(state));
}

}  // namespace

// vulkanupload ! vulkandownload ! [queue !] lumamax to PAUSED, three pipelines in turn: from 1.24 the
// device that lumamax answers on its sink pad is the one vulkandownload answers on its source pad,
// made by lumamax (with VK_EXT_external_memory_host, which GStreamer never enables itself); on 1.22
// lumamax answers none. Once each pipeline is gone, so is its device. (A new pipeline each time:
// 1.22's vulkanupload started again records its old device's buffers on the new one.) One frame
// only: with a queue, a source still running uploads on while PAUSED, and GStreamer 1.26's
// vulkanupload frees an image and its timeline semaphore at NULL while its last copy is queued
// (gstvkimagememory.c destroys them without a wait): lavapipe's queue thread then signals a freed
// semaphore, which hung the process in vkDeviceWaitIdle (a CI run; 3 in 110 runs with meson's
// MALLOC_PERTURB_ at 3 or 131) or crashed it or failed validation (16 in 672 with random ones).
GST_START_TEST(test_shared_device_made_by_ours) {
  vktest::RequirePhysicalDevice();
  const bool shares = GstMinor() >= 24;
  for (const char* between : {"", "queue ! ", "queue ! "}) {
    const std::string description =
        std::string(
            "videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=64,height=48 ! vulkanupload ! "
            "vulkandownload "
            "name=down ! ") +
        between + "lumamax name=e ! fakesink";
    GstElement* pipeline = vktest::ParsePipeline(description.c_str());
    SetStateAndWait(pipeline, GST_STATE_PAUSED, description.c_str());
    GstVulkanDevice* ours = DeviceAnswered(pipeline, "e", "sink");
    GstVulkanDevice* stock = DeviceAnswered(pipeline, "down", "src");
    fail_unless(stock != nullptr, "%s: vulkandownload answers no device", description.c_str());
    gint gone = 0;
    g_object_weak_ref(G_OBJECT(stock), gstvk_test::Gone, &gone);
    const void* runs_on = gstvk_test::RunsOn(pipeline, "e");
    if (shares) {
      fail_unless(ours == stock, "%s: lumamax answers device %p, vulkandownload %p", description.c_str(),
                  ours, stock);
      fail_unless(runs_on == stock, "%s: lumamax runs on GStreamer's device %p, not vulkandownload's %p",
                  description.c_str(), runs_on, stock);
      fail_unless(Library().device_is_extension_enabled(stock, VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME),
                  "%s: the shared device was not made by lumamax (no %s)", description.c_str(),
                  VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
    } else {
      fail_unless(ours == nullptr, "%s: lumamax answers a device on GStreamer 1.%u", description.c_str(),
                  GstMinor());
      fail_unless(runs_on == nullptr, "%s: lumamax runs on GStreamer's device on 1.%u", description.c_str(),
                  GstMinor());
    }
    if (ours) gst_object_unref(ours);
    gst_object_unref(stock);
    SetStateAndWait(pipeline, GST_STATE_NULL, description.c_str());
    gst_object_unref(pipeline);
    fail_unless(gstvk_test::WaitGone(&gone, description.c_str()),
                "%s: its device is still held after the pipeline went", description.c_str());
  }
}
GST_END_TEST;

// A device the application sets on lumamax (a "gst.vulkan.device" context) is the one lumamax
// answers with and vulkandownload, started after it, takes: on every release. From 1.24 lumamax runs
// on it (its gst-vulkan-device property).
GST_START_TEST(test_application_device) {
  vktest::RequirePhysicalDevice();
  GstVulkanDevice* device = gstvk_test::ApplicationDevice();
  const char* description =
      "videotestsrc ! video/x-raw,format=RGBA,width=64,height=48 ! vulkanupload ! vulkandownload name=down ! "
      "lumamax name=e ! fakesink";
  GstElement* pipeline = vktest::ParsePipeline(description);
  GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), "e");
  gstvk_test::SetApplicationDevice(e, device);
  gst_object_unref(e);
  SetStateAndWait(pipeline, GST_STATE_PAUSED, description);
  GstVulkanDevice* ours = DeviceAnswered(pipeline, "e", "sink");
  GstVulkanDevice* stock = DeviceAnswered(pipeline, "down", "src");
  fail_unless(ours == device, "lumamax answers device %p, the application set %p", ours, device);
  fail_unless(stock == device, "vulkandownload answers device %p, the application set %p on lumamax", stock,
              device);
  const void* runs_on = gstvk_test::RunsOn(pipeline, "e");
  fail_unless(runs_on == (GstMinor() >= 24 ? static_cast<void*>(device) : nullptr),
              "lumamax runs on GStreamer's device %p on 1.%u; the application set %p", runs_on, GstMinor(),
              device);
  gst_object_unref(ours);
  gst_object_unref(stock);
  gint gone = 0;
  g_object_weak_ref(G_OBJECT(device), gstvk_test::Gone, &gone);
  SetStateAndWait(pipeline, GST_STATE_NULL, description);
  gst_object_unref(pipeline);
  gst_object_unref(device);
  fail_unless(gstvk_test::WaitGone(&gone, "the application's device"),
              "the application's device is still held after the pipeline went");
}
GST_END_TEST;

// With no Vulkan element of GStreamer's near it, lumamax makes no instance and posts no Vulkan
// context message.
GST_START_TEST(test_no_vulkan_element_no_context) {
  vktest::RequirePhysicalDevice();
  GstElement* pipeline = vktest::ParsePipeline(
      "videotestsrc num-buffers=3 ! video/x-raw,format=RGBA,width=64,height=48 ! queue ! "
      "lumamax ! fakesink");
  GstBus* bus = gst_element_get_bus(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  for (;;) {
    GstMessage* message =
        gst_bus_timed_pop_filtered(bus, gstvk_test::kFrameWait,
                                   GstMessageType(GST_MESSAGE_NEED_CONTEXT | GST_MESSAGE_HAVE_CONTEXT |
                                                  GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    fail_unless(message != nullptr, "no EOS");
    const GstMessageType type = GST_MESSAGE_TYPE(message);
    std::string context_type;
    if (type == GST_MESSAGE_NEED_CONTEXT) {
      const gchar* name = nullptr;
      gst_message_parse_context_type(message, &name);
      context_type = name ? name : "";
    } else if (type == GST_MESSAGE_HAVE_CONTEXT) {
      GstContext* context = nullptr;
      gst_message_parse_have_context(message, &context);
      context_type = gst_context_get_context_type(context);
      gst_context_unref(context);
    }
    const std::string text = vktest::Describe(message);
    gst_message_unref(message);
    fail_if(type == GST_MESSAGE_ERROR, "%s", text.c_str());
    fail_if(context_type.rfind("gst.vulkan.", 0) == 0, "a Vulkan context message: %s", text.c_str());
    if (type == GST_MESSAGE_EOS) break;
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}
GST_END_TEST;

namespace {

Suite* gstvk_context_suite() {
  Suite* suite = suite_create("gstvk_context");
  TCase* context = vktest::NewTCase("context", 120);
  suite_add_tcase(suite, context);
  tcase_add_test(context, test_shared_device_made_by_ours);
  tcase_add_test(context, test_application_device);
  tcase_add_test(context, test_no_vulkan_element_no_context);
  return suite;
}

}  // namespace

int main(int argc, char** argv) {
  return vktest::RunRuntimeSuite(&argc, &argv, gstvk_context_suite(), "gstvk_context", __FILE__);
}
