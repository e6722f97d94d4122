// A frame in device memory carries where the GPU's write of it ends, so a read on another thread
// sees the write even while the writer's thread still holds that work in its batch (gst/vk/batch.hpp).
//
// In `appsrc ! morph ! lumamax ! fakesink`, morph's output goes straight into lumamax on the same
// streaming thread, so morph leaves its work in the thread's batch for lumamax's to join. A probe
// on morph's source pad hands each output to another thread meanwhile and waits for it, as an
// application or a relinked branch may: that thread reads the frame with a CPU map, or through an
// element of ours in another pipeline. Both must see morph's output (a 1x1 erosion: the input
// frame itself), not what the buffer held before. Without the point in the memory, the reader's
// work went to the GPU ahead of the writer's.
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "chain/chain_frames.h"
#include "common/bus_wait.h"
#include "common/test_seed.h"
#include "common/visible_bytes.h"
#include "common/vktest.h"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

namespace {

constexpr guint kFrames = 6;
constexpr int kWidth = 97, kHeight = 61;
const char* const kIdentityMorph = "morph operation=erode width=1 height=1";

std::string FrameCaps(const char* feature) {
  return std::string("video/x-raw") + feature + ",format=RGBA,width=" + std::to_string(kWidth) +
         ",height=" + std::to_string(kHeight) + ",framerate=30/1";
}

// What the other thread read of each of morph's outputs, in order.
struct Reads {
  GstVideoInfo info;
  std::function<std::string(GstBuffer*)> read;  // runs on the other thread
  std::vector<std::string> frames;
};

// On the streaming thread, with morph's work still in its batch: the frame is read on another
// thread, and the streaming thread waits for that read.
GstPadProbeReturn ReadOnAnotherThread(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto* reads = static_cast<Reads*>(data);
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  std::string bytes;
  std::thread reader([&] { bytes = reads->read(buffer); });
  reader.join();
  reads->frames.push_back(std::move(bytes));
  return GST_PAD_PROBE_OK;
}

// Runs the pipeline on kFrames seeded random frames, each output read by `reads`, and checks that
// every read equals its input frame.
void RunAndCompare(Reads& reads, const std::string& name) {
  const std::string description = "appsrc name=src format=time caps=" + FrameCaps("") + " ! " +
                                  kIdentityMorph + " name=writer ! lumamax name=next ! fakesink";
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* writer = gst_bin_get_by_name(GST_BIN(pipeline), "writer");
  GstPad* out = gst_element_get_static_pad(writer, "src");
  gst_pad_add_probe(out, GST_PAD_PROBE_TYPE_BUFFER, ReadOnAnotherThread, &reads, nullptr);
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);

  gst_video_info_set_format(&reads.info, GST_VIDEO_FORMAT_RGBA, kWidth, kHeight);
  std::mt19937 rng = vktest::RngFor(name);
  std::vector<std::string> inputs;
  for (guint f = 0; f < kFrames; ++f) {
    GstBuffer* frame = chaintest::RandomFrame(rng, reads.info, f);
    inputs.push_back(vktest::VisibleBytes(reads.info, frame));
    fail_unless(gst_app_src_push_buffer(GST_APP_SRC(src), frame) == GST_FLOW_OK);
  }
  gst_app_src_end_of_stream(GST_APP_SRC(src));
  vktest::ExpectEos(pipeline, chaintest::kTimeout, description);
  gst_element_set_state(pipeline, GST_STATE_NULL);

  fail_unless_equals_int(reads.frames.size(), kFrames);
  for (guint f = 0; f < kFrames; ++f)
    fail_unless(reads.frames[f] == inputs[f],
                "%s: frame %u read on another thread differs from morph's output",
                vktest::WithSeed(name).c_str(), f);
  gst_object_unref(out);
  gst_object_unref(writer);
  gst_object_unref(src);
  gst_object_unref(pipeline);
  vktest::AssertNoValidationErrors(name);
}

GST_START_TEST(test_cpu_map_on_another_thread) {
  Reads reads;
  // The frame is in device memory: the map reads it back from the GPU.
  reads.read = [&reads](GstBuffer* buffer) {
    fail_unless(gst_memory_is_type(gst_buffer_peek_memory(buffer, 0), chaintest::kDeviceMemory));
    return vktest::VisibleBytes(reads.info, buffer);
  };
  RunAndCompare(reads, "cpu map");
}
GST_END_TEST

GST_START_TEST(test_element_on_another_thread) {
  // The same morph in a harness of its own: device memory in, system memory out.
  GstHarness* harness = gst_harness_new_parse(kIdentityMorph);
  gst_harness_set_caps_str(harness, FrameCaps("(memory:VkComputeDevice)").c_str(), FrameCaps("").c_str());
  Reads reads;
  reads.read = [&reads, harness](GstBuffer* buffer) {
    fail_unless_equals_int(gst_harness_push(harness, gst_buffer_ref(buffer)), GST_FLOW_OK);
    GstBuffer* output = gst_harness_pull(harness);
    fail_unless(output != nullptr);
    std::string bytes = vktest::VisibleBytes(reads.info, output);
    gst_buffer_unref(output);
    return bytes;
  };
  RunAndCompare(reads, "element");
  gst_harness_teardown(harness);
}
GST_END_TEST

Suite* write_order_suite() {
  Suite* suite = suite_create("write_order");
  TCase* tc = vktest::NewTCase("write_order", 300);
  tcase_add_test(tc, test_cpu_map_on_another_thread);
  tcase_add_test(tc, test_element_on_another_thread);
  suite_add_tcase(suite, tc);
  return suite;
}

}  // namespace

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(write_order_suite(), "write_order", __FILE__);
}
