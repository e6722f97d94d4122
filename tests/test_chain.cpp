// Chains of vkcompute elements keep frames in device memory between them (memory:VkComputeDevice):
// the links between two of ours carry the feature and device memory, the chain uploads each frame
// once and downloads it once (the elements' `uploads` and `downloads`), and its frames and messages
// are those of the same elements separated by `videoconvert ! video/x-raw`, which forces system
// memory on every link (videoconvert alone passes device memory on when it converts nothing, as
// it does any memory, and so does the device query). A videoconvert alone between two of ours
// keeps the frames on the device. Seeded random chains, analysis elements at either end, and a tee whose
// stock branch maps the device memory.
#include <glib/gstdio.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include <unistd.h>

#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "chain/chain_frames.h"
#include "common/bus_wait.h"
#include "common/test_seed.h"
#include "common/vktest.h"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

namespace {

using chaintest::kFeature;
using chaintest::kTimeout;
using chaintest::Lut;
using chaintest::PullAllAndStop;
using chaintest::RandomFrame;
using chaintest::VisibleBytes;

constexpr guint kFrames = 4;
// Between elements: system memory on every link, as before frames stayed on the device.
const char* const kSeparated = " ! videoconvert ! video/x-raw ! ";

// A chain: its elements (named e0, e1, ... in order) and the input it gets.
struct Chain {
  std::vector<std::string> elements;
  std::string format = "RGBA";
  int width = 97, height = 61;
  std::string output_caps;  // after the last element, when it converts ("video/x-raw,format=NV12")

  // "e0 ! e1 ! ...", separated by `link` (" ! ", kSeparated, ...).
  std::string Describe(const std::string& link) const {
    std::string text;
    for (size_t i = 0; i < elements.size(); ++i)
      text += (i ? link : "") + elements[i] + " name=e" + std::to_string(i);
    return text;
  }
};

// What a run of a chain gave: the output frames' visible bytes and the messages, in order.
struct Run {
  std::vector<std::string> frames;
  std::vector<std::string> messages;
  std::vector<guint64> uploads, downloads;  // per element
  int device_links = 0;                     // links into an element whose caps have kFeature
};

bool HasFeature(GstPad* pad) {
  GstCaps* caps = gst_pad_get_current_caps(pad);
  fail_unless(caps != nullptr, "%s:%s has no caps", GST_DEBUG_PAD_NAME(pad));
  const bool has = gst_caps_features_contains(gst_caps_get_features(caps, 0), kFeature);
  gst_caps_unref(caps);
  return has;
}

// Runs `chain` (links " ! ", kSeparated, ...) on kFrames seeded random frames. With
// `check_links`, also checks every link between two of the chain's elements: the feature in its
// caps and device memory in its buffers, and system memory at both ends.
Run RunChain(const Chain& chain, const std::string& link, const std::string& seed_name, bool check_links) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, gst_video_format_from_string(chain.format.c_str()), chain.width,
                            chain.height);
  GstCaps* caps = gst_video_info_to_caps(&info);
  gchar* caps_text = gst_caps_to_string(caps);
  const std::string description =
      std::string("appsrc name=src format=time caps=\"") + caps_text + "\" ! " + chain.Describe(link) +
      (chain.output_caps.empty() ? "" : " ! " + chain.output_caps) + " ! appsink name=sink sync=false";
  g_free(caps_text);
  gst_caps_unref(caps);
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  const size_t n = chain.elements.size();
  std::vector<GstElement*> elements;
  std::vector<chaintest::MemoryCount> counts(n);
  for (size_t i = 0; i < n; ++i) {
    elements.push_back(gst_bin_get_by_name(GST_BIN(pipeline), ("e" + std::to_string(i)).c_str()));
    chaintest::CountMemoryAt(elements[i], "sink", &counts[i]);
  }
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE, "%s",
              description.c_str());
  chaintest::PushRandomFrames(src, info, seed_name, kFrames);
  Run run;
  while (GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), kTimeout)) {
    run.frames.push_back(VisibleBytes(sample));
    gst_sample_unref(sample);
    if (run.frames.size() == kFrames) break;
  }
  vktest::ExpectEos(pipeline, kTimeout, description, &run.messages);
  chaintest::GroupBySource(run.messages);
  for (size_t i = 0; i < n; ++i) {
    guint64 up = 0, down = 0;
    g_object_get(elements[i], "uploads", &up, "downloads", &down, nullptr);
    run.uploads.push_back(up);
    run.downloads.push_back(down);
    GstPad* sinkpad = gst_element_get_static_pad(elements[i], "sink");
    run.device_links += HasFeature(sinkpad) ? 1 : 0;
    if (!check_links) {
      gst_object_unref(sinkpad);
      continue;
    }
    const bool inner = i > 0;  // the link from e(i-1) to e(i)
    fail_unless(HasFeature(sinkpad) == inner, "%s: the caps into e%zu %s %s", description.c_str(), i,
                inner ? "lack" : "have", kFeature);
    fail_unless(counts[i].buffers == int(kFrames) && counts[i].in_device == (inner ? int(kFrames) : 0),
                "%s: e%zu received %d buffers, %d of them in device memory", description.c_str(), i,
                counts[i].buffers.load(), counts[i].in_device.load());
    gst_object_unref(sinkpad);
  }
  if (check_links) {
    GstPad* last = gst_element_get_static_pad(elements.back(), "src");
    fail_if(HasFeature(last), "%s: the chain's output caps have %s", description.c_str(), kFeature);
    gst_object_unref(last);
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);
  for (GstElement* e : elements) gst_object_unref(e);
  gst_object_unref(sink);
  gst_object_unref(src);
  gst_object_unref(pipeline);
  fail_unless(run.frames.size() == kFrames, "%s: %zu frames came out", description.c_str(),
              run.frames.size());
  return run;
}

// The frames and messages of `chain` in device memory equal those with system memory between.
void ExpectSameAsSeparated(const Chain& chain, const std::string& seed_name, Run* device_run = nullptr) {
  const Run together = RunChain(chain, " ! ", seed_name, true);
  const Run separated = RunChain(chain, kSeparated, seed_name, false);
  const std::string what = vktest::WithSeed(chain.Describe(" ! ") + " on " + chain.format + " " +
                                            std::to_string(chain.width) + "x" + std::to_string(chain.height));
  for (guint f = 0; f < kFrames; ++f)
    fail_unless(together.frames[f] == separated.frames[f],
                "%s: frame %u differs from the chain with system memory between", what.c_str(), f);
  fail_unless(together.messages == separated.messages,
              "%s: %zu messages, %zu with system memory between; first: %s", what.c_str(),
              together.messages.size(), separated.messages.size(),
              together.messages.empty() ? "none" : together.messages.front().c_str());
  if (device_run) *device_run = together;
}

}  // namespace

// The chain: one upload (lut), one download (rgb2yuv), nothing between, and device memory
// on every inner link.
GST_START_TEST(test_chain_uploads_once_and_downloads_once) {
  Chain chain{
      {Lut(), "morph operation=close width=5 height=3", "lumamax count=2", "histogram bins=16", "rgb2yuv"},
      "RGBA",
      97,
      61,
      "video/x-raw,format=NV12"};
  Run run;
  ExpectSameAsSeparated(chain, "five", &run);
  // Every frame's message from lumamax (e2), then histogram's (e3): the comparison above held them.
  fail_unless(run.messages.size() == 2 * kFrames, "%zu messages from the chain", run.messages.size());
  fail_unless(g_str_has_prefix(run.messages.front().c_str(), "e2: lumamax,") &&
                  g_str_has_prefix(run.messages.back().c_str(), "e3: histogram,"),
              "messages from the chain: %s ... %s", run.messages.front().c_str(),
              run.messages.back().c_str());
  const std::vector<guint64> uploads = {kFrames, 0, 0, 0, 0}, downloads = {0, 0, 0, 0, kFrames};
  fail_unless(run.uploads == uploads,
              "uploads per element: %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
              " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
              run.uploads[0], run.uploads[1], run.uploads[2], run.uploads[3], run.uploads[4]);
  fail_unless(run.downloads == downloads,
              "downloads per element: %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
              " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
              run.downloads[0], run.downloads[1], run.downloads[2], run.downloads[3], run.downloads[4]);
  // A videoconvert that converts nothing passes device memory on.
  const Run converted = RunChain(chain, " ! videoconvert ! ", "five", false);
  fail_unless(converted.uploads == uploads && converted.downloads == downloads,
              "videoconvert between the elements took the frames off the device");
  // With system memory between, every element uploads, and the filters download too.
  const Run separated = RunChain(chain, kSeparated, "five", false);
  const std::vector<guint64> all = {kFrames, kFrames, kFrames, kFrames, kFrames};
  const std::vector<guint64> filters = {kFrames, kFrames, 0, 0, kFrames};
  fail_unless(separated.uploads == all && separated.downloads == filters,
              "with system memory between: uploads %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
              " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
              ", downloads %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
              " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
              ": each element should upload, each filter download",
              separated.uploads[0], separated.uploads[1], separated.uploads[2], separated.uploads[3],
              separated.uploads[4], separated.downloads[0], separated.downloads[1], separated.downloads[2],
              separated.downloads[3], separated.downloads[4]);
}
GST_END_TEST;

// Analysis elements at the head (system memory in: they copy the frame up and read the copy) and
// at the tail (device memory in: they copy it down) of a chain.
GST_START_TEST(test_analysis_at_either_end) {
  Chain chain{{"lumamax count=3", Lut(), "histogram"}, "BGRx", 64, 48, ""};
  Run run;
  ExpectSameAsSeparated(chain, "ends", &run);
  fail_unless(run.uploads == std::vector<guint64>({kFrames, 0, 0}),
              "uploads %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, run.uploads[0],
              run.uploads[1], run.uploads[2]);
  fail_unless(run.downloads == std::vector<guint64>({0, 0, kFrames}),
              "downloads %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, run.downloads[0],
              run.downloads[1], run.downloads[2]);
}
GST_END_TEST;

// Planar YUV through a chain: morph works on the Y plane and passes the chroma planes on, all of
// them in device memory, to the analysis elements, which read every plane.
GST_START_TEST(test_planar_chain) {
  for (const char* format : {"I420", "NV12", "GRAY8"}) {
    const Chain chain{{"morph operation=erode width=3 height=5", "histogram bins=32", "lumamax count=2"},
                      format,
                      97,
                      61,
                      ""};
    ExpectSameAsSeparated(chain, std::string("planar ") + format);
  }
}
GST_END_TEST;

// Every output format of rgb2yuv at a chain's tail, where the kernel writes a device copy that the
// download queue copies into the output buffer: planar, semi-planar and packed rows of odd width
// (a YUY2 row ends with a whole macro-pixel).
GST_START_TEST(test_every_format_at_the_tail) {
  for (const char* format : {"I420", "YV12", "NV12", "NV21", "Y42B", "Y444", "YUY2", "UYVY", "AYUV"}) {
    const Chain chain{{"morph operation=dilate width=3 height=3", "rgb2yuv"},
                      "RGBA",
                      97,
                      61,
                      std::string("video/x-raw,format=") + format};
    ExpectSameAsSeparated(chain, std::string("tail ") + format);
  }
}
GST_END_TEST;

// Frames deeper than 8 bits through chains: RGB graded by lut, analysed, converted by rgb2yuv to
// a deep YUV format at the tail; deep YUV filtered by morph and analysed.
GST_START_TEST(test_deep_chains) {
  const Chain chains[] = {
      {{Lut(), "histogram bins=1024", "lumamax count=2", "rgb2yuv"},
       "RGBA64_LE",
       97,
       61,
       "video/x-raw,format=P010_10LE"},
      {{Lut(), "lumamax", "rgb2yuv"}, "BGR10A2_LE", 97, 61, "video/x-raw,format=I420_10LE"},
      {{Lut(), "rgb2yuv"}, "RGB10A2_LE", 33, 17, "video/x-raw,format=Y444_16LE"},
      {{"morph operation=close width=3 height=3", "histogram bins=1024", "lumamax count=2"},
       "P010_10LE",
       97,
       61,
       ""},
  };
  for (const Chain& chain : chains) ExpectSameAsSeparated(chain, "deep " + chain.format);
}
GST_END_TEST;

// morph reads a 32-bit RGB frame in device memory in place, without unpacking it first: every
// operation and mask shape, at the head of a chain (reading the upload's device copy) and in its
// middle, for a format with alpha and one with padding (lanes the output takes from the input), 10-bit
// lanes with 2 alpha bits, and 8-byte RGBA64_LE (unpacked a word at a time) in device memory.
GST_START_TEST(test_morph_reads_device_frames_in_place) {
  const char* const operations[] = {"erode", "dilate", "open", "close", "gradient", "tophat", "blackhat"};
  const char* const shapes[] = {"rect", "cross", "ellipse"};
  for (const char* format : {"RGBA", "xRGB", "BGR10A2_LE", "RGBA64_LE"}) {
    Chain chain{{}, format, 97, 61, ""};
    for (size_t i = 0; i < G_N_ELEMENTS(operations); ++i)
      chain.elements.push_back(
          std::string("morph operation=") + operations[i] + " shape=" + shapes[i % G_N_ELEMENTS(shapes)] +
          " width=" + std::to_string(3 + 2 * (i % 3)) + " height=" + std::to_string(5 - 2 * (i % 2)) +
          " iterations=" + std::to_string(1 + i % 2));
    ExpectSameAsSeparated(chain, std::string("morph in place ") + format);
  }
}
GST_END_TEST;

// A rectangle's erosion, dilation, opening and closing with an output in device memory end with a
// pass that writes the output frame itself (no pack pass): one-column and wide masks, iterations,
// windows past the row table's reach, and formats whose alpha or padding lanes come from the input.
// No barrier follows that pass: lumamax at the end, which keeps the last morph's output in device
// memory, waits for it by itself (base/framebarriers.hpp).
GST_START_TEST(test_morph_writes_device_frames_directly) {
  const char* const operations[] = {"erode", "dilate", "open", "close", "dilate", "erode", "dilate"};
  const char* const masks[] = {"width=3 height=5",
                               "width=1 height=7",
                               "width=9 height=3 iterations=3",
                               "width=255 height=3 iterations=2",
                               "width=9 height=9",
                               "width=31 height=31",
                               "width=61 height=5"};
  // Frames smaller than the masks too, where the windows are clamped to the frame.
  const std::tuple<const char*, int, int> frames[] = {
      {"RGBA", 97, 61}, {"xRGB", 97, 61}, {"BGRx", 97, 61},       {"RGBA", 1, 1},
      {"ABGR", 3, 2},   {"RGBx", 2, 7},   {"BGR10A2_LE", 97, 61}, {"RGBA", 291, 133}};
  for (const auto& [format, width, height] : frames) {
    Chain chain{{}, format, width, height, ""};
    for (size_t i = 0; i < G_N_ELEMENTS(operations); ++i)
      chain.elements.push_back(std::string("morph shape=rect operation=") + operations[i] + " " + masks[i]);
    chain.elements.push_back("lumamax");
    ExpectSameAsSeparated(chain, std::string("morph into the frame ") + format + " " + std::to_string(width) +
                                     "x" + std::to_string(height));
  }
}
GST_END_TEST;

// Seeded random chains of 2 to 5 elements with random settings, formats and sizes.
GST_START_TEST(test_random_chains) {
  std::mt19937 rng = vktest::RngFor("random chains");
  const std::vector<std::string> formats = {"RGBA", "BGRx", "RGB", "ABGR"};
  const std::vector<std::pair<int, int>> sizes = {{1, 1}, {2, 3}, {97, 61}, {33, 8}};
  const std::vector<std::string> operations = {"erode", "dilate", "open", "close", "gradient", "tophat"};
  const std::vector<std::string> shapes = {"rect", "cross", "ellipse"};
  for (int c = 0; c < 5; ++c) {
    Chain chain;
    chain.format = formats[rng() % formats.size()];
    std::tie(chain.width, chain.height) = sizes[rng() % sizes.size()];
    const int length = 2 + int(rng() % 4);
    for (int i = 0; i < length; ++i) {
      const bool last = i == length - 1;
      switch (rng() % (last ? 5 : 4)) {
        case 0:
          chain.elements.push_back(Lut() + " intensity=" + std::to_string(0.25 * (1 + rng() % 4)));
          break;
        case 1:
          chain.elements.push_back("morph operation=" + operations[rng() % operations.size()] +
                                   " shape=" + shapes[rng() % shapes.size()] +
                                   " width=" + std::to_string(1 + 2 * (rng() % 4)) +
                                   " height=" + std::to_string(1 + 2 * (rng() % 3)));
          break;
        case 2: chain.elements.push_back("lumamax count=" + std::to_string(1 + rng() % 4)); break;
        case 3:
          chain.elements.push_back("histogram bins=" + std::to_string(1 + rng() % 256) +
                                   (rng() % 2 ? " draw=true" : ""));
          break;
        default:
          chain.elements.push_back("rgb2yuv");
          chain.output_caps = rng() % 2 ? "video/x-raw,format=NV12" : "video/x-raw,format=I420";
      }
    }
    ExpectSameAsSeparated(chain, "random chain " + std::to_string(c));
  }
}
GST_END_TEST;

// A tee after lut: one branch goes on in device memory to morph, the others to stock elements,
// an appsink and a filesink, which get device memory too and map it: read back, each read back
// counting as one of lut's downloads. Both read lut's frames.
GST_START_TEST(test_tee_to_a_stock_element) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_RGBA, 97, 61);
  const std::string caps = "video/x-raw,format=RGBA,width=97,height=61,framerate=30/1";
  gchar* file = nullptr;
  const gint fd = g_file_open_tmp("vkcompute-test-chain-tee-XXXXXX.rgba", &file, nullptr);
  fail_unless(fd >= 0, "no temporary file");
  close(fd);
  struct Result {
    std::vector<std::string> frames;
    guint64 downloads = 0;
  };
  chaintest::MemoryCount at_file;
  auto run = [&](const std::string& after_lut, chaintest::MemoryCount* at_sink) {
    const std::string description =
        "appsrc name=src format=time caps=" + caps + " ! " + Lut() + " name=lut ! " + after_lut;
    GstElement* pipeline = vktest::ParsePipeline(description.c_str());
    GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    GstElement* lut = gst_bin_get_by_name(GST_BIN(pipeline), "lut");
    chaintest::CountMemoryAt(sink, "sink", at_sink);
    if (GstElement* filesink = gst_bin_get_by_name(GST_BIN(pipeline), "file")) {
      chaintest::CountMemoryAt(filesink, "sink", &at_file);
      gst_object_unref(filesink);
    }
    fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
    chaintest::PushRandomFrames(src, info, "tee", kFrames);
    Result result;
    result.frames = PullAllAndStop(pipeline, src, sink, kFrames, description);
    g_object_get(lut, "downloads", &result.downloads, nullptr);
    gst_object_unref(lut);
    return result;
  };
  chaintest::MemoryCount alone_at_sink, teed_at_sink;
  const Result alone = run("appsink name=sink sync=false", &alone_at_sink);
  const Result teed =
      run("tee name=t t. ! queue ! morph ! fakesink sync=false t. ! queue ! appsink name=sink sync=false "
          "t. ! queue ! filesink name=file location=" +
              std::string(file),
          &teed_at_sink);
  const std::string what = vktest::WithSeed("tee");
  fail_unless(alone_at_sink.in_device == 0 && alone.downloads == kFrames,
              "%s: lut alone gave %d frames in device memory, %" G_GUINT64_FORMAT " downloads", what.c_str(),
              alone_at_sink.in_device.load(), alone.downloads);
  fail_unless(teed_at_sink.in_device == int(kFrames) && at_file.in_device == int(kFrames),
              "%s: %d of %d frames reached the appsink in device memory, %d of %d the filesink", what.c_str(),
              teed_at_sink.in_device.load(), teed_at_sink.buffers.load(), at_file.in_device.load(),
              at_file.buffers.load());
  // Each frame read back once for the appsink's map and once for the filesink's.
  fail_unless(teed.downloads == 2 * kFrames, "%s: lut counted %" G_GUINT64_FORMAT " downloads behind the tee",
              what.c_str(), teed.downloads);
  std::string expected_file;
  for (guint f = 0; f < kFrames; ++f) {
    fail_unless(alone.frames[f] == teed.frames[f], "%s: frame %u differs behind the tee", what.c_str(), f);
    expected_file += alone.frames[f];
  }
  gchar* contents = nullptr;
  gsize length = 0;
  fail_unless(g_file_get_contents(file, &contents, &length, nullptr), "%s: no %s", what.c_str(), file);
  fail_unless(std::string(contents, length) == expected_file,
              "%s: the filesink wrote %zu bytes, not lut's frames", what.c_str(), length);
  g_free(contents);
  g_unlink(file);
  g_free(file);
}
GST_END_TEST;

namespace {

// appsrc (64x48 RGBA frames) ! `rest`, whose appsink is named "sink": the pipeline, its appsrc
// and appsink, for a test to push into and to hand to PullAllAndStop(), which drops them.
struct SmallRgbaPipeline {
  explicit SmallRgbaPipeline(const std::string& rest)
      : description(
            "appsrc name=src format=time caps=video/x-raw,format=RGBA,width=64,height=48,framerate=30/1 ! " +
            rest),
        pipeline(vktest::ParsePipeline(description.c_str())),
        src(gst_bin_get_by_name(GST_BIN(pipeline), "src")),
        sink(gst_bin_get_by_name(GST_BIN(pipeline), "sink")) {
    gst_video_info_set_format(&info, GST_VIDEO_FORMAT_RGBA, 64, 48);
  }

  const std::string description;
  GstElement* const pipeline;
  GstElement* const src;
  GstElement* const sink;
  GstVideoInfo info;
};

}  // namespace

// A chain whose last element's push blocks (an appsink that nobody pulls, as in a paused
// application) while the streaming thread holds the next frame's work of the elements above in its
// batch: that work still reaches the GPU, so no frame of theirs outlives the frame timeout (set
// short here), and every frame comes out once the application pulls again.
GST_START_TEST(test_blocked_downstream_does_not_stall_the_chain) {
  const std::string rest = "morph ! morph operation=erode ! appsink name=sink sync=false max-buffers=1";
  {
    // lavapipe makes a kernel's machine code at its first dispatch: with an empty shader cache (a
    // fresh machine), seconds that the short timeout would take for a stalled frame. A frame through
    // the same elements first, with the default timeout, leaves the code in the cache.
    const SmallRgbaPipeline warm(rest);
    fail_unless(gst_element_set_state(warm.pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
    chaintest::PushRandomFrames(warm.src, warm.info, "blocked downstream, warm-up", 1);
    PullAllAndStop(warm.pipeline, warm.src, warm.sink, 1, warm.description);
  }
  g_setenv("GST_VKCOMPUTE_FRAME_TIMEOUT_MS", "300", TRUE);
  const SmallRgbaPipeline run(rest);
  fail_unless(gst_element_set_state(run.pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  const guint frames = 16;  // more than the appsink and both rings behind it hold
  chaintest::PushRandomFrames(run.src, run.info, "blocked downstream", frames);
  // The frames fill the appsink and the rings behind it; the streaming thread then blocks in the
  // last element's push, longer than the frame timeout.
  g_usleep(4 * 300 * 1000);
  GstBus* bus = gst_element_get_bus(run.pipeline);
  GstMessage* error = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  fail_unless(error == nullptr, "%s: %s while downstream was blocked", run.description.c_str(),
              error ? vktest::Describe(error).c_str() : "");
  gst_object_unref(bus);
  PullAllAndStop(run.pipeline, run.src, run.sink, frames, run.description);
  g_unsetenv("GST_VKCOMPUTE_FRAME_TIMEOUT_MS");
}
GST_END_TEST;

// videocrop between two of ours: the frames stay in device memory (videocrop used to refuse them,
// "Downstream doesn't support crop for non-raw caps") and carry the crop, in the video meta's
// offsets (RGBA) or as a GstVideoCropMeta (I420), which we accept; the frames and messages are those
// of the same crop done by videocrop in system memory.
GST_START_TEST(test_videocrop_between_two_of_ours) {
  const std::pair<Chain, std::string> cases[] = {
      {{{Lut(), "morph operation=dilate width=3 height=3"}, "RGBA", 97, 61},
       "videocrop left=3 top=2 right=1 bottom=4"},
      {{{"morph operation=erode width=5 height=3", "histogram bins=8", "lumamax count=2"}, "I420", 98, 62},
       "videocrop left=4 top=2 right=2 bottom=6"},
  };
  for (const auto& [chain, crop] : cases) {
    const Run cropped = RunChain(chain, " ! " + crop + " ! ", "crop", true);
    const Run separated = RunChain(chain, kSeparated + crop + " ! ", "crop", false);
    const std::string what = vktest::WithSeed("crop") + ": " + chain.Describe(" ! " + crop + " ! ");
    for (guint f = 0; f < kFrames; ++f)
      fail_unless(cropped.frames[f] == separated.frames[f],
                  "%s: frame %u differs from the crop in system memory", what.c_str(), f);
    fail_unless(cropped.messages == separated.messages, "%s: the messages differ", what.c_str());
  }
}
GST_END_TEST;

namespace {

// What the chain's last element pushed on the streaming thread, against what it had submitted.
struct PushOrder {
  GstElement* last = nullptr;
  GThread* streaming = nullptr;
  std::atomic<guint64> entered{0};  // frames that entered the last element so far
  std::atomic<int> midstream{0};    // outputs pushed on the streaming thread before the last frame entered
  std::atomic<int> early{0};        // of them, pushed before the current frame was submitted
};

GstPadProbeReturn FrameEntered(GstPad*, GstPadProbeInfo*, gpointer data) {
  auto* order = static_cast<PushOrder*>(data);
  order->streaming = g_thread_self();
  order->entered++;
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn OutputPushed(GstPad*, GstPadProbeInfo*, gpointer data) {
  auto* order = static_cast<PushOrder*>(data);
  if (g_thread_self() != order->streaming) {
    // The completion thread's push, made slow: meanwhile the streaming thread enters the next
    // frames, so the frames finished next are held for it, on a GPU that finishes every frame
    // before the ring fills as on lavapipe.
    g_usleep(20 * 1000);
    return GST_PAD_PROBE_OK;
  }
  const guint64 entered = order->entered;
  if (entered >= 16) return GST_PAD_PROBE_OK;  // the last frame's call, or the drain at EOS
  guint64 downloads = 0;                       // one per submitted frame whose output is in host memory
  g_object_get(order->last, "downloads", &downloads, nullptr);
  order->midstream++;
  if (downloads < entered) order->early++;
  return GST_PAD_PROBE_OK;
}

}  // namespace

// The chain's last element pushes an earlier frame's output on the streaming thread only once it
// has submitted the frame it is working on (vkc::HeldOutputs): pushed from reserve(), before that
// submission, it would first have sent the thread's batch (the elements above's work for the same
// frame) in a submission of its own. Its `downloads`, counted at submission, tell the two apart.
GST_START_TEST(test_last_element_pushes_after_its_submission) {
  const SmallRgbaPipeline run(
      "morph ! rgb2yuv name=last ! video/x-raw,format=NV12 ! appsink name=sink sync=false");
  PushOrder order;
  order.last = gst_bin_get_by_name(GST_BIN(run.pipeline), "last");
  GstPad* in = gst_element_get_static_pad(order.last, "sink");
  GstPad* out = gst_element_get_static_pad(order.last, "src");
  gst_pad_add_probe(in, GST_PAD_PROBE_TYPE_BUFFER, FrameEntered, &order, nullptr);
  gst_pad_add_probe(out, GST_PAD_PROBE_TYPE_BUFFER, OutputPushed, &order, nullptr);
  fail_unless(gst_element_set_state(run.pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  const guint frames = 16;  // OutputPushed leaves the last one's call out
  chaintest::PushRandomFrames(run.src, run.info, "push order", frames);
  PullAllAndStop(run.pipeline, run.src, run.sink, frames, run.description);
  // Held outputs leave from the streaming thread, so a full ring makes it push mid-stream.
  fail_unless(order.midstream > 0, "no output was pushed on the streaming thread mid-stream (none held?)");
  fail_unless(order.early == 0,
              "%d of %d outputs pushed on the streaming thread before its frame was submitted",
              order.early.load(), order.midstream.load());
  gst_object_unref(in);
  gst_object_unref(out);
  gst_object_unref(order.last);
}
GST_END_TEST;

// A chain whose neighbours run on different devices (lavapipe listed twice, see main()): every
// link carries system memory, and the frames and messages are those of the same chain on one
// device (device memory between) and separated by system memory.
GST_START_TEST(test_chain_across_devices) {
  fail_unless(vktest::PhysicalDeviceNames().size() >= 2,
              "the loader lists %zu Vulkan devices; main() lists "
              "lavapipe twice",
              vktest::PhysicalDeviceNames().size());
  Chain chain{{Lut() + " device=0", "morph operation=open width=3 height=5 device=1",
               "lumamax count=2 device=0", "histogram bins=64 device=1", "rgb2yuv device=0"},
              "RGBA",
              97,
              61,
              "video/x-raw,format=I420"};
  const Run across = RunChain(chain, " ! ", "devices", false);
  const Run separated = RunChain(chain, kSeparated, "devices", false);
  // The same elements on the automatic choice, one device for all, frames on it between them.
  Chain one_device = chain;
  for (std::string& element : one_device.elements) element.erase(element.rfind(" device="));
  const Run together = RunChain(one_device, " ! ", "devices", true);
  for (guint f = 0; f < kFrames; ++f)
    fail_unless(across.frames[f] == separated.frames[f] && across.frames[f] == together.frames[f],
                "%s: frame %u differs across devices", vktest::WithSeed("devices").c_str(), f);
  fail_unless(across.messages == separated.messages && across.messages == together.messages,
              "%s: the messages differ across devices", vktest::WithSeed("devices").c_str());
  fail_unless(across.device_links == 0, "%d links between devices carry %s", across.device_links, kFeature);
  // System memory on every link: each element uploads, each filter downloads.
  fail_unless(across.uploads == separated.uploads && across.downloads == separated.downloads,
              "frames crossed between devices in device memory");
}
GST_END_TEST;

namespace {

// A stretch of a stream pushed into a chain through a GstHarness: its caps and frames, and whether
// a flush (FLUSH_START, FLUSH_STOP, a new segment) comes first, while the frames before it may
// still be in flight.
struct Phase {
  std::string format;
  int width, height;
  guint frames;
  bool flush_first = false;
};

// The visible bytes of the frames that come out after the last flush, in order, for the chain
// `description` fed `phases` of seeded random frames.
std::vector<std::string> RunPhases(const std::string& description, const std::vector<Phase>& phases,
                                   const std::string& seed_name) {
  GstHarness* h = gst_harness_new_parse(description.c_str());
  std::mt19937 rng = vktest::RngFor(seed_name);
  std::vector<std::string> out;
  guint n = 0, expected = 0;
  for (const Phase& phase : phases) {
    GstVideoInfo info;
    gst_video_info_set_format(&info, gst_video_format_from_string(phase.format.c_str()), phase.width,
                              phase.height);
    if (phase.flush_first) {
      fail_unless(gst_harness_push_event(h, gst_event_new_flush_start()));
      fail_unless(gst_harness_push_event(h, gst_event_new_flush_stop(TRUE)));
      GstSegment segment;
      gst_segment_init(&segment, GST_FORMAT_TIME);
      fail_unless(gst_harness_push_event(h, gst_event_new_segment(&segment)));
      // What left before the flush is not compared: it may or may not have come out.
      while (GstBuffer* stale = gst_harness_try_pull(h)) gst_buffer_unref(stale);
      out.clear();
      expected = 0;
    }
    GstCaps* caps = gst_video_info_to_caps(&info);
    gst_harness_set_src_caps(h, caps);
    for (guint f = 0; f < phase.frames; ++f, ++n) {
      fail_unless(gst_harness_push(h, RandomFrame(rng, info, n)) == GST_FLOW_OK, "%s: frame %u refused",
                  description.c_str(), n);
      expected++;
    }
  }
  // The frames that were pushed after the last flush, each with its own caps.
  while (out.size() < expected) {
    GstBuffer* buffer = gst_harness_pull(h);
    fail_unless(buffer != nullptr, "%s: %zu of %u frames came out", description.c_str(), out.size(),
                expected);
    GstCaps* caps = gst_pad_get_current_caps(h->sinkpad);
    GstSample* sample = gst_sample_new(buffer, caps, nullptr, nullptr);
    out.push_back(VisibleBytes(sample));
    gst_sample_unref(sample);
    gst_caps_unref(caps);
    gst_buffer_unref(buffer);
  }
  gst_harness_teardown(h);
  return out;
}

}  // namespace

// Caps that change mid-chain (size, then format) and a flush while frames are in flight: the
// frames are those of the same chain with system memory between.
GST_START_TEST(test_renegotiation_and_flush_mid_chain) {
  const Chain chain{
      {Lut(), "morph operation=dilate width=3 height=3", "lumamax", "histogram draw=true", "rgb2yuv"},
      "RGBA",
      0,
      0,
      "video/x-raw,format=NV12"};
  const std::vector<Phase> phases = {{"RGBA", 64, 48, 3},
                                     {"RGBA", 33, 20, 3},
                                     {"BGRx", 33, 20, 3},
                                     {"RGB", 97, 61, 3, true},
                                     {"BGRA", 16, 9, 2}};
  // gst_harness_new_parse() wraps the description in a bin, where caps need a capsfilter.
  const std::string tail = " ! capsfilter caps=" + chain.output_caps;
  const auto together = RunPhases(chain.Describe(" ! ") + tail, phases, "phases");
  const auto separated =
      RunPhases(chain.Describe(" ! videoconvert ! capsfilter caps=video/x-raw ! ") + tail, phases, "phases");
  fail_unless(together.size() == separated.size(), "%zu frames, %zu with system memory between",
              together.size(), separated.size());
  for (size_t f = 0; f < together.size(); ++f)
    fail_unless(together[f] == separated[f], "%s: frame %zu after the flush differs",
                vktest::WithSeed("phases").c_str(), f);
}
GST_END_TEST;

// Every element offers both memories on both pads, device memory first (gst-inspect-1.0 shows
// both), and nothing else but, after them, frames in GStreamer's CUDA memory (test_cuda_caps) and,
// last, in GStreamer's Vulkan memories (test_gstvulkan): both on both pads of the analyses and on the
// sink pad of the filters, images only on the src pad of the filters (they write no VulkanBuffer).
GST_START_TEST(test_pad_templates_offer_both_memories) {
  for (const char* name : {"rgb2yuv", "lumamax", "histogram", "morph", "lut"}) {
    GstElementFactory* factory = gst_element_factory_find(name);
    fail_unless(factory != nullptr, "no element %s", name);
    const bool analysis = g_str_equal(name, "lumamax") || g_str_equal(name, "histogram");
    for (const GList* t = gst_element_factory_get_static_pad_templates(factory); t; t = t->next) {
      auto* templ = static_cast<GstStaticPadTemplate*>(t->data);
      GstCaps* caps = gst_static_pad_template_get_caps(templ);
      bool device = false, system = false, vulkan = false, vulkan_buffer = false;
      for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
        GstCapsFeatures* features = gst_caps_get_features(caps, i);
        if (gst_caps_features_contains(features, "memory:VulkanImage") ||
            gst_caps_features_contains(features, "memory:VulkanBuffer")) {
          fail_unless(device && system, "%s %s: GStreamer's Vulkan memory before ours", name,
                      templ->name_template);
          vulkan = true;
          vulkan_buffer = vulkan_buffer || gst_caps_features_contains(features, "memory:VulkanBuffer");
        } else if (gst_caps_features_contains(features, kFeature)) {
          fail_if(system, "%s %s: device memory after system memory", name, templ->name_template);
          device = true;
        } else if (gst_caps_features_contains(features, "memory:CUDAMemory")) {
          fail_unless(device && system, "%s %s: CUDA memory before ours", name, templ->name_template);
          fail_if(vulkan, "%s %s: CUDA memory after GStreamer's Vulkan memory", name, templ->name_template);
        } else {
          fail_unless(gst_caps_features_is_equal(features, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY),
                      "%s %s: unexpected caps features", name, templ->name_template);
          system = true;
        }
      }
      fail_unless(device && system, "%s %s: not device memory then system memory", name,
                  templ->name_template);
      fail_unless(vulkan, "%s %s: GStreamer's Vulkan memory not offered", name, templ->name_template);
      fail_unless(vulkan_buffer == (analysis || templ->direction == GST_PAD_SINK),
                  "%s %s: GStreamer's Vulkan buffer memory %s", name, templ->name_template,
                  vulkan_buffer ? "offered" : "not offered");
      gst_caps_unref(caps);
    }
    gst_object_unref(factory);
  }
}
GST_END_TEST;

static Suite* chain_suite() {
  Suite* suite = suite_create("chain");
  TCase* tc = vktest::NewTCase("chain", 600);
  tcase_add_test(tc, test_pad_templates_offer_both_memories);
  tcase_add_test(tc, test_chain_uploads_once_and_downloads_once);
  tcase_add_test(tc, test_analysis_at_either_end);
  tcase_add_test(tc, test_random_chains);
  tcase_add_test(tc, test_morph_reads_device_frames_in_place);
  tcase_add_test(tc, test_morph_writes_device_frames_directly);
  tcase_add_test(tc, test_planar_chain);
  tcase_add_test(tc, test_every_format_at_the_tail);
  tcase_add_test(tc, test_deep_chains);
  tcase_add_test(tc, test_tee_to_a_stock_element);
  tcase_add_test(tc, test_blocked_downstream_does_not_stall_the_chain);
  tcase_add_test(tc, test_last_element_pushes_after_its_submission);
  tcase_add_test(tc, test_videocrop_between_two_of_ours);
  tcase_add_test(tc, test_chain_across_devices);
  tcase_add_test(tc, test_renegotiation_and_flush_mid_chain);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(int argc, char** argv) {
  // Two devices for test_chain_across_devices; the automatic choice of the other tests lands on
  // the first (one pipeline at a time).
  vktest::ListLavapipeTwice("test-chain");
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(chain_suite(), "chain", __FILE__);
}
