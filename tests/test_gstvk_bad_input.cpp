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

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "common/appsink_run.h"
#include "common/bus_wait.h"
#include "common/gstvk_library.h"
#include "gstvk/abi.hpp"

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

// Samples of `sink` until `count` have come (each within the bound), appended to `pts`; the caps
// of the last in `caps` (its string).
void Pull(GstElement* sink, int count, std::vector<GstClockTime>& pts, std::string& caps,
          const std::string& what) {
  for (int i = 0; i < count; ++i) {
    GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), kBound);
    fail_unless(sample != nullptr, "%s: no frame within 30 s (%zu so far)", what.c_str(), pts.size());
    pts.push_back(GST_BUFFER_PTS(gst_sample_get_buffer(sample)));
    gchar* text = gst_caps_to_string(gst_sample_get_caps(sample));
    caps = text;
    g_free(text);
    gst_sample_unref(sample);
  }
}

// Waits for lumamax's message of each frame of `pts` (posted when the GPU is done, which can be
// after the frame left at its submission); fails on an error. Returns how many messages came.
size_t ExpectMessages(GstBus* bus, const std::vector<GstClockTime>& pts, const std::string& what) {
  std::set<GstClockTime> missing(pts.begin(), pts.end());
  size_t posted = 0;
  while (!missing.empty()) {
    GstMessage* message =
        gst_bus_timed_pop_filtered(bus, kBound, GstMessageType(GST_MESSAGE_ELEMENT | GST_MESSAGE_ERROR));
    fail_unless(message != nullptr,
                "%s: the frame of time %" GST_TIME_FORMAT " reached the sink, its message did not come",
                what.c_str(), GST_TIME_ARGS(*missing.begin()));
    fail_unless(GST_MESSAGE_TYPE(message) != GST_MESSAGE_ERROR, "%s: %s", what.c_str(),
                vktest::Describe(message).c_str());
    const GstStructure* s = gst_message_get_structure(message);
    guint64 timestamp = 0;
    if (gst_structure_has_name(s, "lumamax") && gst_structure_get_uint64(s, "timestamp", &timestamp)) {
      missing.erase(timestamp);
      ++posted;
    }
    gst_message_unref(message);
  }
  return posted;
}

// On GStreamer's device (shared from 1.24), a stream goes through a flushing seek, a size change and
// PAUSED<->PLAYING cycles: frames keep coming with the caps asked for, from the seek's position, each
// with its lumamax message, no error, no upload where the device is shared, validation clean. The
// frames stay in GStreamer's images up to the appsink: its vulkandownload copies a larger frame into
// its old buffer after a size change (1.26, with identity in our place), and 1.22's vulkanupload
// into its old image, so there the size does not change.
GST_START_TEST(test_state_changes_on_gstreamers_device) {
  const std::string description =
      "videotestsrc pattern=ball ! capsfilter name=caps "
      "caps=video/x-raw,format=RGBA,width=64,height=48,framerate=30/1 ! vulkanupload ! "
      "video/x-raw(memory:VulkanImage) ! lumamax name=e ! appsink name=out sync=false max-buffers=2";
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "out");
  GstElement* caps = gst_bin_get_by_name(GST_BIN(pipeline), "caps");
  GstBus* bus = gst_element_get_bus(pipeline);
  std::vector<GstClockTime> pts;
  std::string last_caps;
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  Pull(sink, 5, pts, last_caps, "at the start");

  fail_unless(gst_element_seek_simple(pipeline, GST_FORMAT_TIME,
                                      GstSeekFlags(GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE), 0));
  // Frames pulled before the flush reached the sink may still come first: the seek's frame 0 comes.
  std::vector<GstClockTime> after_seek;
  for (int i = 0; i < 4 && std::find(after_seek.begin(), after_seek.end(), 0) == after_seek.end(); ++i)
    Pull(sink, 1, after_seek, last_caps, "after the seek");
  fail_unless(std::find(after_seek.begin(), after_seek.end(), 0) != after_seek.end(),
              "no frame of time 0 after a flushing seek to 0");
  pts.insert(pts.end(), after_seek.begin(), after_seek.end());
  Pull(sink, 3, pts, last_caps, "after the seek");

  if (GstMinor() >= 24) {
    GstCaps* larger = gst_caps_from_string("video/x-raw,format=RGBA,width=96,height=80,framerate=30/1");
    g_object_set(caps, "caps", larger, nullptr);
    gst_caps_unref(larger);
    for (int i = 0; i < 8 && !Says(last_caps, "width=(int)96"); ++i)
      Pull(sink, 1, pts, last_caps, "after the size change");
    fail_unless(Says(last_caps, "width=(int)96") && Says(last_caps, "height=(int)80"),
                "frames after a size change have caps %s", last_caps.c_str());
    Pull(sink, 3, pts, last_caps, "after the size change");
  } else {
    std::printf(
        "no size change on GStreamer 1.22: its vulkanupload copies a larger frame into its old image\n");
  }

  for (int cycle = 0; cycle < 3; ++cycle) {
    fail_unless(gst_element_set_state(pipeline, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE);
    fail_unless(gst_element_get_state(pipeline, nullptr, nullptr, kBound) != GST_STATE_CHANGE_FAILURE);
    fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
    Pull(sink, 3, pts, last_caps, "after PAUSED and PLAYING " + std::to_string(cycle + 1));
  }
  guint64 uploads = 0;
  GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), "e");
  g_object_get(e, "uploads", &uploads, nullptr);
  gst_object_unref(e);
  const bool shared = gstvk_test::RunsOn(pipeline, "e") != nullptr;
  fail_unless(shared == (GstMinor() >= 24), "lumamax runs on GStreamer's device: %d", shared);
  fail_unless(!shared || uploads == 0, "%" G_GUINT64_FORMAT " uploads on GStreamer's device", uploads);
  // Every frame that reached the sink has its message (frames flushed on the way may have one too),
  // taken before NULL flushes the bus.
  const size_t posted = ExpectMessages(bus, pts, description);
  if (GstMinor() < 24) {
    // GStreamer 1.22's vulkanupload destroys its staging buffers and images before it waits for its
    // uploads' fences (vkupload.c, _raw_to_image_free()), so stopping it with an upload in flight is
    // a validation error of its own. Its frames end first: lumamax waits for each copy it makes on
    // that queue, which completes the uploads before it. The appsink takes them all (a full one
    // would hold the source's streaming thread, and with it the EOS sent to the source).
    gst_app_sink_set_max_buffers(GST_APP_SINK(sink), 0);
    fail_unless(gst_element_send_event(pipeline, gst_event_new_eos()));
    while (GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), kBound))
      gst_sample_unref(sample);
    fail_unless(gst_app_sink_is_eos(GST_APP_SINK(sink)), "no EOS within 30 s");
  }
  fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  std::printf(
      "%zu frames through a seek, a size change (1.24+) and 3 PAUSED cycles, %zu messages, on %s device\n",
      pts.size(), posted, shared ? "GStreamer's" : "the element's own");
  gst_object_unref(bus);
  gst_object_unref(caps);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  // GStreamer's vulkanupload (1.24 to 1.28 at least) gives its image pool and its staging buffers
  // back to the driver before it waits for its last copy into them: after a flush or a stop that
  // dropped that copy's frame unseen by any wait, the layer cannot know the copy is done. The same
  // steps with identity in lumamax's place give the same messages.
  vktest::AssertNoValidationErrorsBut(
      {"VUID-vkDestroyImage-image-01000", "VUID-vkDestroyBuffer-buffer-00922",
       "VUID-vkDestroySemaphore-semaphore-05149"},
      "vulkanupload frees its images and staging buffers before waiting for its last copy", description);
}
GST_END_TEST;

// With the frame timeout at 1 ms, 1080p frames of vulkanupload outlive it: lumamax posts one error
// saying so and hands the frames it gave up on to the reaper, which keeps GStreamer's memory and
// device until they are done; the pipeline reaches NULL, and a pipeline like it then runs with the
// default timeout. GStreamer's own Vulkan elements stop badly with their copies in flight (the same
// with identity in lumamax's place): vulkanupload frees its staging buffers before it waits for its
// last copy (a validation error on 1.22, lavapipe's queue thread crashing on 1.26), and
// vulkandownload into a fakesink, which maps nothing, frees its output while the last download still
// writes it (a crash on 1.26). So GStreamer's queue goes idle before NULL, and no vulkandownload.
// Waits until the source named "src" of `pipeline` no longer pushes (its task paused at its end or
// after an error).
void WaitForSourceEnd(GstElement* pipeline) {
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstPad* pad = gst_element_get_static_pad(src, "src");
  const gint64 bound = g_get_monotonic_time() + gint64(kBound / 1000);
  while (gst_pad_get_task_state(pad) == GST_TASK_STARTED && g_get_monotonic_time() < bound) g_usleep(1000);
  fail_unless(gst_pad_get_task_state(pad) != GST_TASK_STARTED, "the source still pushes after 30 s");
  gst_object_unref(pad);
  gst_object_unref(src);
}

// Waits, under its submit lock, until the queue of GStreamer's that made the frames `element` of
// `pipeline` takes is idle (the queue vulkanupload upstream answers a context query with).
void WaitForGstreamersQueue(GstElement* pipeline, const char* element) {
  GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), element);
  GstPad* sink = gst_element_get_static_pad(e, "sink");
  GstQuery* query = gst_query_new_context("gst.vulkan.queue");
  fail_unless(gst_pad_peer_query(sink, query), "no gst.vulkan.queue upstream of %s", element);
  GstContext* context = nullptr;
  gst_query_parse_context(query, &context);
  const GValue* value = gst_structure_get_value(gst_context_get_structure(context), "gst.vulkan.queue");
  auto* queue = value ? static_cast<GstVulkanQueue*>(g_value_get_object(value)) : nullptr;
  fail_unless(queue != nullptr, "the gst.vulkan.queue context upstream of %s holds no queue", element);
  gstvk_test::Library().queue_submit_lock(queue);
  const VkResult idle = vkQueueWaitIdle(vkc::gstvk::fields(queue).queue);
  gstvk_test::Library().queue_submit_unlock(queue);
  fail_unless(idle == VK_SUCCESS, "vkQueueWaitIdle: %d", int(idle));
  gst_query_unref(query);
  gst_object_unref(sink);
  gst_object_unref(e);
}

GST_START_TEST(test_frame_timeout_on_gstreamers_device) {
  auto description = [](int frames) {
    return "videotestsrc name=src num-buffers=" + std::to_string(frames) +
           " ! video/x-raw,format=RGBA,width=1920,height=1080 ! vulkanupload ! "
           "video/x-raw(memory:VulkanImage) ! lumamax name=e ! fakesink async=false";
  };
  g_setenv("GST_VKCOMPUTE_FRAME_TIMEOUT_MS", "1", TRUE);
  // Two frames: fewer than a pool or a ring holds, so the source pushes them and ends. (The sink
  // goes to PLAYING at once, async=false: a sink prerolled when the error comes would hold the
  // source's thread in its push, waiting for a PLAYING that the error stopped.)
  GstElement* pipeline = vktest::ParsePipeline(description(2).c_str());
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstMessage* message = vktest::WaitForErrorOrEos(pipeline, kBound);
  fail_unless(message != nullptr, "neither an error nor EOS within 30 s");
  const std::string first = vktest::Describe(message);
  // The frame's work on the GPU, or (1.22, where the element has a device of its own) the copy of
  // GStreamer's image that the CPU waits for.
  const bool slow_work = Says(first, "took longer than 1 ms") && Says(first, "not lost");
  const bool slow_copy = Says(first, "did not copy the frame (not done in 1 ms)");
  fail_unless(GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR && (slow_work || slow_copy),
              "want one error saying the frame was slow: %s", first.c_str());
  gst_message_unref(message);
  WaitForSourceEnd(pipeline);
  WaitForGstreamersQueue(pipeline, "e");
  fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  GstBus* bus = gst_element_get_bus(pipeline);
  while (GstMessage* more = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR)) {
    const std::string text = vktest::Describe(more);
    gst_message_unref(more);
    fail_unless(!Says(text, "lumamax"), "a second error of lumamax: %s", text.c_str());
  }
  gst_object_unref(bus);
  gst_object_unref(pipeline);
  // A new pipeline, not the same one again: GStreamer's own Vulkan elements started a second time
  // mix devices on 1.22 and crash under the validation layer on 1.26 (with identity in our place).
  g_unsetenv("GST_VKCOMPUTE_FRAME_TIMEOUT_MS");
  pipeline = vktest::ParsePipeline(description(8).c_str());
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  vktest::ExpectEos(pipeline, kBound, "after the timeout");
  fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  gst_object_unref(pipeline);
  vktest::AssertNoValidationErrors(description(8));
}
GST_END_TEST;

// The process's threads and resident memory (kB), from /proc/self/status.
std::pair<int, long> ThreadsAndRss() {
  int threads = 0;
  long rss = 0;
  gchar* status = nullptr;
  if (g_file_get_contents("/proc/self/status", &status, nullptr, nullptr)) {
    if (const char* t = std::strstr(status, "Threads:")) threads = std::atoi(t + 8);
    if (const char* r = std::strstr(status, "VmRSS:")) rss = std::atol(r + 6);
    g_free(status);
  }
  return {threads, rss};
}

// Eight live `vulkanupload ! lumamax ! vulkandownload` pipelines at once in one process, each with a
// Vulkan instance of its own and then all on one instance that the application sets on them: each
// posts the messages and gives the frames it gives alone. Prints the threads and resident memory
// while they play. (Not one device for all: GStreamer's elements each take a queue object of their
// own, whose lock does not keep the others' submissions off the same VkQueue.)
GST_START_TEST(test_eight_live_pipelines) {
  constexpr int kPipelines = 8;
  const std::string description =
      "videotestsrc is-live=true pattern=ball num-buffers=10 ! video/x-raw,format=RGBA,width=64,height=48 ! "
      "vulkanupload ! video/x-raw(memory:VulkanImage) ! lumamax name=e ! vulkandownload ! appsink name=out";
  // A live source stamps its frames with the clock's time at their capture: compared without times.
  const auto untimed = [](vktest::AppsinkRun& run) {
    for (GstStructure* m : run.messages)
      gst_structure_remove_fields(m, "timestamp", "stream-time", "running-time", nullptr);
  };
  vktest::AppsinkRun alone;
  vktest::RunToAppsink(description, alone);
  untimed(alone);
  for (const bool shared : {false, true}) {
    GstVulkanInstance* instance = shared ? gstvk_test::Library().instance_new() : nullptr;
    GError* error = nullptr;
    fail_unless(!instance || gstvk_test::Library().instance_open(instance, &error), "instance: %s",
                error ? error->message : "?");
    std::vector<std::unique_ptr<vktest::AppsinkRun>> runs;
    std::mutex lock;
    std::pair<int, long> peak{0, 0};
    std::vector<std::thread> threads;
    for (int i = 0; i < kPipelines; ++i) {
      runs.push_back(std::make_unique<vktest::AppsinkRun>());
      vktest::AppsinkRun& run = *runs.back();
      if (instance)
        run.before_play = [instance](GstElement* pipeline) {
          gstvk_test::SetApplicationContext(pipeline, "gst.vulkan.instance", instance);
        };
      run.at_end = [&](GstElement*) {
        const auto now = ThreadsAndRss();
        std::lock_guard<std::mutex> guard(lock);
        peak = {std::max(peak.first, now.first), std::max(peak.second, now.second)};
      };
      threads.emplace_back([&description, &run] { vktest::RunToAppsink(description, run); });
    }
    for (std::thread& t : threads) t.join();
    const std::string what =
        std::to_string(kPipelines) + " live pipelines" + (shared ? " on one instance" : "");
    for (int i = 0; i < kPipelines; ++i) {
      untimed(*runs[i]);
      vktest::ExpectSameMessages(*runs[i], alone, what + ", pipeline " + std::to_string(i));
      vktest::ExpectSameFrames(*runs[i], alone, what + ", pipeline " + std::to_string(i));
    }
    std::printf("%s: up to %d threads and %ld kB resident at their ends\n", what.c_str(), peak.first,
                peak.second);
    if (instance) gst_object_unref(instance);
  }
}
GST_END_TEST;

Suite* gstvk_bad_input_suite() {
  Suite* suite = suite_create("gstvk_bad_input");
  TCase* tcase = vktest::NewTCase("bad_input", 600);
  suite_add_tcase(suite, tcase);
  tcase_add_test(tcase, test_frames_of_another_gpu);
  tcase_add_test(tcase, test_image_without_transfer_source);
  tcase_add_test(tcase, test_state_changes_on_gstreamers_device);
  tcase_add_test(tcase, test_frame_timeout_on_gstreamers_device);
  tcase_add_test(tcase, test_eight_live_pipelines);
  return suite;
}

}  // namespace

int main(int argc, char** argv) {
  vktest::ListLavapipeTwice("test-gstvk-bad-input");
  return vktest::RunRuntimeSuite(&argc, &argv, gstvk_bad_input_suite(), "gstvk_bad_input", __FILE__);
}
