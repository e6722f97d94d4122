// The automatic device choice (device=-1) on a host with two devices (lavapipe listed twice, see
// main()): new pipelines spread over the devices by the streams each runs, and a chain follows the
// elements of ours beside it, upstream first, through queues, converters and a tee, so that its
// frames stay on one device. Each element's `device-index` says where it runs; a chain that
// followed its neighbours runs to EOS with its frames in device memory.
#include <gst/check/gstcheck.h>

#include <string>
#include <vector>

#include "chain/chain_frames.h"
#include "common/bus_wait.h"
#include "common/vktest.h"

namespace {

constexpr GstClockTime kTimeout = 120 * GST_SECOND;

const std::string kSource =
    "videotestsrc is-live=true num-buffers=4 ! video/x-raw,format=RGBA,width=33,height=17";

// A pipeline brought to PAUSED: its elements have started, so each holds its device.
GstElement* Started(const std::string& description) {
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  const GstStateChangeReturn ret = gst_element_set_state(pipeline, GST_STATE_PAUSED);
  fail_unless(ret == GST_STATE_CHANGE_NO_PREROLL || ret == GST_STATE_CHANGE_SUCCESS, "%s did not start (%s)",
              description.c_str(), gst_element_state_change_return_get_name(ret));
  return pipeline;
}

void Stop(GstElement* pipeline) {
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}

// The `device-index` of the element called `name` in `pipeline`.
int DeviceOf(GstElement* pipeline, const char* name) {
  GstElement* element = gst_bin_get_by_name(GST_BIN(pipeline), name);
  fail_unless(element != nullptr, "no element %s", name);
  gint index = -2;
  g_object_get(element, "device-index", &index, nullptr);
  gst_object_unref(element);
  return index;
}

void ExpectDevices(GstElement* pipeline, const std::vector<const char*>& names, int device,
                   const std::string& context) {
  for (const char* name : names)
    fail_unless(DeviceOf(pipeline, name) == device, "%s: %s runs on device %d, expected %d", context.c_str(),
                name, DeviceOf(pipeline, name), device);
}

void RequireTwoDevices() {
  fail_unless(vktest::PhysicalDeviceNames().size() == 2,
              "the loader lists %zu Vulkan devices; main() lists lavapipe twice",
              vktest::PhysicalDeviceNames().size());
}

}  // namespace

// Pipelines started one after another alternate between the devices; one that stops leaves its
// device with fewer streams, and the next pipeline goes there.
GST_START_TEST(test_new_pipelines_spread) {
  RequireTwoDevices();
  const std::string one = kSource + " ! lumamax name=a ! fakesink";
  std::vector<GstElement*> pipelines;
  for (int i = 0; i < 4; ++i) {
    pipelines.push_back(Started(one));
    fail_unless(DeviceOf(pipelines.back(), "a") == i % 2, "pipeline %d runs on device %d, expected %d", i,
                DeviceOf(pipelines.back(), "a"), i % 2);
  }
  // A chain counts a stream per element: with two pipelines of lumamax on each device, a chain of
  // three goes to device 0, and the next lumamax to device 1.
  GstElement* chain = Started(kSource + " ! morph name=m ! lumamax name=l ! histogram name=h ! fakesink");
  ExpectDevices(chain, {"m", "l", "h"}, 0, "the chain");
  GstElement* next = Started(one);
  fail_unless(DeviceOf(next, "a") == 1, "after the chain on device 0, lumamax runs on device %d",
              DeviceOf(next, "a"));
  // Device 0: 2 + 3 streams, device 1: 3. Two pipelines of device 1 stop: the next goes there.
  Stop(pipelines[1]);
  Stop(pipelines[3]);
  GstElement* after = Started(one);
  fail_unless(DeviceOf(after, "a") == 1, "after two stops on device 1, lumamax runs on device %d",
              DeviceOf(after, "a"));
  for (GstElement* p : {pipelines[0], pipelines[2], chain, next, after}) Stop(p);
}
GST_END_TEST;

// With another pipeline on device 0, a chain goes to device 1 as a whole: its last element (the
// first to start) by the spread, the others after it by their neighbours, through a queue and a
// converter; the frames stay in device memory where they can, and the chain runs to EOS.
GST_START_TEST(test_chain_follows_its_last_element) {
  RequireTwoDevices();
  GstElement* other = Started(kSource + " ! lumamax ! fakesink");
  const std::string chain =
      kSource + " ! " + chaintest::Lut() +
      " name=e0 ! queue ! morph name=e1 ! lumamax name=e2 ! videoconvert ! histogram name=e3 ! "
      "rgb2yuv name=e4 ! video/x-raw,format=NV12 ! fakesink";
  GstElement* pipeline = Started(chain);
  ExpectDevices(pipeline, {"e0", "e1", "e2", "e3", "e4"}, 1, "the chain beside a pipeline on device 0");
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  vktest::ExpectEos(pipeline, kTimeout, chain);
  guint64 uploads = 0;
  GstElement* morph = gst_bin_get_by_name(GST_BIN(pipeline), "e1");
  g_object_get(morph, "uploads", &uploads, nullptr);
  gst_object_unref(morph);
  fail_unless(uploads == 0,
              "morph uploaded %" G_GUINT64_FORMAT " frames: its input did not stay on the device", uploads);
  Stop(pipeline);
  Stop(other);
}
GST_END_TEST;

// An element set to a device leads the automatic ones beside it: upstream first (the frames come in
// its device's memory), downstream otherwise, through a tee to each branch.
GST_START_TEST(test_set_device_leads_its_neighbours) {
  RequireTwoDevices();
  struct Case {
    std::string elements;
    std::vector<const char*> automatic;
    int device;
  };
  const std::vector<Case> cases = {
      {chaintest::Lut() + " name=a device=1 ! morph name=b ! lumamax name=c", {"b", "c"}, 1},
      {chaintest::Lut() + " name=a ! morph name=b device=1 ! lumamax name=c", {"a", "c"}, 1},
      // Upstream wins: the frames come from `a`.
      {chaintest::Lut() + " name=a device=1 ! morph name=b ! lumamax name=c device=0", {"b"}, 1},
      {chaintest::Lut() +
           " name=a device=1 ! tee name=t ! queue ! morph name=b ! fakesink t. ! queue ! lumamax name=c",
       {"b", "c"},
       1},
  };
  for (const Case& c : cases) {
    const std::string description = kSource + " ! " + c.elements + " ! fakesink";
    GstElement* pipeline = Started(description);
    ExpectDevices(pipeline, c.automatic, c.device, description);
    Stop(pipeline);
  }
}
GST_END_TEST;

static Suite* device_spread_suite() {
  Suite* suite = suite_create("device_spread");
  TCase* tc = vktest::NewTCase("spread", 300);
  tcase_add_test(tc, test_new_pipelines_spread);
  tcase_add_test(tc, test_chain_follows_its_last_element);
  tcase_add_test(tc, test_set_device_leads_its_neighbours);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(int argc, char** argv) {
  vktest::ListLavapipeTwice("test-device-spread");
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(device_spread_suite(), "device_spread", __FILE__);
}
