// Frames as GStreamer's Vulkan Video decoders make them: one multi-planar image per frame
// (VK_FORMAT_G8_B8R8_2PLANE_420_UNORM for NV12), coded larger than the caps (64x64 for 64x48), its
// last writer's state and, from 1.24, the point of its timeline semaphore stored in the memory
// (gst/base/vulkanbridge.hpp). A frame made so on the application's device, its planes written by a
// test submission that signals the image's timeline one higher, into lumamax and morph: lumamax posts
// the messages it posts on the same NV12 bytes in system memory, and morph outputs the same frame. From
// 1.24 they run on that device and read the image on the GPU (no upload); the test's own commands
// follow GStreamer's protocol, so the validation layer, counting GStreamer's instance's messages too,
// sees every access ordered. Mesa 22.3's lavapipe (Debian 12, GStreamer 1.22, whose devices are not
// shared: vulkanbridge.cpp's host path reads such images the same way) has no such format: there the
// test checks that it has none, and says so.
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/bus_wait.h"
#include "common/gstvk_library.h"
#include "common/test_seed.h"
#include "common/visible_bytes.h"
#include "gstvk/abi.hpp"

namespace {

using gstvk_test::GstMinor;
using gstvk_test::Library;

constexpr int kWidth = 64, kHeight = 48, kCoded = 64;
constexpr VkFormat kFormat = VK_FORMAT_G8_B8R8_2PLANE_420_UNORM;

bool FormatCopies(GstVulkanDevice* device) {
  VkFormatProperties properties{};
  vkGetPhysicalDeviceFormatProperties(vkc::gstvk::fields(vkc::gstvk::fields(device).physical_device).device,
                                      kFormat, &properties);
  const VkFormatFeatureFlags needed = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
  return (properties.optimalTilingFeatures & needed) == needed;
}

// NV12 bytes of a kCoded x kCoded frame, seeded (and by its number): the luma plane, then the
// interleaved chroma plane.
std::vector<uint8_t> CodedBytes(unsigned frame = 0) {
  std::vector<uint8_t> bytes(kCoded * kCoded * 3 / 2);
  std::mt19937 random(vktest::TestSeed() + frame);
  for (uint8_t& b : bytes) b = uint8_t(random());
  return bytes;
}

// A frame of one G8_B8R8_2PLANE_420 image on `device`, kCoded square, holding `coded`: written by a
// copy from a host-visible buffer, submitted on the device's queue under its lock, the image's new state
// (and its timeline one higher, from 1.24) stored in the memory as GStreamer's decoders store theirs.
// The copy is submitted on `queue` when given (the queue object whose lock the elements around take),
// else on a queue object of its own.
GstBuffer* DecodedFrame(GstVulkanDevice* device, const std::vector<uint8_t>& coded,
                        GstVulkanQueue* queue = nullptr) {
  const vkc::gstvk::GstVulkanLibrary& library = Library();
  GstMemory* image = library.image_memory_alloc(
      device, kFormat, kCoded, kCoded, VK_IMAGE_TILING_OPTIMAL,
      VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  fail_unless(image != nullptr, "no image of VkFormat %d", int(kFormat));
  GstMemory* staging =
      library.buffer_memory_alloc(device, coded.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  GstMapInfo map;
  fail_unless(gst_memory_map(staging, &map, GST_MAP_WRITE));
  std::memcpy(map.data, coded.data(), coded.size());
  gst_memory_unmap(staging, &map);

  const VkDevice vk_device = vkc::gstvk::fields(device).device;
  queue =
      queue ? static_cast<GstVulkanQueue*>(gst_object_ref(queue)) : library.device_get_queue(device, 0, 0);
  const vkc::gstvk::QueueFields& q = vkc::gstvk::fields(queue);
  const VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, 0, q.family};
  VkCommandPool pool = VK_NULL_HANDLE;
  fail_unless(vkCreateCommandPool(vk_device, &pool_info, nullptr, &pool) == VK_SUCCESS);
  const VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                          VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  fail_unless(vkAllocateCommandBuffers(vk_device, &alloc, &cmd) == VK_SUCCESS);
  const VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                                       VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
  vkBeginCommandBuffer(cmd, &begin);
  vkc::gstvk::ImageHead head;
  vkc::gstvk::BarrierState state;
  fail_unless(vkc::gstvk::read_image(library, image, head) &&
              vkc::gstvk::read_barrier(library, image, state));
  const VkImageMemoryBarrier to_write{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                      nullptr,
                                      0,
                                      VK_ACCESS_TRANSFER_WRITE_BIT,
                                      VK_IMAGE_LAYOUT_UNDEFINED,
                                      VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                      VK_QUEUE_FAMILY_IGNORED,
                                      VK_QUEUE_FAMILY_IGNORED,
                                      head.image,
                                      {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr,
                       0, nullptr, 1, &to_write);
  const VkBuffer from =
      reinterpret_cast<const vkc::gstvk::BufferMemoryFields<vkc::gstvk::BarrierMemoryInfo32>*>(staging)
          ->buffer;
  const VkBufferImageCopy planes[2] = {
      {0, kCoded, kCoded, {VK_IMAGE_ASPECT_PLANE_0_BIT, 0, 0, 1}, {0, 0, 0}, {kCoded, kCoded, 1}},
      {kCoded * kCoded,
       kCoded / 2,
       kCoded / 2,
       {VK_IMAGE_ASPECT_PLANE_1_BIT, 0, 0, 1},
       {0, 0, 0},
       {kCoded / 2, kCoded / 2, 1}}};
  vkCmdCopyBufferToImage(cmd, from, head.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 2, planes);
  vkEndCommandBuffer(cmd);

  // From 1.24: after the value the image's timeline holds, and one higher when written.
  const uint64_t wait = state.semaphore_value, signal = state.semaphore_value + 1;
  const VkTimelineSemaphoreSubmitInfo timeline{
      VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, nullptr, 1, &wait, 1, &signal};
  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  const bool timed = state.semaphore != VK_NULL_HANDLE;
  const VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO,
                            timed ? &timeline : nullptr,
                            timed ? 1u : 0u,
                            &state.semaphore,
                            &wait_stage,
                            1,
                            &cmd,
                            timed ? 1u : 0u,
                            &state.semaphore};
  const VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
  VkFence fence = VK_NULL_HANDLE;
  fail_unless(vkCreateFence(vk_device, &fence_info, nullptr, &fence) == VK_SUCCESS);
  library.queue_submit_lock(queue);
  const VkResult submitted = vkQueueSubmit(q.queue, 1, &submit, fence);
  library.queue_submit_unlock(queue);
  fail_unless(submitted == VK_SUCCESS, "the test's copy into the image: VkResult %d", int(submitted));
  state.pipeline_stages = VK_PIPELINE_STAGE_TRANSFER_BIT;
  state.access_flags = VK_ACCESS_TRANSFER_WRITE_BIT;
  state.image_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  if (timed) state.semaphore_value = signal;
  fail_unless(vkc::gstvk::write_barrier(library, image, state));
  // Behind the elements' frames on the same queue: with GStreamer's instance's GPU-assisted validation
  // and a cold shader cache (CI's fresh root), lavapipe takes seconds per frame at first.
  fail_unless(vkWaitForFences(vk_device, 1, &fence, VK_TRUE, 120'000'000'000ull) == VK_SUCCESS);
  vkDestroyFence(vk_device, fence, nullptr);
  vkDestroyCommandPool(vk_device, pool, nullptr);
  gst_object_unref(queue);
  gst_memory_unref(staging);

  GstBuffer* frame = gst_buffer_new();
  gst_buffer_append_memory(frame, image);
  return frame;
}

// The same frame's visible part, kWidth x kHeight, as NV12 in system memory.
GstBuffer* SystemFrame(const std::vector<uint8_t>& coded) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, kWidth, kHeight);
  GstBuffer* frame = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstMapInfo map;
  gst_buffer_map(frame, &map, GST_MAP_WRITE);
  for (int y = 0; y < kHeight; ++y)
    std::memcpy(map.data + GST_VIDEO_INFO_PLANE_OFFSET(&info, 0) + y * GST_VIDEO_INFO_PLANE_STRIDE(&info, 0),
                coded.data() + y * kCoded, kWidth);
  for (int y = 0; y < kHeight / 2; ++y)
    std::memcpy(map.data + GST_VIDEO_INFO_PLANE_OFFSET(&info, 1) + y * GST_VIDEO_INFO_PLANE_STRIDE(&info, 1),
                coded.data() + kCoded * kCoded + y * kCoded, kWidth);
  gst_buffer_unmap(frame, &map);
  return frame;
}

struct Run {
  std::vector<GstStructure*> messages;  // the element messages, in order
  std::vector<std::string> outputs;     // the output frames' visible bytes
  guint64 uploads = 0;
  const void* runs_on = nullptr;  // the element's gst-vulkan-device
  guint copied_on_decoder = 0;    // frames that reached the element with a copy made on the decoder's thread
  ~Run() {
    for (GstStructure* s : messages) gst_structure_free(s);
  }
};

// The frames reaching `pad` that carry the copy made on their decoder's thread (a meta that
// gst/base/decodedcopies.cpp names so).
GstPadProbeReturn CountDecoderCopies(GstPad*, GstPadProbeInfo* info, gpointer count) {
  const GType api = g_type_from_name("GstVkComputeDecodedCopyMetaAPI");
  if (api && gst_buffer_get_meta(GST_PAD_PROBE_INFO_BUFFER(info), api)) ++*static_cast<guint*>(count);
  return GST_PAD_PROBE_OK;
}

// `frames` (taken) through `appsrc caps=CAPS ! HEAD ELEMENT name=e ! appsink`, with `device` set on
// the element as the application's when given.
void RunFrames(const std::string& head, const std::string& element, const std::string& caps,
               const std::vector<GstBuffer*>& frames, GstVulkanDevice* device, Run& run) {
  const std::string description = "appsrc name=src format=time caps=\"" + caps + "\" ! " + head + element +
                                  " name=e ! appsink name=out sync=false";
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), "e");
  if (device) gstvk_test::SetApplicationDevice(e, device);
  GstPad* e_sink = gst_element_get_static_pad(e, "sink");
  gst_pad_add_probe(e_sink, GST_PAD_PROBE_TYPE_BUFFER, CountDecoderCopies, &run.copied_on_decoder, nullptr);
  gst_object_unref(e_sink);
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "out");
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  for (size_t i = 0; i < frames.size(); ++i) {
    GST_BUFFER_PTS(frames[i]) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION(frames[i]) = GST_SECOND / 30;
    fail_unless(gst_app_src_push_buffer(GST_APP_SRC(src), frames[i]) == GST_FLOW_OK, "%s: the push",
                description.c_str());
  }
  gst_app_src_end_of_stream(GST_APP_SRC(src));
  for (size_t i = 0; i < frames.size(); ++i) {
    GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), gstvk_test::kFrameWait);
    fail_unless(sample != nullptr, "%s: no frame %zu out", description.c_str(), i);
    // An analysis passes the decoder's frame on in its image (not read here: the CPU does not map it); a
    // filter's output, for the appsink, is in system memory.
    GstVideoInfo info;
    fail_unless(gst_video_info_from_caps(&info, gst_sample_get_caps(sample)));
    GstCapsFeatures* features = gst_caps_get_features(gst_sample_get_caps(sample), 0);
    if (!gst_caps_features_contains(features, "memory:VulkanImage"))
      run.outputs.push_back(vktest::VisibleBytes(info, gst_sample_get_buffer(sample)));
    gst_sample_unref(sample);
  }
  GstMessage* end = vktest::WaitForErrorOrEos(pipeline, gstvk_test::kFrameWait);
  fail_unless(end && GST_MESSAGE_TYPE(end) == GST_MESSAGE_EOS, "%s: %s", description.c_str(),
              end ? vktest::Describe(end).c_str() : "no EOS");
  gst_message_unref(end);
  GstBus* bus = gst_element_get_bus(pipeline);
  while (GstMessage* message = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT)) {
    run.messages.push_back(gst_structure_copy(gst_message_get_structure(message)));
    gst_message_unref(message);
  }
  gst_object_unref(bus);
  g_object_get(e, "uploads", &run.uploads, nullptr);
  run.runs_on = gstvk_test::RunsOn(pipeline, "e");
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(src);
  gst_object_unref(sink);
  gst_object_unref(e);
  gst_object_unref(pipeline);
  vktest::AssertNoValidationErrors(description);
}

// The messages (and, for a filter, the outputs) of `decoded` equal those of `system`, the same frames
// in system memory.
void AssertSameResults(const Run& decoded, const Run& system, bool filter, const std::string& what) {
  fail_unless(decoded.messages.size() == system.messages.size(), "%s: %zu messages, %zu in system memory",
              what.c_str(), decoded.messages.size(), system.messages.size());
  for (size_t i = 0; i < decoded.messages.size(); ++i)
    fail_unless(gst_structure_is_equal(decoded.messages[i], system.messages[i]), "%s: message %zu differs",
                what.c_str(), i);
  if (filter)
    fail_unless(!system.outputs.empty() && decoded.outputs == system.outputs, "%s: the outputs differ",
                what.c_str());
}

// A Vulkan decoder as GStreamer's are to our elements (a video decoder whose source pad template names
// memory:VulkanImage, pushing on its own streaming thread): each "coded" frame, NV12 bytes of a kCoded
// square in system memory, comes out as DecodedFrame() makes it, on the device and queue the test
// gives; it shares that queue with the elements around (a "gst.vulkan.queue" context), as GStreamer's
// Vulkan elements do, so that all take the same lock to submit on it.
struct TestVkDec {
  GstVideoDecoder parent;
};
struct TestVkDecClass {
  GstVideoDecoderClass parent_class;
};
G_DEFINE_TYPE(TestVkDec, test_vk_dec, GST_TYPE_VIDEO_DECODER)
GstVulkanDevice* decoder_device = nullptr;
GstVulkanQueue* decoder_queue = nullptr;
guint decoder_min_buffers = 0;  // in the last allocation query's first pool

gboolean TestVkDecSrcQuery(GstVideoDecoder* decoder, GstQuery* query) {
  if (GST_QUERY_TYPE(query) == GST_QUERY_CONTEXT &&
      Library().queue_handle_context_query(GST_ELEMENT(decoder), query, decoder_queue))
    return TRUE;
  return GST_VIDEO_DECODER_CLASS(test_vk_dec_parent_class)->src_query(decoder, query);
}

gboolean TestVkDecSetFormat(GstVideoDecoder* decoder, GstVideoCodecState* state) {
  GstVideoCodecState* out =
      gst_video_decoder_set_output_state(decoder, GST_VIDEO_FORMAT_NV12, kWidth, kHeight, state);
  out->caps = gst_video_info_to_caps(&out->info);
  gst_caps_set_features(out->caps, 0, gst_caps_features_new("memory:VulkanImage", nullptr));
  gst_video_codec_state_unref(out);
  return gst_video_decoder_negotiate(decoder);
}

GstFlowReturn TestVkDecHandleFrame(GstVideoDecoder* decoder, GstVideoCodecFrame* frame) {
  GstMapInfo map;
  fail_unless(gst_buffer_map(frame->input_buffer, &map, GST_MAP_READ));
  const std::vector<uint8_t> coded(map.data, map.data + map.size);
  gst_buffer_unmap(frame->input_buffer, &map);
  frame->output_buffer = DecodedFrame(decoder_device, coded, decoder_queue);
  return gst_video_decoder_finish_frame(decoder, frame);
}

void test_vk_dec_class_init(TestVkDecClass* klass) {
  GstElementClass* element_class = GST_ELEMENT_CLASS(klass);
  gst_element_class_set_static_metadata(element_class, "Test Vulkan decoder", "Codec/Decoder/Video",
                                        "NV12 frames into multi-planar Vulkan images", "gst-vkcompute tests");
  gst_element_class_add_pad_template(element_class,
                                     gst_pad_template_new("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
                                                          gst_caps_from_string("video/x-raw,format=NV12")));
  gst_element_class_add_pad_template(
      element_class,
      gst_pad_template_new("src", GST_PAD_SRC, GST_PAD_ALWAYS,
                           gst_caps_from_string("video/x-raw(memory:VulkanImage),format=NV12")));
  GstVideoDecoderClass* decoder_class = GST_VIDEO_DECODER_CLASS(klass);
  decoder_class->set_format = TestVkDecSetFormat;
  decoder_class->handle_frame = TestVkDecHandleFrame;
  decoder_class->src_query = TestVkDecSrcQuery;
  // The frames are made in handle_frame(), not taken from a pool; the least number of them asked for is
  // kept.
  decoder_class->decide_allocation = [](GstVideoDecoder*, GstQuery* query) -> gboolean {
    if (gst_query_get_n_allocation_pools(query) > 0)
      gst_query_parse_nth_allocation_pool(query, 0, nullptr, nullptr, &decoder_min_buffers, nullptr);
    return TRUE;
  };
}

void test_vk_dec_init(TestVkDec* decoder) {
  gst_video_decoder_set_packetized(GST_VIDEO_DECODER(decoder), TRUE);
}

// Whether `device` cannot copy G8_B8R8_2PLANE_420 images (Mesa 22.3's lavapipe, GStreamer 1.22's leg):
// then checked, printed, and `device` let go of.
bool NoDecoderFormat(GstVulkanDevice* device) {
  if (FormatCopies(device)) return false;
  fail_unless(GstMinor() < 24, "lavapipe of GStreamer 1.%u's release copies no G8_B8R8_2PLANE_420 images",
              GstMinor());
  std::printf(
      "GStreamer 1.%u: this lavapipe has no G8_B8R8_2PLANE_420 images (Mesa 22.3): nothing to decode "
      "into\n",
      GstMinor());
  gst_object_unref(device);
  return true;
}

}  // namespace

GST_START_TEST(test_decoder_frames_into_analyses_and_filters) {
  vktest::RequirePhysicalDevice();
  GstVulkanDevice* device = gstvk_test::ApplicationDevice();
  if (NoDecoderFormat(device)) return;
  const std::vector<uint8_t> coded = CodedBytes();
  const std::string caps = "video/x-raw,format=NV12,width=" + std::to_string(kWidth) +
                           ",height=" + std::to_string(kHeight) + ",framerate=30/1";
  const std::string image_caps =
      "video/x-raw(memory:VulkanImage),format=NV12,width=" + std::to_string(kWidth) +
      ",height=" + std::to_string(kHeight) + ",framerate=30/1";
  for (const std::string element : {"lumamax", "histogram", "morph operation=dilate width=3 height=3"}) {
    const std::string what = element + " on a decoder's frame (" + vktest::SeedDescription() + ")";
    Run decoded, system;
    RunFrames("", element, image_caps, {DecodedFrame(device, coded)}, device, decoded);
    RunFrames("", element, caps, {SystemFrame(coded)}, nullptr, system);
    AssertSameResults(decoded, system, element.rfind("morph", 0) == 0, what);
    fail_unless(decoded.runs_on == device, "%s: runs on GStreamer's device %p, the application set %p",
                what.c_str(), decoded.runs_on, static_cast<void*>(device));
    fail_unless(decoded.uploads == 0, "%s: %" G_GUINT64_FORMAT " uploads", what.c_str(), decoded.uploads);
  }
  gst_object_unref(device);
}
GST_END_TEST;

// Frames of a Vulkan decoder that reach our elements through a queue: the decoder keeps using its
// frames while we read them, and takes its turn on their state on its thread, unlocked; so they are
// copied on its thread as they leave it, and our elements read the copy (gst/base/decodedcopies.hpp).
// Through a queue every frame carries that copy, straight from the decoder none does; the results are
// those of the same frames in system memory either way, and the validation layer sees every access
// ordered. (The test's decoder keeps no references: the race itself shows on NVIDIA's decoders.)
GST_START_TEST(test_decoder_frames_through_a_queue) {
  vktest::RequirePhysicalDevice();
  GstVulkanDevice* device = gstvk_test::ApplicationDevice();
  if (NoDecoderFormat(device)) return;
  decoder_device = device;
  decoder_queue = Library().device_get_queue(device, 0, 0);
  fail_unless(gst_element_register(nullptr, "testvkdec", GST_RANK_NONE, test_vk_dec_get_type()));
  constexpr guint kFrames = 6;
  const std::string coded_caps = "video/x-raw,format=NV12,width=" + std::to_string(kCoded) +
                                 ",height=" + std::to_string(kCoded) + ",framerate=30/1";
  const std::string caps = "video/x-raw,format=NV12,width=" + std::to_string(kWidth) +
                           ",height=" + std::to_string(kHeight) + ",framerate=30/1";
  for (const bool through_queue : {true, false}) {
    // lumamax attaching its results makes the frame writable on the way: a copy of it, which carries the
    // decoder's copy on to histogram.
    for (const std::string element : {"lumamax ! histogram", "lumamax attach-meta=true ! histogram",
                                      "morph operation=dilate width=3 height=3"}) {
      const std::string head = through_queue ? "testvkdec ! queue ! " : "testvkdec ! ";
      const std::string what = head + element + " (" + vktest::SeedDescription() + ")";
      std::vector<GstBuffer*> coded_frames, system_frames;
      for (guint i = 0; i < kFrames; ++i) {
        const std::vector<uint8_t> coded = CodedBytes(i);
        coded_frames.push_back(gst_buffer_new_memdup(coded.data(), coded.size()));
        system_frames.push_back(SystemFrame(coded));
      }
      Run decoded, system;
      decoder_min_buffers = 0;
      RunFrames(head, element, coded_caps, coded_frames, device, decoded);
      // The decoder's pool is to make its frames up front (decodedcopies.hpp).
      fail_unless(decoder_min_buffers >= 32, "%s: the allocation query asks for %u frames", what.c_str(),
                  decoder_min_buffers);
      RunFrames("", element, caps, system_frames, nullptr, system);
      AssertSameResults(decoded, system, element.rfind("morph", 0) == 0, what);
      fail_unless(decoded.copied_on_decoder == (through_queue ? kFrames : 0),
                  "%s: %u of %u frames copied on the decoder's thread", what.c_str(),
                  decoded.copied_on_decoder, kFrames);
      fail_unless(decoded.runs_on == device, "%s: runs on GStreamer's device %p, the application set %p",
                  what.c_str(), decoded.runs_on, static_cast<void*>(device));
      fail_unless(decoded.uploads == 0, "%s: %" G_GUINT64_FORMAT " uploads", what.c_str(), decoded.uploads);
    }
  }
  decoder_device = nullptr;
  gst_clear_object(&decoder_queue);
  gst_object_unref(device);
}
GST_END_TEST;

namespace {

Suite* decoder_frames_suite() {
  Suite* suite = suite_create("gstvk_decoder_frames");
  // Each case runs six pipelines twice. In a fresh Debian 13 root (GStreamer 1.26, whose instance turns
  // on GPU-assisted validation; Mesa's shader cache empty), with another test on the other core, the
  // pipelines compile every kernel instrumented: the queue case ran past a limit of 120 s there, 195 s
  // into the test (the whole test took 71 s on a second run, 6 s once the cache was warm). The
  // whole test stays within meson's 600 s.
  TCase* frames = vktest::NewTCase("frames", 600);
  suite_add_tcase(suite, frames);
  tcase_add_test(frames, test_decoder_frames_into_analyses_and_filters);
  tcase_add_test(frames, test_decoder_frames_through_a_queue);
  return suite;
}

}  // namespace

int main(int argc, char** argv) {
  return vktest::RunRuntimeSuite(&argc, &argv, decoder_frames_suite(), "gstvk_decoder_frames", __FILE__);
}
