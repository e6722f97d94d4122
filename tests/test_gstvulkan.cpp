// Frames of GStreamer's Vulkan elements into our analyses (gst/base/vulkanbridge.hpp): for lumamax
// and histogram, `videotestsrc pattern=snow ! caps ! vulkanupload ! E ! vulkandownload` posts the
// same messages as `videotestsrc pattern=snow ! caps ! E`, its frames pass through E unchanged (the
// bytes of `vulkanupload ! vulkandownload` alone), E's sink caps are memory:VulkanImage, and on
// GStreamer 1.22, whose devices cannot be shared, E posts exactly one warning per start, naming
// both devices. The cases are the formats and sizes for which GStreamer's own round trip returns
// its input on that release (its upload and download ignore the stride of a plane whose row bytes
// are not its stride up to 1.28.2, and 1.26's upload takes fewer formats on lavapipe), among those
// E reads. memory:VulkanBuffer (vulkanupload's buffers) gives the same messages too. The filters take
// such frames too, and write theirs in memory:VulkanImage for vulkandownload (gst/base/vulkanoutputs.hpp).
#include <atomic>
#include <string>
#include <vector>

#include "common/appsink_run.h"
#include "common/bus_wait.h"
#include "common/gstvk_library.h"
#include "common/test_data.h"
#include "common/visible_bytes.h"

namespace {

using gstvk_test::GstMinor;
using vktest::ExpectSameFrames;
using vktest::ExpectSameMessages;

struct Case {
  const char* format;
  int width, height;
};

// The stock round trip's exact cases on lavapipe (GStreamer 1.22.0 and 1.26.2).
std::vector<Case> StockExactCases() {
  std::vector<Case> cases;
  const bool old = GstMinor() < 24;
  for (const char* format : old ? std::vector<const char*>{"RGBA", "BGRx", "ARGB"}
                                : std::vector<const char*>{"RGBA", "BGRA", "ARGB"})
    for (auto [w, h] : {std::pair{1, 1}, std::pair{3, 5}, std::pair{97, 61}})
      // 1.26.2's own round trip of BGRA at 97x61 hangs now and then on lavapipe (1 run in 10 to 30).
      if (old || std::string(format) != "BGRA" || w != 97) cases.push_back({format, w, h});
  for (const char* format : old ? std::vector<const char*>{"GRAY8", "NV12", "Y444", "GRAY16_LE"}
                                : std::vector<const char*>{"NV12"})
    for (auto [w, h] : {std::pair{4, 4}, std::pair{64, 48}}) cases.push_back({format, w, h});
  if (old) cases.push_back({"I420", 64, 48});
  return cases;
}

// Whether `element`'s sink template takes `format` in system memory.
bool Reads(const char* element, const char* format) {
  GstElementFactory* factory = gst_element_factory_find(element);
  fail_unless(factory != nullptr, "no element %s", element);
  GstCaps* caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, format, nullptr);
  const bool reads = gst_element_factory_can_sink_any_caps(factory, caps);
  gst_caps_unref(caps);
  gst_object_unref(factory);
  return reads;
}

std::string Source(const Case& c) {
  return "videotestsrc pattern=snow num-buffers=3 ! video/x-raw,format=" + std::string(c.format) +
         ",width=" + std::to_string(c.width) + ",height=" + std::to_string(c.height) + " ! ";
}

// CPU maps of GStreamer's Vulkan image memory since the counter was installed: the allocator's map
// function, wrapped. lavapipe's memory is host-visible, so a map of a frame would pass unnoticed
// otherwise; our elements read the images on the GPU, through a copy made by a device.
std::atomic<int> image_maps{0};
GstMemoryMapFullFunction image_map = nullptr;

gpointer CountedImageMap(GstMemory* memory, GstMapInfo* info, gsize size) {
  image_maps++;
  return image_map(memory, info, size);
}

void CountImageMaps() {
  if (image_map) return;
  gstvk_test::Library().image_memory_init_once();
  GstAllocator* allocator = gst_allocator_find("VulkanImage");
  fail_unless(
      allocator != nullptr && allocator->mem_map_full != nullptr,
      "GStreamer's Vulkan image allocator, or its map function, is not found: maps cannot be counted");
  image_map = allocator->mem_map_full;
  allocator->mem_map_full = CountedImageMap;
  gst_object_unref(allocator);
}

// The uploads an element counts for `frames` frames of GStreamer's images (and the downloads for its
// outputs into them): none where it runs on their device (1.24 and later), which copies them on the
// GPU; one each through host memory.
guint64 ExpectedUploads(size_t frames) {
  return GstMinor() >= 24 ? 0 : frames;
}

}  // namespace

GST_START_TEST(test_analyses_read_vulkan_images) {
  vktest::RequirePhysicalDevice();
  CountImageMaps();
  const bool warns = GstMinor() < 24;
  int runs = 0;
  for (const Case& c : StockExactCases()) {
    vktest::AppsinkRun stock;
    vktest::RunToAppsink(Source(c) + "vulkanupload ! vulkandownload ! appsink name=out", stock);
    for (const char* element : {"lumamax", "histogram"}) {
      if (!Reads(element, c.format)) continue;
      const std::string what = std::string(element) + " on " + c.format + " " + std::to_string(c.width) +
                               "x" + std::to_string(c.height);
      vktest::AppsinkRun vulkan, system;
      vktest::RunToAppsink(
          Source(c) + "vulkanupload ! " + element + " name=e ! vulkandownload ! appsink name=out", vulkan);
      vktest::RunToAppsink(Source(c) + element + " name=e ! appsink name=out", system);
      ExpectSameMessages(vulkan, system, what);
      fail_unless(vulkan.e_sink_caps.find("memory:VulkanImage") != std::string::npos, "%s: sink caps %s",
                  what.c_str(), vulkan.e_sink_caps.c_str());
      fail_unless(vulkan.e_uploads == ExpectedUploads(vulkan.samples.size()),
                  "%s: %" G_GUINT64_FORMAT " uploads for %zu frames", what.c_str(), vulkan.e_uploads,
                  vulkan.samples.size());
      fail_unless(image_maps == 0, "%s: %d CPU maps of GStreamer's images", what.c_str(), image_maps.load());
      ExpectSameFrames(vulkan, stock, what + " (against vulkanupload ! vulkandownload)");
      size_t not_shared = 0;
      for (const std::string& warning : vulkan.warnings)
        if (warning.find("is not shared") != std::string::npos) not_shared++;
      fail_unless(not_shared == (warns ? 1u : 0u), "%s: %zu warnings of a device not shared (%zu in all: %s)",
                  what.c_str(), not_shared, vulkan.warnings.size(),
                  vulkan.warnings.empty() ? "" : vulkan.warnings[0].c_str());
      if (warns)
        fail_unless(vulkan.warnings[0].find("llvmpipe") != std::string::npos &&
                        vulkan.warnings[0].find("vulkandevice") != std::string::npos,
                    "%s: the warning names not both devices: %s", what.c_str(), vulkan.warnings[0].c_str());
      runs++;
    }
  }
  std::printf("%d cases of GStreamer 1.%u's Vulkan frames into the analyses\n", runs, GstMinor());
  fail_unless(runs >= 8, "only %d cases", runs);
}
GST_END_TEST;

// The filters read frames of GStreamer's Vulkan elements the same way: `vulkanupload !
// video/x-raw(memory:VulkanImage) ! F ! appsink` gives the frames of `F` alone (left to itself,
// vulkanupload hands a filter its buffers, read as system memory is), in system memory.
GST_START_TEST(test_filters_read_vulkan_images) {
  vktest::RequirePhysicalDevice();
  CountImageMaps();
  const std::string lut = "lut location=" + vktest::TestDataDir() + "/lookup_amatorka.png";
  for (const std::string& filter : {std::string("morph operation=open width=3 height=3"), lut,
                                    std::string("rgb2yuv ! video/x-raw,format=NV12")})
    for (const Case& c : {Case{"RGBA", 64, 48}, Case{"RGBA", 97, 61}}) {
      const std::string element = filter.substr(0, filter.find(' '));
      const std::string named = element + " name=e" + filter.substr(element.size());
      const std::string what =
          filter + " on " + c.format + " " + std::to_string(c.width) + "x" + std::to_string(c.height);
      vktest::AppsinkRun vulkan, system;
      vktest::RunToAppsink(
          Source(c) + "vulkanupload ! video/x-raw(memory:VulkanImage) ! " + named + " ! appsink name=out",
          vulkan);
      vktest::RunToAppsink(Source(c) + named + " ! appsink name=out", system);
      fail_unless(vulkan.e_sink_caps.find("memory:VulkanImage") != std::string::npos, "%s: sink caps %s",
                  what.c_str(), vulkan.e_sink_caps.c_str());
      fail_unless(vulkan.e_uploads == ExpectedUploads(vulkan.samples.size()),
                  "%s: %" G_GUINT64_FORMAT " uploads for %zu frames", what.c_str(), vulkan.e_uploads,
                  vulkan.samples.size());
      ExpectSameFrames(vulkan, system, what);
      fail_unless(image_maps == 0, "%s: %d CPU maps of GStreamer's images", what.c_str(), image_maps.load());
    }
}
GST_END_TEST;

// A chain of our elements between vulkanupload and vulkandownload: `vulkanupload ! lut ! morph !
// histogram ! rgb2yuv ! NV12 ! vulkandownload` gives the frames and messages of the chain in system
// memory; from 1.24 the whole chain runs on GStreamer's device, its inner links in our device memory
// (memory:VkComputeDevice), with no upload or download anywhere (the images read and written on the GPU).
GST_START_TEST(test_chain_between_vulkan_elements) {
  vktest::RequirePhysicalDevice();
  CountImageMaps();
  const std::string lut = "lut location=" + vktest::TestDataDir() + "/lookup_amatorka.png";
  const std::string chain =
      lut + " name=e ! morph name=m operation=dilate width=3 height=3 ! histogram name=h ! rgb2yuv name=y ! ";
  for (const Case& c : {Case{"RGBA", 64, 48}, Case{"RGBA", 1, 1}}) {
    const std::string what = "the chain on " + std::to_string(c.width) + "x" + std::to_string(c.height);
    vktest::AppsinkRun vulkan, system;
    guint64 transfers = 0;
    std::string inner_caps;
    vulkan.at_end = [&](GstElement* pipeline) {
      for (const char* name : {"m", "h", "y"}) {
        GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), name);
        guint64 uploads = 0, downloads = 0;
        g_object_get(e, "uploads", &uploads, "downloads", &downloads, nullptr);
        transfers += uploads + downloads;
        if (std::string(name) == "m") {
          GstPad* pad = gst_element_get_static_pad(e, "sink");
          GstCaps* caps = gst_pad_get_current_caps(pad);
          gchar* text = caps ? gst_caps_to_string(caps) : g_strdup("");
          inner_caps = text;
          g_free(text);
          if (caps) gst_caps_unref(caps);
          gst_object_unref(pad);
        }
        gst_object_unref(e);
      }
    };
    vktest::RunToAppsink(
        Source(c) + "vulkanupload ! " + chain +
            "video/x-raw(memory:VulkanImage),format=NV12 ! vulkandownload ! appsink name=out",
        vulkan);
    vktest::RunToAppsink(Source(c) + chain + "video/x-raw,format=NV12 ! appsink name=out", system);
    ExpectSameMessages(vulkan, system, what);
    ExpectSameFrames(vulkan, system, what);
    fail_unless(image_maps == 0, "%s: %d CPU maps of GStreamer's images", what.c_str(), image_maps.load());
    if (GstMinor() >= 24) {
      fail_unless(inner_caps.find("memory:VkComputeDevice") != std::string::npos, "%s: lut to morph in %s",
                  what.c_str(), inner_caps.c_str());
      fail_unless(vulkan.e_uploads + transfers == 0, "%s: %" G_GUINT64_FORMAT " uploads and downloads",
                  what.c_str(), vulkan.e_uploads + transfers);
    }
  }
}
GST_END_TEST;

// The filters write their frames in GStreamer's Vulkan images for the Vulkan elements downstream
// (copied in by their device: vulkanoutputs.hpp): `F ! vulkandownload` and `vulkanupload ! F !
// vulkandownload` give the frames of `F` alone, and F's src caps are memory:VulkanImage.
GST_START_TEST(test_filters_write_vulkan_images) {
  vktest::RequirePhysicalDevice();
  struct Filter {
    std::string element;  // with its properties
    std::string format;   // of its output, when the caps name one
    std::vector<Case> cases;
  };
  const std::vector<Case> rgba = {{"RGBA", 1, 1}, {"RGBA", 64, 48}, {"RGBA", 97, 61}};
  // NV12 97 wide is not among them: GStreamer's download ignores the stride of a plane whose rows are
  // narrower than it (the file's header), so its bytes are not the frame's.
  const std::vector<Case> to_nv12 = {{"RGBA", 1, 1}, {"RGBA", 64, 48}};
  for (const Filter& f : {Filter{"morph operation=open width=3 height=3", "", rgba},
                          Filter{"lut location=" + vktest::TestDataDir() + "/lookup_amatorka.png", "", rgba},
                          Filter{"rgb2yuv", "NV12", to_nv12}})
    for (const Case& c : f.cases) {
      const std::string name = f.element.substr(0, f.element.find(' '));
      const std::string named = name + " name=e" + f.element.substr(name.size());
      const std::string format = f.format.empty() ? "" : ",format=" + f.format;
      const std::string in_images = named + " ! video/x-raw(memory:VulkanImage)" + format;
      const std::string what =
          name + " on " + c.format + " " + std::to_string(c.width) + "x" + std::to_string(c.height);
      vktest::AppsinkRun written, both, system;
      vktest::RunToAppsink(Source(c) + in_images + " ! vulkandownload ! appsink name=out", written);
      vktest::RunToAppsink(Source(c) + "vulkanupload ! video/x-raw(memory:VulkanImage) ! " + in_images +
                               " ! vulkandownload ! appsink name=out",
                           both);
      vktest::RunToAppsink(Source(c) + named + " ! video/x-raw" + format + " ! appsink name=out", system);
      for (const vktest::AppsinkRun* run : {&written, &both}) {
        const char* how = run == &written ? "written" : "read and written";
        fail_unless(run->e_src_caps.find("memory:VulkanImage") != std::string::npos, "%s, %s: src caps %s",
                    what.c_str(), how, run->e_src_caps.c_str());
        // From 1.24 the images are written on the GPU, on the device of vulkandownload that F runs on.
        const guint64 uploads = run == &written ? run->samples.size() : ExpectedUploads(run->samples.size());
        fail_unless(run->e_uploads == uploads && run->e_downloads == ExpectedUploads(run->samples.size()),
                    "%s, %s: %" G_GUINT64_FORMAT " uploads and %" G_GUINT64_FORMAT
                    " downloads for %zu frames",
                    what.c_str(), how, run->e_uploads, run->e_downloads, run->samples.size());
        ExpectSameFrames(*run, system, what + ", " + how);
      }
    }
}
GST_END_TEST;

// vulkanupload's buffers (memory:VulkanBuffer, host-visible) into lumamax: the same messages as in
// system memory.
GST_START_TEST(test_analysis_reads_vulkan_buffers) {
  vktest::RequirePhysicalDevice();
  const Case c{"RGBA", 64, 48};
  vktest::AppsinkRun vulkan, system;
  vktest::RunToAppsink(
      Source(c) + "vulkanupload ! video/x-raw(memory:VulkanBuffer) ! lumamax name=e ! appsink name=out",
      vulkan);
  vktest::RunToAppsink(Source(c) + "lumamax name=e ! appsink name=out", system);
  fail_unless(vulkan.e_sink_caps.find("memory:VulkanBuffer") != std::string::npos, "sink caps %s",
              vulkan.e_sink_caps.c_str());
  ExpectSameMessages(vulkan, system, "lumamax on vulkanupload's buffers");
}
GST_END_TEST;

// The queue object `element` answers a CONTEXT query for "gst.vulkan.queue" with (a new reference),
// or null.
GstVulkanQueue* AnsweredQueue(GstElement* element) {
  GstQuery* query = gst_query_new_context("gst.vulkan.queue");
  GstVulkanQueue* queue = nullptr;
  if (gst_element_query(element, query)) {
    GstContext* context = nullptr;
    gst_query_parse_context(query, &context);
    if (context) gstvk_test::Library().context_get_vulkan_queue(context, &queue);
  }
  gst_query_unref(query);
  return queue;
}

// Sets `pipeline` playing and returns its EOS or ERROR message, failing unless it is `expected` within 30 s.
static GstMessage* PlayUntil(GstElement* pipeline, GstMessageType expected) {
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstMessage* message = vktest::WaitForErrorOrEos(pipeline, gstvk_test::kFrameWait);
  fail_unless(message && GST_MESSAGE_TYPE(message) == expected, "no %s: %s",
              gst_message_type_get_name(expected),
              message ? vktest::Describe(message).c_str() : "nothing within 30 s");
  return message;
}

// The "is not shared" warnings of a run.
static std::vector<std::string> NotShared(const vktest::AppsinkRun& run) {
  std::vector<std::string> found;
  for (const std::string& warning : run.warnings)
    if (warning.find("is not shared") != std::string::npos) found.push_back(warning);
  return found;
}

// lumamax in a pipeline with no Vulkan element of GStreamer's, run with `device` set on it by the
// application and without: both runs post the same messages, and nothing of ours holds the device once
// they are gone. Returns the device lumamax ran on (its gst-vulkan-device property), and the warnings
// of a device not shared in `warnings`. Takes `device`.
static const void* RunOnApplicationDevice(GstVulkanDevice* device, std::vector<std::string>& warnings) {
  gint gone = 0;
  g_object_weak_ref(G_OBJECT(device), gstvk_test::Gone, &gone);
  const void* runs_on = nullptr;
  {
    const std::string description = Source({"RGBA", 97, 61}) + "lumamax name=e ! appsink name=out";
    vktest::AppsinkRun shared, own;
    shared.before_play = [device](GstElement* pipeline) {
      GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), "e");
      gstvk_test::SetApplicationDevice(e, device);
      gst_object_unref(e);
    };
    shared.at_end = [&runs_on](GstElement* pipeline) { runs_on = gstvk_test::RunsOn(pipeline, "e"); };
    vktest::RunToAppsink(description, shared);
    vktest::RunToAppsink(description, own);
    ExpectSameMessages(shared, own, "lumamax with the application's device");
    warnings = NotShared(shared);
  }  // the runs' frames, whose imports hold the device of ours, go with them
  gst_object_unref(device);
  fail_unless(gstvk_test::WaitGone(&gone, "the application's device"),
              "the application's device is still held after the pipeline went");
  return runs_on;
}

// A device that the application made and set on lumamax (a "gst.vulkan.device" context): from 1.24
// lumamax runs its frames on that VkDevice (its gst-vulkan-device property), silently; on 1.22 it keeps
// its own, with one warning that says why.
GST_START_TEST(test_runs_on_the_application_device) {
  vktest::RequirePhysicalDevice();
  GstVulkanDevice* device = gstvk_test::ApplicationDevice();
  std::vector<std::string> warnings;
  const void* runs_on = RunOnApplicationDevice(device, warnings);
  if (GstMinor() >= 24) {
    fail_unless(runs_on == device, "lumamax runs on GStreamer's device %p, the application set %p", runs_on,
                static_cast<void*>(device));
    fail_unless(warnings.empty(), "a warning: %s", warnings.empty() ? "" : warnings[0].c_str());
  } else {
    fail_unless(runs_on == nullptr, "lumamax runs on GStreamer's device %p on 1.22", runs_on);
    fail_unless(warnings.size() == 1 && warnings[0].find("GStreamer 1.22") != std::string::npos,
                "%zu warnings of a device not shared, the first: %s", warnings.size(),
                warnings.empty() ? "" : warnings[0].c_str());
  }
}
GST_END_TEST;

// The application's device on an instance made for Vulkan 1.1 (GST_VULKAN_INSTANCE_API_VERSION) lacks
// the timeline semaphores of 1.2: lumamax keeps its own device and says why in one warning naming both
// devices. (Not between vulkanupload and vulkandownload: on such an instance GStreamer 1.26's own
// upload uses synchronization2 without enabling it, which the validation layer reports.)
GST_START_TEST(test_instance_below_1_2_is_not_shared) {
  vktest::RequirePhysicalDevice();
  g_setenv("GST_VULKAN_INSTANCE_API_VERSION", "1.1", TRUE);
  GstVulkanDevice* device = gstvk_test::ApplicationDevice();
  g_unsetenv("GST_VULKAN_INSTANCE_API_VERSION");
  std::vector<std::string> warnings;
  const void* runs_on = RunOnApplicationDevice(device, warnings);
  fail_unless(runs_on == nullptr, "lumamax runs on GStreamer's device %p", runs_on);
  const char* reason = GstMinor() >= 24 ? "older than 1.2" : "GStreamer 1.22";
  // lumamax takes the first device (the default): the one the warning names as its own.
  const std::string own = "e's Vulkan device (" + vktest::PhysicalDeviceNames().at(0) + ")";
  fail_unless(warnings.size() == 1 && warnings[0].find(reason) != std::string::npos &&
                  warnings[0].find("vulkandevice") != std::string::npos &&
                  warnings[0].find(own) != std::string::npos,
              "%zu warnings of a device not shared (want one naming both devices and \"%s\"), the first: %s",
              warnings.size(), reason, warnings.empty() ? "" : warnings[0].c_str());
}
GST_END_TEST;

// An analysis behind vulkanupload and a queue (each on a streaming thread of its own) copies its frames
// on vulkanupload's queue object, whose submit lock vulkanupload takes too, also on 1.22, where no
// device is shared at start: asked for its queue, the analysis answers with vulkanupload's.
GST_START_TEST(test_copies_submit_on_the_upstream_queue) {
  vktest::RequirePhysicalDevice();
  GstElement* pipeline = vktest::ParsePipeline(
      (Source({"RGBA", 64, 48}) +
       "vulkanupload name=up ! video/x-raw(memory:VulkanImage) ! queue ! lumamax name=e ! fakesink")
          .c_str());
  gst_message_unref(PlayUntil(pipeline, GST_MESSAGE_EOS));
  GstElement* up = gst_bin_get_by_name(GST_BIN(pipeline), "up");
  GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), "e");
  GstVulkanQueue* theirs = AnsweredQueue(up);
  GstVulkanQueue* ours = AnsweredQueue(e);
  fail_unless(theirs != nullptr, "vulkanupload answered with no queue");
  fail_unless(ours == theirs, "lumamax answered with queue %p, vulkanupload with %p",
              static_cast<void*>(ours), static_cast<void*>(theirs));
  gst_clear_object(&theirs);
  gst_clear_object(&ours);
  gst_object_unref(up);
  gst_object_unref(e);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}
GST_END_TEST;

// histogram draw=true between vulkanupload and vulkandownload draws into GStreamer's Vulkan images:
// the frames of `histogram draw=true` alone, its src caps memory:VulkanImage.
GST_START_TEST(test_drawing_into_vulkan_images) {
  vktest::RequirePhysicalDevice();
  for (const Case& c : {Case{"RGBA", 64, 48}, Case{"RGBA", 97, 61}}) {
    const std::string what =
        "histogram draw=true on " + std::to_string(c.width) + "x" + std::to_string(c.height);
    vktest::AppsinkRun vulkan, system;
    vktest::RunToAppsink(Source(c) +
                             "vulkanupload ! video/x-raw(memory:VulkanImage) ! histogram name=e draw=true ! "
                             "vulkandownload ! appsink name=out",
                         vulkan);
    vktest::RunToAppsink(Source(c) + "histogram name=e draw=true ! appsink name=out", system);
    fail_unless(vulkan.e_src_caps.find("memory:VulkanImage") != std::string::npos, "%s: src caps %s",
                what.c_str(), vulkan.e_src_caps.c_str());
    ExpectSameFrames(vulkan, system, what);
  }
}
GST_END_TEST;

// histogram draw=true after vulkanupload's buffers (memory:VulkanBuffer, passed on in that memory)
// would have to write frames in GStreamer's Vulkan buffer memory: a negotiation error that says what
// to do, not a frame in the wrong memory.
GST_START_TEST(test_drawing_into_vulkan_buffers_is_refused) {
  vktest::RequirePhysicalDevice();
  GstElement* pipeline = vktest::ParsePipeline(
      (Source({"RGBA", 64, 48}) +
       "vulkanupload ! video/x-raw(memory:VulkanBuffer) ! histogram draw=true ! fakesink")
          .c_str());
  GstMessage* message = PlayUntil(pipeline, GST_MESSAGE_ERROR);
  GError* error = nullptr;
  gst_message_parse_error(message, &error, nullptr);
  fail_unless(g_strrstr(error->message, "put vulkandownload before it") != nullptr, "%s", error->message);
  g_error_free(error);
  gst_message_unref(message);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}
GST_END_TEST;

namespace {

Suite* gstvulkan_suite() {
  Suite* suite = suite_create("gstvulkan");
  TCase* analyses = vktest::NewTCase("analyses", 600);
  suite_add_tcase(suite, analyses);
  tcase_add_test(analyses, test_analyses_read_vulkan_images);
  tcase_add_test(analyses, test_analysis_reads_vulkan_buffers);
  tcase_add_test(analyses, test_filters_read_vulkan_images);
  tcase_add_test(analyses, test_filters_write_vulkan_images);
  tcase_add_test(analyses, test_chain_between_vulkan_elements);
  tcase_add_test(analyses, test_drawing_into_vulkan_images);
  tcase_add_test(analyses, test_drawing_into_vulkan_buffers_is_refused);
  tcase_add_test(analyses, test_copies_submit_on_the_upstream_queue);
  tcase_add_test(analyses, test_runs_on_the_application_device);
  tcase_add_test(analyses, test_instance_below_1_2_is_not_shared);
  return suite;
}

}  // namespace

int main(int argc, char** argv) {
  return vktest::RunRuntimeSuite(&argc, &argv, gstvulkan_suite(), "gstvulkan", __FILE__);
}
