#include "resident.hpp"

#include <gst/video/video.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/residenttiming.hpp"
#include "cases.hpp"
#include "cube_table.hpp"
#include "npp_peer.hpp"
#include "random_frames.hpp"

namespace bench {

namespace {

constexpr guint kFrames = 16;                  // distinct frames of one stream, recorded back to back
constexpr guint kRepeats = 9;                  // timed submissions of them
constexpr double kHbmBytesPerSecond = 4.8e12;  // the lent H200's memory

// One row: frames of `format` through `elements` (a pipeline fragment of ours), and NPP's
// counterpart of the same work (`kernel`: the dilation's side).
struct Row {
  std::string name;
  std::string format;
  std::string elements;
  NppWork npp = NppWork::kNone;
  int kernel = 0;
};

std::vector<Row> rows(const std::string& cube, const std::string& cube2) {
  const std::string lut = "lut location=" + cube + " interpolation=tetrahedral";
  const std::string trilinear = "lut location=" + cube + " interpolation=trilinear";
  auto dilate = [](int k) {
    return "morph operation=dilate shape=rect width=" + std::to_string(k) + " height=" + std::to_string(k);
  };
  return {{"lumamax RGBA", "RGBA", "lumamax", NppWork::kLumaMinMax},
          {"lumamax NV12", "NV12", "lumamax", NppWork::kPlaneMinMax},
          {"lumamax P010", "P010_10LE", "lumamax"},
          {"histogram RGBA", "RGBA", "histogram", NppWork::kHistogram},
          {"histogram P010", "P010_10LE", "histogram"},
          {"rgb2yuv RGBA->NV12", "RGBA", "rgb2yuv ! video/x-raw,format=NV12"},
          {"rgb2yuv RGB->I420", "RGB", "rgb2yuv ! video/x-raw,format=I420", NppWork::kRgbToI420},
          {"rgb2yuv RGBA64->P010", "RGBA64_LE", "rgb2yuv ! video/x-raw,format=P010_10LE"},
          {"lut 33^3 tetrahedral RGBA", "RGBA", lut},
          // The same work with every gather from the table's 8 entries: what the 33^3 table's
          // gathers all over its 144 KB add (random colours).
          {"lut 2^3 tetrahedral RGBA (gathers from 8 entries)", "RGBA",
           "lut location=" + cube2 + " interpolation=tetrahedral"},
          {"morph dilate 9x9 RGBA", "RGBA", dilate(9), NppWork::kDilate, 9},
          {"morph dilate 31x31 RGBA", "RGBA", dilate(31), NppWork::kDilate, 31},
          {"chain lut ! morph 9x9 ! lumamax ! histogram ! rgb2yuv", "RGBA",
           lut + " ! " + dilate(9) + " ! lumamax ! histogram ! rgb2yuv ! video/x-raw,format=NV12"},
          // Last: NPP's call for it faulted once (run 183), and a fault loses the CUDA context for
          // every NPP row after it.
          {"lut 33^3 trilinear RGBA", "RGBA", trilinear, NppWork::kLutTrilinear}};
}

bool ours(GstElement* element) {
  GstElementFactory* factory = gst_element_get_factory(element);
  const gchar* plugin = factory ? gst_plugin_feature_get_plugin_name(GST_PLUGIN_FEATURE(factory)) : nullptr;
  return g_strcmp0(plugin, "vkcompute") == 0;
}

// Our elements from `from` downstream, in order (new references).
std::vector<GstElement*> elements_downstream(GstElement* from) {
  std::vector<GstElement*> chain;
  GstPad* src = gst_element_get_static_pad(from, "src");
  while (src) {
    GstPad* peer = gst_pad_get_peer(src);
    gst_object_unref(src);
    GstElement* next = peer ? gst_pad_get_parent_element(peer) : nullptr;
    if (peer) gst_object_unref(peer);
    if (!next) break;
    src = gst_element_get_static_pad(next, "src");
    if (ours(next))
      chain.push_back(next);
    else
      gst_object_unref(next);
  }
  return chain;
}

// Runs one frame through the row's pipeline to EOS, so that the elements are started and their
// caps negotiated, then times kFrames frames of the row's format already in device memory.
void time_row(GstVkComputeTimeResident time_resident, NppPeer* npp, const Row& row, const std::string& size) {
  const FrameSize s = frame_size(size);
  const std::string description = "videotestsrc name=src num-buffers=1 ! video/x-raw,format=" + row.format +
                                  ",width=" + std::to_string(s.width) +
                                  ",height=" + std::to_string(s.height) + " ! " + row.elements +
                                  " ! fakesink";
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(description.c_str(), &error);
  if (!pipeline) {
    std::printf("%-56s %-6s %s\n", row.name.c_str(), size.c_str(), error ? error->message : "no pipeline");
    g_clear_error(&error);
    return;
  }
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* end =
      gst_bus_timed_pop_filtered(bus, 60 * GST_SECOND, GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  gst_object_unref(bus);
  std::string failure;
  if (!end || GST_MESSAGE_TYPE(end) == GST_MESSAGE_ERROR) {
    failure = "the pipeline did not reach EOS";
    if (end) {
      gst_message_parse_error(end, &error, nullptr);
      failure += std::string(": ") + error->message;
      g_clear_error(&error);
    }
  }
  if (end) gst_message_unref(end);

  if (failure.empty()) {
    GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    std::vector<GstElement*> chain = elements_downstream(src);
    gst_object_unref(src);
    GstVideoInfo info;
    gst_video_info_set_format(&info, gst_video_format_from_string(row.format.c_str()), guint(s.width),
                              guint(s.height));
    const gsize frame_bytes = GST_VIDEO_INFO_SIZE(&info);
    std::vector<guint8> frames(frame_bytes * kFrames);
    for (guint i = 0; i < kFrames; ++i)
      fill_random_frame(frames.data() + i * frame_bytes, frame_bytes, int(i));
    double median = 0, least = 0;
    gsize moved = 0;
    if (time_resident(chain.data(), guint(chain.size()), frames.data(), frame_bytes, kFrames, kRepeats,
                      &median, &least, &moved, nullptr, 0, &error)) {
      const double bytes = double(moved), rate = bytes / (median * 1e-6);
      std::printf("%-56s %-6s %8.2f %8.2f %8.2f %8.0f %5.0f %%", row.name.c_str(), size.c_str(), median,
                  least, bytes / kHbmBytesPerSecond * 1e6, rate / 1e9, 100 * rate / kHbmBytesPerSecond);
      if (npp && row.npp != NppWork::kNone) {
        std::string why;
        const double theirs =
            npp->time(row.npp, row.kernel, s.width, s.height, GST_VIDEO_INFO_PLANE_STRIDE(&info, 0),
                      frames.data(), frame_bytes, kFrames, kRepeats, why);
        if (theirs > 0)
          std::printf(" %8.2f%s %8.2f", theirs, npp->last_captured() ? " " : "*", theirs / median);
        else
          std::printf("  NPP: %s", why.c_str());
      }
      std::printf("\n");
    } else {
      failure = error->message;
      g_clear_error(&error);
    }
    for (GstElement* e : chain) gst_object_unref(e);
  }
  if (!failure.empty()) std::printf("%-56s %-6s %s\n", row.name.c_str(), size.c_str(), failure.c_str());
  std::fflush(stdout);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}

}  // namespace

int run_resident(const Options& options, const std::string& cube) {
  const std::string cube2 = cube + ".size2.cube";
  if (!write_cube_table(cube2, 2)) return 1;
  gchar* why = nullptr;
  GstVkComputeTimeResident time_resident = load_time_resident(&why);
  if (!time_resident) {
    std::printf("device-resident timing: %s\n", why);
    g_free(why);
    return 1;
  }
  std::printf(
      "Device-resident GPU time per frame (%u random frames of one stream in device memory, recorded back "
      "to back in one command buffer with the barriers a stream records; median and least of %u "
      "submissions, divided by %u). Floor: the bytes the elements read and write at %.1f TB/s.\n",
      kFrames, kRepeats, kFrames, kHbmBytesPerSecond / 1e12);
  // NPP on the same frames, where it does the same work (8-bit): its time and NPP's over ours.
  std::string npp_missing;
  std::unique_ptr<NppPeer> npp = NppPeer::load(npp_missing);
  if (!npp) std::printf("NPP: %s; its columns are left out\n", npp_missing.c_str());
  if (npp)
    std::printf(
        "NPP: the same frames in CUDA memory, its calls for them captured into one CUDA graph and timed "
        "the same way (*: not capturable, timed as called, the gaps between calls included)\n");
  std::printf("%-56s %-6s %8s %8s %8s %8s %7s%s\n", "row", "size", "us", "least", "floor us", "GB/s",
              "of HBM", npp ? "   NPP us NPP/ours" : "");
  for (const std::string& size : options.sizes)
    for (const Row& row : rows(cube, cube2))
      if (options.filter.empty() || row.name.find(options.filter) != std::string::npos)
        time_row(time_resident, npp.get(), row, size);
  return 0;
}

}  // namespace bench
