#include "cases.hpp"

#include <vulkan/vulkan.h>

#include <utility>

namespace bench {

namespace {

Variant ours(const std::string& fragment) {
  return {"vkcompute", fragment, OpenCvOp::kNone, true, ""};
}
// An analysis element without its bus messages: what building and freeing them costs the CPU.
Variant ours_silent(const std::string& element) {
  return {"vkcompute post-messages=false", element + " name=dut post-messages=false", OpenCvOp::kNone, true,
          "no bus messages: the element's own CPU cost"};
}
// morph with a 1x1 mask: unpack, one trivial pass and pack, i.e. what crossing the link costs a
// morph frame whatever its mask.
Variant ours_host_passes(const std::string& format) {
  return {"vkcompute 1x1 mask", "morph name=dut operation=dilate width=1 height=1", OpenCvOp::kNone, true,
          "unpack and pack alone: the " + format + " frame's read from and write to host memory"};
}
// How a reference's upstream pushes: as fast as it can, or `paced` at our element's frame rate.
std::string pace_words(bool paced) {
  return paced ? "at our element's frame rate" : "at full speed";
}
// appsrc ! identity ! fakesink: the harness's own CPU time per frame, to tell apart from ours.
Variant harness(bool paced) {
  return {paced ? "harness alone (identity), at our rate" : "harness alone (identity)",
          "identity",
          OpenCvOp::kNone,
          false,
          "appsrc, identity and fakesink " + pace_words(paced) + ", no element: the harness's own CPU cost",
          true,
          false,
          paced};
}
// The harness with our element's messages posted by an identity, no GPU work.
Variant harness_posting(bool paced) {
  return {paced ? "harness posting our messages, at our rate" : "harness posting our messages",
          "identity name=poster",
          OpenCvOp::kNone,
          false,
          "as the harness alone, " + pace_words(paced) +
              ", identity posting a copy of our element's message per frame: what the messages cost",
          true,
          true,
          paced};
}
// The harness at our rate posting our messages and submitting an empty command buffer per frame.
Variant harness_submitting() {
  Variant v = harness_posting(true);
  v.label = "harness posting and submitting, at our rate";
  v.note =
      "as the harness posting our messages at our rate, identity also submitting an empty command "
      "buffer to the GPU per frame: the least a GPU element posting our messages costs";
  v.submits = true;
  return v;
}
// The harness posting our messages and copying each frame's bytes to the GPU, at the GPU's pace.
Variant harness_copying() {
  Variant v = harness_posting(false);
  v.label = "harness posting and copying to the GPU";
  v.note =
      "as the harness posting our messages, identity also copying the frame's bytes from host memory "
      "to the GPU per frame, as fast as the GPU takes them: the least a GPU element that reads each "
      "frame and posts our messages costs";
  v.submits = true;
  v.copies_frame = true;
  return v;
}
// An analysis element with and without messages, its OpenCV peer and the harness references.
std::vector<Variant> analysis_variants(const std::string& element, Variant peer) {
  return {ours(element + " name=dut"),
          ours_silent(element),
          std::move(peer),
          harness(false),
          harness_posting(false),
          harness(true),
          harness_posting(true),
          harness_submitting(),
          harness_copying()};
}
Variant peer(const std::string& label, const std::string& fragment, const std::string& note = "") {
  return {label, fragment, OpenCvOp::kNone, false, note};
}
Variant opencv(const std::string& label, OpenCvOp op, const std::string& note = "") {
  return {"OpenCV " + label, "", op, false, note};
}

// The colour-conversion peers: videoconvert on one and on all cores, gst-plugins-bad's Vulkan
// chain (its vulkancolorconvert writes NV12 but not I420 in 1.22), OpenCV's cvtColor.
std::vector<Variant> conversion_variants(const std::string& to, OpenCvOp op) {
  const std::string caps = "video/x-raw,format=" + to;
  std::vector<Variant> variants = {ours("rgb2yuv name=dut ! " + caps),
                                   peer("videoconvert n-threads=1", "videoconvert n-threads=1 ! " + caps),
                                   peer("videoconvert all cores", "videoconvert n-threads=0 ! " + caps)};
  if (to == "NV12") {
    variants.push_back(
        peer("vulkanupload ! vulkancolorconvert ! vulkandownload",
             "vulkanupload ! vulkancolorconvert ! video/x-raw(memory:VulkanImage),format=NV12 ! "
             "vulkandownload ! " +
                 caps));
    variants.push_back(opencv("cvtColor", op, "writes I420: OpenCV has no RGB to NV12 conversion"));
  } else {
    variants.push_back(opencv("cvtColor", op));
  }
  return variants;
}

// A `regions` value of n x n regions tiling a w x h frame.
std::string tiling(int n, int w, int h) {
  std::string regions;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      regions += std::string(regions.empty() ? "" : ",") + "\"region,x=" + std::to_string(i * w / n) +
                 ",y=" + std::to_string(j * h / n) + ",width=" + std::to_string((i + 1) * w / n - i * w / n) +
                 ",height=" + std::to_string((j + 1) * h / n - j * h / n) + "\"";
  return "regions=<" + regions + ">";
}

// An analysis element on the whole frame, on 1, 16 and 256 regions tiling it (one pass each), and
// with its results on the frames (attach-meta), unpaced and live.
std::vector<Variant> regions_variants(const std::string& element, int w, int h) {
  std::vector<Variant> variants = {ours(element + " name=dut")};
  for (int n : {1, 4, 16}) {
    Variant v = ours(element + " name=dut " + tiling(n, w, h));
    v.label = "vkcompute, " + std::to_string(n * n) + (n == 1 ? " region" : " regions");
    v.note = "a regions array of " + std::to_string(n * n) + " tiling the frame";
    variants.push_back(v);
  }
  Variant meta = ours(element + " name=dut attach-meta=true");
  meta.label = "vkcompute attach-meta";
  meta.note = "results on the frames too: each frame leaves when its results are ready";
  variants.push_back(meta);
  for (bool attach : {false, true}) {
    Variant live = attach ? meta : variants.front();
    live.label += ", live";
    live.note = "frames pushed at 30 frames/s: time from the push to the sink";
    live.live_fps = 30;
    variants.push_back(live);
  }
  return variants;
}

}  // namespace

FrameSize frame_size(const std::string& size) {
  if (size == "1080p") return {1920, 1080};
  if (size == "4k") return {3840, 2160};
  if (size == "360p") return {640, 360};
  int width = 0, height = 0;
  char rest = 0;
  if (std::sscanf(size.c_str(), "%dx%d%c", &width, &height, &rest) == 2 && width > 0 && height > 0)
    return {width, height};
  return {0, 0};
}

namespace {

// The Vulkan devices the loader lists: the cases across GPUs need two.
uint32_t vulkan_devices() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  uint32_t count = 0;
  if (vkCreateInstance(&info, nullptr, &instance) != VK_SUCCESS) return 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  vkDestroyInstance(instance, nullptr);
  return count;
}

}  // namespace

std::vector<Case> build_cases(const std::vector<std::string>& sizes, const std::string& cube) {
  const bool two_devices = vulkan_devices() >= 2;
  std::vector<Case> cases;
  for (const auto& size : sizes) {
    const auto [w, h] = frame_size(size);
    const double px = double(w) * h;
    auto add = [&](const std::string& name, GstVideoFormat format, double in, double out,
                   std::vector<Variant> variants, int kernel = 0) {
      cases.push_back({name, size, format, w, h, kernel, in, out, std::move(variants)});
    };
    add("rgb2yuv RGBA->NV12", GST_VIDEO_FORMAT_RGBA, 4 * px, 1.5 * px,
        conversion_variants("NV12", OpenCvOp::kRgbaToI420));
    add("rgb2yuv RGB->I420", GST_VIDEO_FORMAT_RGB, 3 * px, 1.5 * px,
        conversion_variants("I420", OpenCvOp::kRgbToI420));
    add("lumamax RGBA", GST_VIDEO_FORMAT_RGBA, 4 * px, 0,
        analysis_variants("lumamax",
                          opencv("cvtColor+minMaxLoc", OpenCvOp::kMinMaxRgba, "luma then min/max")));
    add("lumamax NV12", GST_VIDEO_FORMAT_NV12, 1.5 * px, 0,
        analysis_variants("lumamax", opencv("minMaxLoc", OpenCvOp::kMinMaxY, "min/max of the Y plane")));
    add("histogram RGBA", GST_VIDEO_FORMAT_RGBA, 4 * px, 0,
        analysis_variants("histogram",
                          opencv("calcHist", OpenCvOp::kHistRgba, "R, G, B and luma (cvtColor)")));
    add("histogram NV12", GST_VIDEO_FORMAT_NV12, 1.5 * px, 0,
        analysis_variants("histogram", opencv("calcHist", OpenCvOp::kHistNv12, "Y, U and V")));
    // Deeper than 8 bits: P010 (10-bit 4:2:0, 3 bytes a pixel) and RGBA64 (8 bytes a pixel), against
    // the 8-bit cases above; histogram also with 1 024 bins.
    add("lumamax P010_10LE", GST_VIDEO_FORMAT_P010_10LE, 3 * px, 0,
        {ours("lumamax name=dut"), opencv("minMaxLoc", OpenCvOp::kMinMaxY, "min/max of the 16-bit Y plane")});
    // HDR: the light statistics' kernel besides the scan, every plane uploaded.
    add("lumamax P010_10LE bt2100-pq", GST_VIDEO_FORMAT_P010_10LE, 3 * px, 0,
        {ours("lumamax name=dut"), ours("lumamax name=dut light-statistics=false")});
    cases.back().variants.back().label = "vkcompute light-statistics=false";
    cases.back().colorimetry = "bt2100-pq";
    add("histogram P010_10LE", GST_VIDEO_FORMAT_P010_10LE, 3 * px, 0,
        {ours("histogram name=dut"), ours("histogram name=dut bins=1024"),
         opencv("calcHist", OpenCvOp::kHistP010, "Y, U and V, 1 024 bins of the 16-bit samples")});
    cases.back().variants[1].label = "vkcompute bins=1024";
    add("lumamax RGBA64_LE", GST_VIDEO_FORMAT_RGBA64_LE, 8 * px, 0,
        {ours("lumamax name=dut"),
         opencv("cvtColor+minMaxLoc", OpenCvOp::kMinMaxRgba, "16-bit luma then min/max")});
    add("histogram RGBA64_LE", GST_VIDEO_FORMAT_RGBA64_LE, 8 * px, 0,
        {ours("histogram name=dut"), ours("histogram name=dut bins=1024")});
    cases.back().variants.back().label = "vkcompute bins=1024";
    add("rgb2yuv RGBA64_LE->P010_10LE", GST_VIDEO_FORMAT_RGBA64_LE, 8 * px, 3 * px,
        {ours("rgb2yuv name=dut ! video/x-raw,format=P010_10LE"),
         peer("videoconvert n-threads=1", "videoconvert n-threads=1 ! video/x-raw,format=P010_10LE"),
         peer("videoconvert all cores", "videoconvert n-threads=0 ! video/x-raw,format=P010_10LE")});
    add("morph dilate 9x9 P010_10LE", GST_VIDEO_FORMAT_P010_10LE, 3 * px, 3 * px,
        {ours("morph name=dut operation=dilate width=9 height=9"),
         opencv("dilate", OpenCvOp::kDilateY16, "the 16-bit Y plane")},
        9);
    add("morph dilate 9x9 RGBA64_LE", GST_VIDEO_FORMAT_RGBA64_LE, 8 * px, 8 * px,
        {ours("morph name=dut operation=dilate width=9 height=9")}, 9);
    // Several regions per frame, and the results on the frames.
    add("lumamax RGBA regions", GST_VIDEO_FORMAT_RGBA, 4 * px, 0, regions_variants("lumamax", w, h));
    add("histogram RGBA regions", GST_VIDEO_FORMAT_RGBA, 4 * px, 0,
        regions_variants("histogram bins=16", w, h));
    for (int k : {3, 15, 31, 61}) {
      const std::string kk = std::to_string(k);
      const std::string props = "morph name=dut operation=dilate width=" + kk + " height=" + kk;
      // cvdilate has a 3x3 square only: (k - 1) / 2 iterations make the same k x k square.
      const std::string cv_iterations = std::to_string((k - 1) / 2);
      std::vector<Variant> rgba = {
          ours(props), opencv("dilate", OpenCvOp::kDilate),
          peer("cvdilate", "videoconvert ! video/x-raw,format=RGB ! cvdilate iterations=" + cv_iterations,
               "3x3 x " + cv_iterations + " iterations; RGB (cvdilate has no RGBA), plus the conversion")};
      std::vector<Variant> gray = {
          ours(props), opencv("dilate", OpenCvOp::kDilate),
          peer("cvdilate", "cvdilate iterations=" + cv_iterations, "3x3 x " + cv_iterations + " iterations")};
      if (k == 3) {  // once per format and size: the mask-independent part of every morph case
        rgba.insert(rgba.begin() + 1, ours_host_passes("RGBA"));
        gray.insert(gray.begin() + 1, ours_host_passes("GRAY8"));
      }
      add("morph dilate " + kk + "x" + kk + " RGBA", GST_VIDEO_FORMAT_RGBA, 4 * px, 4 * px, std::move(rgba),
          k);
      add("morph dilate " + kk + "x" + kk + " GRAY8", GST_VIDEO_FORMAT_GRAY8, px, px, std::move(gray), k);
    }
    // Chains of our elements: frames stay in device memory between them (one upload, one download),
    // against the same chain with system memory forced between the elements (capsfilters), i.e. an
    // upload and a download per element.
    // The 31x31 chain is there for morph's GPU time inside a chain (its own variant only).
    struct Chain {
      std::string name;
      std::vector<std::string> steps;
      bool peers;  // with the system-memory and live variants
    };
    auto five = [&](const std::string& mask) {
      return std::vector<std::string>{"lut name=dut location=" + cube,
                                      "morph operation=dilate width=" + mask + " height=" + mask, "lumamax",
                                      "histogram", "rgb2yuv"};
    };
    for (const auto& [name, steps, peers] :
         {Chain{"chain lut ! morph 9x9 ! lumamax ! histogram ! rgb2yuv RGBA->NV12", five("9"), true},
          Chain{"chain lut ! rgb2yuv RGBA->NV12", {"lut name=dut location=" + cube, "rgb2yuv"}, true},
          Chain{"chain lut ! morph 31x31 ! lumamax ! histogram ! rgb2yuv RGBA->NV12", five("31"), false}}) {
      std::string device, system;
      for (const std::string& step : steps) {
        device += (device.empty() ? "" : " ! ") + step;
        system += (system.empty() ? "" : " ! video/x-raw ! ") + step;
      }
      const std::string nv12 = " ! video/x-raw,format=NV12";
      Variant in_device = ours(device + nv12);
      in_device.label = "vkcompute, device memory between";
      in_device.note = "one upload and one download per frame; gpu-time is the first element's";
      Variant in_system = ours(system + nv12);
      in_system.label = "vkcompute, system memory between";
      in_system.note = "capsfilters video/x-raw between the elements: each one uploads and downloads";
      Variant live = in_device;
      live.label = "vkcompute, device memory between, live";
      live.note = "frames pushed at 30 frames/s: time from the push to the sink";
      live.live_fps = 30;
      if (!peers) {
        add(name, GST_VIDEO_FORMAT_RGBA, 4 * px, 1.5 * px, {in_device});
        continue;
      }
      add(name, GST_VIDEO_FORMAT_RGBA, 4 * px, 1.5 * px, {in_device, in_system, live});
      if (steps.size() == 5) {
        // Random bytes are the worst case for lut (each pixel's table entries unrelated to its
        // neighbours'): the same chain on smooth frames, as from a camera.
        add(name + ", smooth frames", GST_VIDEO_FORMAT_RGBA, 4 * px, 1.5 * px, {in_device});
        cases.back().smooth = true;
      }
    }
    if (two_devices) {
      // The chain across two GPUs (each link between devices through pinned host memory, copied by
      // both devices' copy engines), against the same elements on one GPU.
      const std::string lut = "lut name=dut location=" + cube;
      const std::string morph = "morph operation=dilate width=9 height=9";
      Variant one = ours(lut + " ! " + morph + " ! lumamax ! rgb2yuv ! video/x-raw,format=NV12");
      one.label = "vkcompute, one GPU";
      Variant across = ours(lut + " device=0 ! " + morph +
                            " device=1 ! lumamax device=1 ! rgb2yuv device=0 ! "
                            "video/x-raw,format=NV12");
      across.label = "vkcompute, across two GPUs";
      across.note = "lut and rgb2yuv on device 0, morph and lumamax on device 1: two crossings per frame";
      add("chain across GPUs lut ! morph 9x9 ! lumamax ! rgb2yuv RGBA->NV12", GST_VIDEO_FORMAT_RGBA, 4 * px,
          1.5 * px, {one, across});
    }
    for (const char* interpolation : {"tetrahedral", "trilinear"}) {
      add(std::string("lut 33^3 ") + interpolation + " RGBA", GST_VIDEO_FORMAT_RGBA, 4 * px, 4 * px,
          {ours("lut name=dut location=" + cube + " interpolation=" + interpolation),
           opencv("LUT", OpenCvOp::kLut, "1-D 256-entry table per channel, a lower bound for a 3-D lookup")});
    }
    add("lut 33^3 tetrahedral RGBA, smooth frames", GST_VIDEO_FORMAT_RGBA, 4 * px, 4 * px,
        {ours("lut name=dut location=" + cube + " interpolation=tetrahedral")});
    cases.back().smooth = true;
    add("lut 33^3 tetrahedral RGBA64_LE", GST_VIDEO_FORMAT_RGBA64_LE, 8 * px, 8 * px,
        {ours("lut name=dut location=" + cube + " interpolation=tetrahedral")});
    // 16-bit frames on the device: the kernels' GPU time per byte against the 8-bit chain's.
    Variant deep = ours("lut name=dut location=" + cube + " ! rgb2yuv ! video/x-raw,format=P010_10LE");
    deep.label = "vkcompute, device memory between";
    deep.note = "one upload and one download per frame; gpu-time is the first element's";
    add("chain lut ! rgb2yuv RGBA64_LE->P010_10LE", GST_VIDEO_FORMAT_RGBA64_LE, 8 * px, 3 * px, {deep});
  }
  return cases;
}

}  // namespace bench
