// vkcompute-decoder-checks MEDIA_DIR [--vulkan]: on the lent GPU (bench/gpu-checks.sh, after
// bundle.sh --media), decoders' frames in GPU memory into our elements.
//
// NVIDIA's decoders (the default): their CUDA memory into our elements, and our filters' frames out
// in CUDA memory (read back by cudadownload), give the messages and the frames (every visible byte)
// that the same pipelines give through system memory, across a flushing seek and state cycles, and
// a damaged stream ends in EOS or a clean error, never a crash or a hang; so does a resolution change
// mid-stream; played through, each decoded frame is copied out of CUDA memory once, whatever the chain
// of our elements. Per case: "equal" or the first difference. Last, a CUDA context lost mid-stream (a
// faulting kernel in the decoder's context, and in the one our element made for its CUDA output),
// each in a process of its own, ends in an error on the bus and NULL, never a hang or a crash, and
// the Vulkan device works on.
//
// --vulkan (GStreamer 1.24+: bundle.sh --root): GStreamer's Vulkan Video decoders (vulkanh264dec,
// vulkanh265dec: NV12 in memory:VulkanImage) into our elements. Each of our elements runs on the
// decoder's GstVulkanDevice (its gst-vulkan-device property) with no upload and no download, and the
// messages and frames (read back by vulkandownload) equal those of the same elements after NVIDIA's
// decoder through system memory, as played and after a flushing seek (not state cycles: GStreamer's
// Vulkan elements started a second time are not reliable, docs/design.md).
//
// Exit status 1 when any case differs or fails.
#include <gst/gst.h>
#include <gst/video/video.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <future>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "common/cuda_fault.h"
#include "cuda/gstcudamemory.hpp"

// The runtime's category (gst/vk/device.cpp), which the plugin's init makes: here the CUDA
// helpers are linked without the plugin.
GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_runtime_debug);

namespace {

constexpr GstClockTime kSeekTo = 2 * GST_SECOND;
constexpr GstClockTime kSeekStop = 4 * GST_SECOND;
constexpr guint kFramesBeforeSeek = 40;
constexpr gint64 kWaitUs = 60'000'000;

// What a run saw: each of our elements' messages by message name and frame timestamp (a frame seen twice,
// before a seek or in two cycles, posts the same message), the last error, and whether it ended.
struct Seen {
  std::map<std::string, std::map<GstClockTime, std::string>> messages;
  std::map<GstClockTime, uint64_t> frames;  // a hash of each frame's visible bytes at the sink
  std::string error;
  bool eos = false;
  // Our elements (those with a gst-vulkan-device property) at the end of the run: how many, how many
  // ran on a device of GStreamer's, and their uploads and downloads.
  int ours = 0, on_gstreamers_device = 0;
  guint64 copies = 0;
  guint64 cuda_copies = 0;  // frames our elements copied out of CUDA memory
  guint64 buffers = 0;      // frames at the sink in the last state cycle (two may share a timestamp)
};

std::atomic<guint64> g_cuda_copies{0};

// Counts our elements' copies of frames out of CUDA memory, from the base class's line for each
// (FrameStream::bind_cuda_input(), at LOG level), and passes warnings and errors on.
void count_cuda_copies(GstDebugCategory* category, GstDebugLevel level, const gchar* file, const gchar* function,
                       gint line, GObject* object, GstDebugMessage* message, gpointer data) {
  if (level <= GST_LEVEL_WARNING)
    gst_debug_log_default(category, level, file, function, line, object, message, data);
  if (level == GST_LEVEL_LOG && g_str_equal(gst_debug_category_get_name(category), "vkcomputefilter") &&
      g_str_has_suffix(gst_debug_message_get(message), ": frame copied out of CUDA memory"))
    g_cuda_copies++;
}

// Fills `seen`'s counts of our elements in `pipeline`, while it still plays.
void count_ours(GstElement* pipeline, Seen& seen) {
  GstIterator* it = gst_bin_iterate_recurse(GST_BIN(pipeline));
  GValue item = G_VALUE_INIT;
  while (gst_iterator_next(it, &item) == GST_ITERATOR_OK) {
    GstElement* element = GST_ELEMENT(g_value_get_object(&item));
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(element), "gst-vulkan-device")) {
      GstObject* device = nullptr;
      guint64 uploads = 0, downloads = 0;
      g_object_get(element, "gst-vulkan-device", &device, "uploads", &uploads, "downloads", &downloads,
                   nullptr);
      seen.ours++;
      seen.on_gstreamers_device += device != nullptr;
      seen.copies += uploads + downloads;
      if (device) gst_object_unref(device);
    }
    g_value_reset(&item);
  }
  gst_iterator_free(it);
}

std::atomic<guint> g_frames{0};

// FNV-1a of the visible bytes of every row of every plane (strides differ between the paths).
uint64_t frame_hash(GstBuffer* buffer, GstCaps* caps) {
  GstVideoInfo info;
  GstVideoFrame frame;
  if (!caps || !gst_video_info_from_caps(&info, caps) ||
      !gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ))
    return 0;
  uint64_t hash = 1469598103934665603ull;
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&frame); ++p) {
    const guint8* data = static_cast<const guint8*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p));
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p);
    const guint rows = GST_VIDEO_FRAME_COMP_HEIGHT(&frame, p);
    const guint row_bytes = GST_VIDEO_FRAME_COMP_WIDTH(&frame, p) * GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, p);
    for (guint y = 0; y < rows; ++y)
      for (guint x = 0; x < row_bytes; ++x) hash = (hash ^ data[gsize(y) * stride + x]) * 1099511628211ull;
  }
  gst_video_frame_unmap(&frame);
  return hash;
}

// Counts the frames at the sink and keeps their hashes (`data`: the run's Seen).
GstPadProbeReturn count_frame(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  GstCaps* caps = gst_pad_get_current_caps(pad);
  static_cast<Seen*>(data)->frames[GST_BUFFER_PTS(buffer)] = frame_hash(buffer, caps);
  if (caps) gst_caps_unref(caps);
  g_frames++;
  return GST_PAD_PROBE_OK;
}

// Pops the bus until EOS, an error or `until_frames` frames at the sink (0: no such end).
void drain(GstElement* pipeline, Seen& seen, guint until_frames) {
  GstBus* bus = gst_element_get_bus(pipeline);
  const gint64 deadline = g_get_monotonic_time() + kWaitUs;
  while (g_get_monotonic_time() < deadline && !(until_frames && g_frames >= until_frames)) {
    GstMessage* msg = gst_bus_timed_pop(bus, 10 * GST_MSECOND);
    if (!msg) continue;
    if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ELEMENT) {
      const GstStructure* s = gst_message_get_structure(msg);
      GstClockTime ts = GST_CLOCK_TIME_NONE;
      gst_structure_get_uint64(s, "timestamp", &ts);
      gchar* text = gst_structure_to_string(s);
      seen.messages[gst_structure_get_name(s)][ts] = text;  // names of elements differ between runs
      g_free(text);
    } else if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR) {
      GError* error = nullptr;
      gchar* debug = nullptr;
      gst_message_parse_error(msg, &error, &debug);
      seen.error = std::string(GST_OBJECT_NAME(GST_MESSAGE_SRC(msg))) + ": " + error->message + " (" +
                   (debug ? std::string(debug).substr(0, 200) : "") + ")";
      g_free(debug);
      g_error_free(error);
      gst_message_unref(msg);
      break;
    } else if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_EOS) {
      seen.eos = true;
      gst_message_unref(msg);
      break;
    }
    gst_message_unref(msg);
  }
  gst_object_unref(bus);
}

// Runs `description` (its sink named "out") in `scenario`: "play" to EOS, "seek" (a flushing seek
// from 2 s to 4 s after 40 frames, then to EOS), "cycles" (three times 20 frames and back to NULL, then to
// EOS).
Seen run(const std::string& description, const std::string& scenario) {
  Seen seen;
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(description.c_str(), &error);
  if (!pipeline) {
    seen.error = std::string("parse: ") + (error ? error->message : "?");
    g_clear_error(&error);
    return seen;
  }
  GstElement* out = gst_bin_get_by_name(GST_BIN(pipeline), "out");
  GstPad* pad = gst_element_get_static_pad(out, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, count_frame, &seen, nullptr);
  gst_object_unref(pad);
  gst_object_unref(out);
  g_cuda_copies = 0;
  const int cycles = scenario == "cycles" ? 3 : 0;
  for (int c = 0; c < cycles && seen.error.empty(); ++c) {
    g_frames = 0;
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    drain(pipeline, seen, 20);
    gst_element_set_state(pipeline, GST_STATE_NULL);
  }
  g_frames = 0;
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  if (scenario == "seek") {
    drain(pipeline, seen, kFramesBeforeSeek);
    // A stop too: where a stream ends then does not depend on how far it got before the seek (a test
    // source's num-buffers counts the frames before it).
    if (!gst_element_seek(pipeline, 1.0, GST_FORMAT_TIME,
                          GstSeekFlags(GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE), GST_SEEK_TYPE_SET,
                          kSeekTo, GST_SEEK_TYPE_SET, kSeekStop))
      seen.error = "the seek was refused";
  }
  if (seen.error.empty()) drain(pipeline, seen, 0);
  count_ours(pipeline, seen);
  seen.cuda_copies = g_cuda_copies;
  seen.buffers = g_frames;
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  if (seen.error.empty() && !seen.eos) seen.error = "no EOS within 60 s";
  // After a seek, only frames from its position on are certain to be seen in both runs.
  if (scenario == "seek") {
    for (auto& [element, by_time] : seen.messages)
      by_time.erase(by_time.begin(), by_time.lower_bound(kSeekTo));
    seen.frames.erase(seen.frames.begin(), seen.frames.lower_bound(kSeekTo));
  }
  return seen;
}

// "equal", or what differs first, between a run in the decoder's GPU memory (`gpu`, named `memory`)
// and one through system memory.
std::string compare(const Seen& gpu, const Seen& system, const std::string& memory = "CUDA memory") {
  if (!gpu.error.empty() || !system.error.empty())
    return "ERROR (" + memory + ": " + (gpu.error.empty() ? "none" : gpu.error) +
           "; system: " + (system.error.empty() ? "none" : system.error) + ")";
  if (gpu.messages.size() != system.messages.size()) return "DIFFERENT: not the same elements posting";
  if (gpu.frames.size() != system.frames.size()) {
    const auto first_missing = [](const Seen& in, const Seen& from) {
      for (const auto& [ts, hash] : in.frames)
        if (!from.frames.count(ts)) return std::to_string(ts);
      return std::string("none");
    };
    return "DIFFERENT: " + std::to_string(gpu.frames.size()) + " frames at the sink with " + memory + ", " +
           std::to_string(system.frames.size()) + " through system memory (first only with " + memory + ": " +
           first_missing(gpu, system) + " ns, only through system memory: " + first_missing(system, gpu) +
           " ns)";
  }
  for (const auto& [ts, hash] : gpu.frames) {
    const auto it = system.frames.find(ts);
    if (it == system.frames.end() || it->second != hash || hash == 0)
      return "DIFFERENT: the frame at " + std::to_string(ts) + " ns";
  }
  std::string counts = std::to_string(gpu.frames.size()) + " frames";
  for (const auto& [element, by_time] : gpu.messages) {
    const auto other = system.messages.find(element);
    if (other == system.messages.end()) return "DIFFERENT: " + element + " posts only with " + memory;
    if (by_time != other->second) {
      for (const auto& [ts, text] : by_time) {
        const auto it = other->second.find(ts);
        if (it == other->second.end() || it->second != text)
          return "DIFFERENT: " + element + " at " + std::to_string(ts) + " ns: " + text.substr(0, 160);
      }
      return "DIFFERENT: " + element + " posts more frames through system memory";
    }
    counts += ", " + element + " " + std::to_string(by_time.size());
  }
  return "equal (" + counts + ")";
}

// Where a pipeline of lost_context() loses its CUDA context: at the `at_frame`th frame through the
// pad the probe is on.
struct Fault {
  const CudaFunctions* cu = nullptr;
  guint at_frame = 30;
  guint frames = 0;
  bool fired = false;
  std::string report;
};

// Faults the CUDA context of the frame (the decoder's, which our elements share) at the chosen frame.
GstPadProbeReturn fault_context(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto* fault = static_cast<Fault*>(data);
  if (++fault->frames != fault->at_frame) return GST_PAD_PROBE_OK;
  std::string error;
  void* context = vkc::cuda::context_of(gst_buffer_peek_memory(GST_PAD_PROBE_INFO_BUFFER(info), 0), error);
  if (!context) {
    fault->report = "no CUDA context: " + error;
    return GST_PAD_PROBE_OK;
  }
  vktest::CudaFault kernel(*fault->cu, CUcontext(context));
  fault->fired = kernel.fire(fault->report);
  return GST_PAD_PROBE_OK;
}

// `description` (its element of ours named "target", its sink "out") losing the CUDA context of
// the frames through the target's `pad` mid-stream: "clear error (...)" when an error reaches the
// bus and the pipeline goes to NULL within 30 s; what went wrong otherwise. A hang ends the process.
std::string lost_context(const std::string& description, const char* pad_name, const CudaFunctions& cu) {
  Seen seen;
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(description.c_str(), &error);
  if (!pipeline) {
    std::string why = std::string("parse: ") + (error ? error->message : "?");
    g_clear_error(&error);
    return why;
  }
  Fault fault{.cu = &cu};
  GstElement* target = gst_bin_get_by_name(GST_BIN(pipeline), "target");
  GstPad* pad = gst_element_get_static_pad(target, pad_name);
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, fault_context, &fault, nullptr);
  gst_object_unref(pad);
  gst_object_unref(target);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  drain(pipeline, seen, 0);
  auto stopped =
      std::async(std::launch::async, [pipeline] { return gst_element_set_state(pipeline, GST_STATE_NULL); });
  if (stopped.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
    std::printf("HANG: %s did not reach NULL within 30 s after losing its CUDA context\n",
                description.c_str());
    std::fflush(stdout);
    std::_Exit(1);
  }
  gst_object_unref(pipeline);
  if (!fault.fired)
    return "NOT FAULTED after " + std::to_string(fault.frames) + " frames: " + fault.report + " (" +
           (seen.error.empty() ? std::string(seen.eos ? "EOS" : "no end") : seen.error) + ")";
  if (seen.error.empty())
    return std::string("NO ERROR (") + (seen.eos ? "EOS" : "neither error nor EOS") + " after " +
           fault.report + ")";
  return "clear error (" + fault.report + " -> " + seen.error + ")";
}

// The pipelines that lose their CUDA context mid-stream: the decoder's frames in (the decoder's
// context lost, at lumamax's input), and frames out in CUDA memory of a context our element made (at
// rgb2yuv's output).
struct LostCase {
  std::string description;
  const char* pad;
};
std::vector<LostCase> lost_cases(const std::string& media) {
  return {
      {"filesrc location=" + media +
           "/h264-1080p.mp4 ! qtdemux ! h264parse ! nvh264dec ! lumamax name=target ! histogram ! fakesink "
           "name=out",
       "sink"},
      {"videotestsrc num-buffers=150 pattern=ball ! video/x-raw,format=RGBA,width=1920,height=1080 ! rgb2yuv "
       "name=target ! video/x-raw(memory:CUDAMemory),format=NV12 ! cudadownload ! video/x-raw ! fakesink "
       "name=out",
       "src"},
  };
}

// Lost case `index` in this process: a clear error, then a pipeline of ours on the same Vulkan
// device plays (no frame of ours waits for a copy the lost context dropped). Exit status 0 when both
// hold.
int lost_case(const std::string& media, size_t index) {
  // A hang anywhere (the pipeline after the loss, the device's teardown) ends the child with
  // SIGALRM, which the parent reports.
  alarm(120);
  std::string why;
  const CudaFunctions* cu = vkc::cuda::driver(why);
  const LostCase c = lost_cases(media).at(index);
  const std::string verdict = cu ? lost_context(c.description, c.pad, *cu) : "NO CUDA: " + why;
  std::printf("lost CUDA context | %s: %s\n", c.description.substr(c.description.rfind('/') + 1).c_str(),
              verdict.c_str());
  const Seen after =
      run("videotestsrc num-buffers=60 ! video/x-raw,format=NV12,width=1920,height=1080 ! lumamax ! fakesink "
          "name=out",
          "play");
  const bool device_works = after.error.empty() && after.eos && after.frames.size() == 60;
  std::printf("  then, in the same process, videotestsrc ! lumamax: %zu frames, %s\n", after.frames.size(),
              after.error.empty() ? (after.eos ? "EOS" : "no EOS") : after.error.c_str());
  return verdict.rfind("clear error", 0) == 0 && device_works ? 0 : 1;
}

}  // namespace

// The --vulkan checks (above).
int vulkan_checks(const std::string& media) {
  struct Case {
    std::string clip, codec, elements;
  };
  const std::vector<Case> cases = {
      {"h264-1080p.mp4", "h264", "lumamax count=4 ! histogram"},
      {"h265-1080p.mp4", "h265", "morph ! lumamax"},
      {"h264-1080p.mp4", "h264", "morph operation=open width=9 height=9 ! lumamax ! histogram"},
      // Behind a queue: each frame copied on the decoder's thread (gst/base/decodedcopies.hpp). A
      // filter last, as vulkandownload behind a queue would race the decoder for its own frames.
      {"h264-1080p.mp4", "h264", "queue ! lumamax count=4 ! histogram ! morph"},
      {"h265-1080p.mp4", "h265", "queue ! morph ! lumamax"},
  };
  int failures = 0;
  for (const Case& c : cases) {
    const std::string source =
        "filesrc location=" + media + "/" + c.clip + " ! qtdemux ! " + c.codec + "parse ! ";
    for (const std::string scenario : {"play", "seek"}) {
      const Seen vulkan =
          run(source + "vulkan" + c.codec + "dec ! " + c.elements + " ! vulkandownload ! fakesink name=out",
              scenario);
      const Seen nvidia = run(
          source + "nv" + c.codec + "dec ! video/x-raw ! " + c.elements + " ! fakesink name=out", scenario);
      std::string verdict = compare(vulkan, nvidia, "Vulkan memory");
      if (vulkan.ours == 0 || vulkan.on_gstreamers_device != vulkan.ours || vulkan.copies != 0)
        verdict = "NOT ON GSTREAMER'S DEVICE: " + std::to_string(vulkan.on_gstreamers_device) + " of " +
                  std::to_string(vulkan.ours) + " elements, " + std::to_string(vulkan.copies) +
                  " uploads and downloads; " + verdict;
      failures += verdict.rfind("equal", 0) != 0;
      std::printf("vulkan%sdec | %s | %s: %s\n", c.codec.c_str(), c.elements.c_str(), scenario.c_str(),
                  verdict.c_str());
      std::fflush(stdout);
    }
  }
  std::printf("%d of %zu Vulkan decoder cases differ or fail\n", failures, cases.size() * 2);
  return failures ? 1 : 0;
}

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  GST_DEBUG_CATEGORY_INIT(gst_vkcompute_runtime_debug, "vkcompute", 0, "vkcompute Vulkan runtime");
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MEDIA_DIR [--vulkan] (bench/bundle.sh --media makes it)\n", argv[0]);
    return 2;
  }
  const std::string media = argv[1];
  if (argc == 4 && std::string(argv[2]) == "--lost") return lost_case(media, std::stoul(argv[3]));
  if (argc == 3 && std::string(argv[2]) == "--vulkan") return vulkan_checks(media);
  // Our elements' copies out of CUDA memory, counted from their log lines (none printed).
  gst_debug_set_active(TRUE);
  gst_debug_set_threshold_for_name("vkcomputefilter", GST_LEVEL_LOG);
  gst_debug_remove_log_function(gst_debug_log_default);
  gst_debug_add_log_function(count_cuda_copies, nullptr, nullptr);
  // A damaged copy of the H.264 elementary stream: a run of garbage in its middle.
  const std::string damaged = "/tmp/vkc-damaged.h264";
  {
    std::ifstream in(media + "/h264-1080p.h264", std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (size_t i = bytes.size() / 2; i < bytes.size() / 2 + 65536 && i < bytes.size(); ++i)
      bytes[i] = char(i * 131);
    std::ofstream(damaged, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
  }
  // The state cycles read elementary streams: a demuxer's pads, linked once by gst_parse_launch(),
  // are not linked again after NULL.
  // `cuda` runs after the source as it is (CUDA memory where the source gives it); `system` after
  // "video/x-raw" (system memory).
  struct Case {
    std::string source, cycles_source, cuda, system;
    // Whether the source resumes at the same frame after each seek. tsdemux's seek is by estimate:
    // in change.ts the first frames after a seek to 2 s differ from run to run, for the decoder
    // alone too (2 633 333 333 ns without 2 666 666 666, or the other way, in either memory: runs
    // 107-108), so its seek compares nothing of ours.
    bool repeatable_seek = true;
  };
  const auto file = [&](const std::string& name, const std::string& chain) {
    return "filesrc location=" + name + " ! " + chain;
  };
  const std::string mp4_264 = file(media + "/h264-1080p.mp4", "qtdemux ! h264parse ! nvh264dec");
  const std::string mp4_265 = file(media + "/h265-1080p.mp4", "qtdemux ! h265parse ! nvh265dec");
  const std::string es_264 = file(media + "/h264-1080p.h264", "h264parse ! nvh264dec");
  const std::string es_265 = file(media + "/h265-1080p.h265", "h265parse ! nvh265dec");
  const std::string es_damaged = file(damaged, "h264parse ! nvh264dec");
  // 1080p, 720p, then 1080p again: caps change mid-stream.
  const std::string ts_change = file(media + "/change.ts", "tsdemux ! h264parse ! nvh264dec");
  const std::string es_change = file(media + "/change.h264", "h264parse ! nvh264dec");
  const std::string rgba =
      "videotestsrc num-buffers=150 pattern=ball ! capsfilter "
      "caps=video/x-raw,format=RGBA,width=1920,height=1080";
  // Frames out in CUDA memory, read back by cudadownload (which keeps the context of the decoder).
  const std::string cuda_out = " ! cudadownload ! video/x-raw";
  const std::string open9 = "morph operation=open width=9 height=9";
  const std::vector<Case> cases = {
      {mp4_264, es_264, "lumamax count=4 ! histogram", "lumamax count=4 ! histogram"},
      {mp4_265, es_265, "lumamax count=4 ! histogram", "lumamax count=4 ! histogram"},
      {mp4_264, es_264, "morph operation=dilate width=5 height=5 ! lumamax ! histogram",
       "morph operation=dilate width=5 height=5 ! lumamax ! histogram"},
      {es_damaged, es_damaged, "lumamax ! histogram", "lumamax ! histogram"},
      {mp4_264, es_264, open9 + cuda_out, open9},
      {mp4_265, es_265, "histogram draw=true" + cuda_out, "histogram draw=true"},
      {rgba, rgba, "rgb2yuv ! video/x-raw(memory:CUDAMemory),format=NV12" + cuda_out,
       "rgb2yuv ! video/x-raw,format=NV12"},
      {mp4_264, es_264, open9 + " ! " + open9 + " ! video/x-raw(memory:CUDAMemory)" + cuda_out,
       open9 + " ! " + open9},
      // The copy out of CUDA memory that the first element of ours makes rides on the frame to the
      // others (gst/base/cudacopies.hpp): through a queue, past a filter, and from a filter's output
      // in CUDA memory to the analyses after it.
      {mp4_264, es_264, "lumamax count=4 ! queue ! histogram", "lumamax count=4 ! queue ! histogram"},
      {mp4_264, es_264, "lumamax ! " + open9 + " ! histogram", "lumamax ! " + open9 + " ! histogram"},
      {mp4_265, es_265, open9 + " ! video/x-raw(memory:CUDAMemory) ! lumamax count=4 ! histogram" + cuda_out,
       open9 + " ! lumamax count=4 ! histogram"},
      {ts_change, es_change, "lumamax count=4 ! histogram", "lumamax count=4 ! histogram", false},
      {ts_change, es_change, open9 + cuda_out, open9, false},
  };
  int failures = 0;
  size_t cases_run = 0;
  for (const Case& c : cases) {
    for (const std::string scenario : {"play", "seek", "cycles"}) {
      if (scenario == "seek" && !c.repeatable_seek) continue;
      cases_run++;
      const std::string& source = scenario == "cycles" ? c.cycles_source : c.source;
      const Seen cuda = run(source + " ! " + c.cuda + " ! fakesink name=out", scenario);
      const Seen system = run(source + " ! video/x-raw ! " + c.system + " ! fakesink name=out", scenario);
      std::string verdict = compare(cuda, system);
      // Played through, each decoded frame is copied out of CUDA memory once, whatever the chain.
      const guint64 decoded = c.source.find("dec") != std::string::npos ? cuda.buffers : 0;
      if (scenario == "play" && verdict.rfind("equal", 0) == 0 && cuda.cuda_copies != decoded)
        verdict = "COPIED " + std::to_string(cuda.cuda_copies) + " TIMES OUT OF CUDA MEMORY for " +
                  std::to_string(decoded) + " decoded frames; " + verdict;
      // The damaged clip may end in an error, the same way both times; it must end.
      const bool damaged_case = source.find(damaged) != std::string::npos;
      const bool ok = verdict.rfind("equal", 0) == 0 || (damaged_case && cuda.error == system.error);
      failures += !ok;
      std::printf("%s | %s | %s: %s\n", source.substr(source.rfind('/') + 1).c_str(), c.cuda.c_str(),
                  scenario.c_str(), verdict.c_str());
      std::fflush(stdout);
    }
  }
  // A lost context, each case in a process of its own: once a context of the process has faulted,
  // NVIDIA's decoder no longer opens in it ("Failed to open decoder") nor does a new context
  // (1.22, driver 580). A crash shows as the child's signal.
  int lost_failures = 0;
  for (size_t i = 0; i < lost_cases(media).size(); ++i) {
    const std::string index = std::to_string(i);
    gchar* child_argv[] = {const_cast<gchar*>("/proc/self/exe"), const_cast<gchar*>(media.c_str()),
                           const_cast<gchar*>("--lost"), const_cast<gchar*>(index.c_str()), nullptr};
    gchar* out = nullptr;
    gint status = 0;
    GError* spawn_error = nullptr;
    const bool spawned = g_spawn_sync(nullptr, child_argv, nullptr, G_SPAWN_DEFAULT, nullptr, nullptr, &out,
                                      nullptr, &status, &spawn_error);
    std::printf("%s", out ? out : "");
    if (!spawned)
      std::printf("lost CUDA context, case %zu: not run (%s)\n", i, spawn_error->message);
    else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
      std::printf("lost CUDA context, case %zu: HANG (no end within 120 s)\n", i);
    else if (WIFSIGNALED(status))
      std::printf("lost CUDA context, case %zu: CRASHED (signal %d)\n", i, WTERMSIG(status));
    lost_failures += !spawned || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    g_free(out);
    g_clear_error(&spawn_error);
    std::fflush(stdout);
  }
  std::printf("%d of %zu cases differ or fail; %d of %zu lost-context cases fail\n", failures, cases_run,
              lost_failures, lost_cases(media).size());
  return failures || lost_failures ? 1 : 0;
}
