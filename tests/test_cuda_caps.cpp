// Caps in GStreamer's CUDA memory (memory:CUDAMemory, NVIDIA's decoders' output and their encoders'
// input): every element lists them on both pads (gst-inspect shows them); the caps they answer offer
// them only where this process has CUDA (the lent GPU), so that without NVIDIA's driver (CI)
// pipelines negotiate system memory as before, and a source or a sink that insists on CUDA memory is
// refused at negotiation, not at the first frame.
#include <gst/gst.h>

#include <string>

#include "cuda/bridge.hpp"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

#include "common/vktest.h"

namespace {

constexpr const char* kCuda = "memory:CUDAMemory";

// How many structures of `caps` are in CUDA memory, and whether one of them is NV12.
guint InCuda(GstCaps* caps, bool* nv12 = nullptr) {
  guint count = 0;
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    GstCapsFeatures* features = gst_caps_get_features(caps, i);
    if (!features || gst_caps_features_is_any(features) || !gst_caps_features_contains(features, kCuda))
      continue;
    count++;
    if (nv12) {
      GstCaps* one = gst_caps_new_full(gst_structure_copy(gst_caps_get_structure(caps, i)), nullptr);
      GstCaps* want = gst_caps_from_string("video/x-raw, format=NV12");
      *nv12 = *nv12 || gst_caps_can_intersect(one, want);
      gst_caps_unref(want);
      gst_caps_unref(one);
    }
  }
  return count;
}

}  // namespace

GST_START_TEST(test_templates_list_cuda_memory) {
  for (const char* name : {"lumamax", "histogram", "morph", "lut", "rgb2yuv"}) {
    GstElementFactory* factory = gst_element_factory_find(name);
    fail_unless(factory != nullptr, "no %s", name);
    const bool analysis = std::string(name) == "lumamax" || std::string(name) == "histogram";
    for (const GList* l = gst_element_factory_get_static_pad_templates(factory); l; l = l->next) {
      auto* templ = static_cast<GstStaticPadTemplate*>(l->data);
      GstCaps* caps = gst_static_caps_get(&templ->static_caps);
      bool nv12 = false;
      const guint cuda = InCuda(caps, &nv12);
      const bool sink = templ->direction == GST_PAD_SINK;
      // lut reads and writes RGB only, rgb2yuv reads RGB and writes YUV.
      const bool expect_nv12 =
          analysis || std::string(name) == "morph" || (!sink && std::string(name) == "rgb2yuv");
      if (cuda == 0) fail("%s's %s template lists no CUDA memory", name, templ->name_template);
      if (expect_nv12 != nv12)
        fail("%s's %s template %s NV12 in CUDA memory", name, templ->name_template,
             nv12 ? "lists" : "lists no");
      gst_caps_unref(caps);
    }
    gst_object_unref(factory);
  }
}
GST_END_TEST;

// What `pad` of the element named "e" in `launch` answers: CUDA memory (NV12 in it) only where CUDA
// is here. Without it, the capsfilter "f" set to CUDA memory is refused at negotiation.
static void CheckOfferedOnlyWithCuda(const char* launch, const char* pad_name) {
  std::string why;
  const bool cuda = vkc::cuda::available(why);
  GstElement* pipeline = gst_parse_launch(launch, nullptr);
  fail_unless(pipeline != nullptr);
  GstElement* element = gst_bin_get_by_name(GST_BIN(pipeline), "e");
  GstPad* pad = gst_element_get_static_pad(element, pad_name);
  GstCaps* answered = gst_pad_query_caps(pad, nullptr);
  bool nv12 = false;
  const guint in_cuda = InCuda(answered, &nv12);
  if (cuda)
    fail_unless(in_cuda > 0 && nv12, "CUDA is here, but %s offers no NV12 in CUDA memory: %" GST_PTR_FORMAT,
                launch, answered);
  else
    fail_unless(in_cuda == 0, "%s offers CUDA memory without CUDA (%s): %" GST_PTR_FORMAT, launch,
                why.c_str(), answered);
  gst_caps_unref(answered);
  gst_object_unref(pad);
  gst_object_unref(element);
  if (!cuda) {
    GstElement* filter = gst_bin_get_by_name(GST_BIN(pipeline), "f");
    GstCaps* caps = gst_caps_from_string("video/x-raw(memory:CUDAMemory), format=NV12");
    g_object_set(filter, "caps", caps, nullptr);
    gst_caps_unref(caps);
    gst_object_unref(filter);
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    GstBus* bus = gst_element_get_bus(pipeline);
    GstMessage* msg =
        gst_bus_timed_pop_filtered(bus, 30 * GST_SECOND, GstMessageType(GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
    fail_unless(msg && GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ERROR, "CUDA memory was not refused in %s",
                launch);
    GError* error = nullptr;
    gchar* debug = nullptr;
    gst_message_parse_error(msg, &error, &debug);
    // The source's "Internal data stream error", its reason not-negotiated.
    fail_unless(debug && std::string(debug).find("not-negotiated") != std::string::npos,
                "not a refusal at negotiation: %s (%s)", error->message, debug ? debug : "");
    g_free(debug);
    g_error_free(error);
    gst_message_unref(msg);
    gst_object_unref(bus);
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  vktest::AssertNoValidationErrors();
}

// An analysis's input: a source in CUDA memory (a decoder).
GST_START_TEST(test_cuda_input_offered_only_with_cuda) {
  CheckOfferedOnlyWithCuda("videotestsrc num-buffers=2 ! capsfilter name=f ! lumamax name=e ! fakesink",
                           "sink");
}
GST_END_TEST;

// A filter's output: a sink that takes CUDA memory only (an encoder, cudadownload).
GST_START_TEST(test_cuda_output_offered_only_with_cuda) {
  CheckOfferedOnlyWithCuda(
      "videotestsrc num-buffers=2 ! video/x-raw,format=NV12 ! morph name=e ! capsfilter name=f ! fakesink",
      "src");
}
GST_END_TEST;

static Suite* cuda_caps_suite() {
  Suite* suite = suite_create("cuda_caps");
  TCase* tc = tcase_create("cuda_caps");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_templates_list_cuda_memory);
  tcase_add_test(tc, test_cuda_input_offered_only_with_cuda);
  tcase_add_test(tc, test_cuda_output_offered_only_with_cuda);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(cuda_caps_suite(), "cuda_caps", __FILE__);
}
