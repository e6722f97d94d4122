// Frames of GStreamer's Vulkan elements that our elements cannot take the fast way, and state
// changes on GStreamer's device: lavapipe is listed twice (two devices), so frames can come from
// another GPU than the element's. Such frames still give the messages and frames of system memory,
// through host memory, with one warning naming both devices; an image that cannot be copied stops the
// stream with an error naming it, the device and the usage it lacks; flushes, size changes and
// PAUSED<->PLAYING cycles on the shared device, and a frame timeout, end in frames or in one error,
// never a crash or a hang (the bus waits are bounds against a hang, not timings).
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include <string>
#include <vector>

#include "common/appsink_run.h"
#include "common/bus_wait.h"
#include "common/gstvk_library.h"

namespace {

using gstvk_test::GstMinor;
using gstvk_test::Library;

constexpr GstClockTime kBound = 30 * GST_SECOND;  // against a hang only

std::string Source(const char* format, int width, int height, int frames = 3) {
  return "videotestsrc pattern=snow num-buffers=" + std::to_string(frames) +
         " ! video/x-raw,format=" + format + ",width=" + std::to_string(width) +
         ",height=" + std::to_string(height) + " ! ";
}

// The warnings of a run that say a device of GStreamer's is not shared.
std::vector<std::string> NotShared(const vktest::AppsinkRun& run) {
  std::vector<std::string> found;
  for (const std::string& warning : run.warnings)
    if (warning.find("is not shared") != std::string::npos) found.push_back(warning);
  return found;
}

bool Says(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Frames that vulkanupload makes on the application's device on the second GPU (physical device 1),
// into an element forced onto the first (device=0): they cannot be read on the element's device, so
// they cross through host memory (an upload per frame), the element posts one warning naming both
// devices, and its messages and frames are those of system memory. An analysis and a filter.
GST_START_TEST(test_frames_of_another_gpu) {
  fail_unless(vktest::PhysicalDeviceNames().size() == 2, "lavapipe is not listed twice: %zu devices",
              vktest::PhysicalDeviceNames().size());
  for (const char* element : {"lumamax", "morph"}) {
    const std::string what = std::string(element) + " device=0 after vulkanupload on device 1";
    GstVulkanDevice* device = gstvk_test::ApplicationDevice(1);
    vktest::AppsinkRun crossing, system;
    crossing.before_play = [device](GstElement* pipeline) {
      gstvk_test::SetApplicationDevice(pipeline, device);
    };
    vktest::RunToAppsink(Source("RGBA", 64, 48) + "vulkanupload ! video/x-raw(memory:VulkanImage) ! " +
                             element + " name=e device=0 ! vulkandownload ! appsink name=out",
                         crossing);
    vktest::RunToAppsink(Source("RGBA", 64, 48) + element + " name=e device=0 ! appsink name=out", system);
    vktest::ExpectSameMessages(crossing, system, what);
    vktest::ExpectSameFrames(crossing, system, what);
    fail_unless(crossing.e_uploads == crossing.samples.size(),
                "%s: %" G_GUINT64_FORMAT " uploads for %zu frames", what.c_str(), crossing.e_uploads,
                crossing.samples.size());
    const std::vector<std::string> warnings = NotShared(crossing);
    const char* reason = GstMinor() >= 24 ? "names device 0, and GStreamer's is device 1" : "GStreamer 1.22";
    fail_unless(
        warnings.size() == 1 && Says(warnings[0], reason) && Says(warnings[0], "e's Vulkan device (llvmpipe"),
        "%s: %zu warnings of a device not shared (want one naming both devices and \"%s\"), the first: %s",
        what.c_str(), warnings.size(), reason, warnings.empty() ? "" : warnings[0].c_str());
    gst_object_unref(device);
  }
}
GST_END_TEST;

// A frame whose image was made without VK_IMAGE_USAGE_TRANSFER_SRC_BIT cannot be copied from, on
// the device or to host memory: lumamax stops the stream with one error that names the plane, the
// usage and the flag it lacks, and the pipeline goes to NULL.
GST_START_TEST(test_image_without_transfer_source) {
  GstVulkanDevice* device = gstvk_test::ApplicationDevice(0);
  const std::string description =
      "appsrc name=src format=time caps=video/x-raw(memory:VulkanImage),format=RGBA,width=64,height=48,"
      "framerate=30/1 ! lumamax name=e ! fakesink";
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  gstvk_test::SetApplicationDevice(pipeline, device);
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  GstMemory* image = Library().image_memory_alloc(
      device, VK_FORMAT_R8G8B8A8_UNORM, 64, 48, VK_IMAGE_TILING_OPTIMAL,
      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  fail_unless(image != nullptr, "no image");
  GstBuffer* frame = gst_buffer_new();
  gst_buffer_append_memory(frame, image);
  GST_BUFFER_PTS(frame) = 0;
  GST_BUFFER_DURATION(frame) = GST_SECOND / 30;
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  gst_app_src_push_buffer(GST_APP_SRC(src), frame);
  gst_app_src_end_of_stream(GST_APP_SRC(src));
  gst_object_unref(src);
  GstMessage* message = vktest::WaitForErrorOrEos(pipeline, kBound);
  fail_unless(message != nullptr, "neither an error nor EOS within 30 s");
  const std::string text = vktest::Describe(message);
  fail_unless(GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR &&
                  Says(text, "plane 0's image, of GStreamer's Vulkan device vulkandevice") &&
                  Says(text, "VK_IMAGE_USAGE_TRANSFER_SRC_BIT") && Says(text, "llvmpipe"),
              "want an error naming the plane, the device and the usage: %s", text.c_str());
  gst_message_unref(message);
  fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  gst_object_unref(pipeline);
  gst_object_unref(device);
}
GST_END_TEST;

Suite* gstvk_bad_input_suite() {
  Suite* suite = suite_create("gstvk_bad_input");
  TCase* tcase = vktest::NewTCase("bad_input", 600);
  suite_add_tcase(suite, tcase);
  tcase_add_test(tcase, test_frames_of_another_gpu);
  tcase_add_test(tcase, test_image_without_transfer_source);
  return suite;
}

}  // namespace

int main(int argc, char** argv) {
  vktest::ListLavapipeTwice("test-gstvk-bad-input");
  return vktest::RunRuntimeSuite(&argc, &argv, gstvk_bad_input_suite(), "gstvk_bad_input", __FILE__);
}
