// gst/gstvk: GStreamer's Vulkan library loaded at run time, and the fields of its objects and memory
// read through gstvk/abi.hpp. The suite's machines have the library (tools/deps.sh test installs
// gst-plugins-bad). It loads, with the 1.24 functions exactly from 1.24 on; the barrier layout chosen
// is the running GStreamer's (32-bit flags on 1.22, 64-bit from 1.24); on a GstVulkanDevice made
// through the library (lavapipe), check_layout() passes and the device's, physical device's,
// instance's and queue's heads read what Vulkan and the library say; a fresh image's and buffer's
// barrier state reads as GStreamer sets it, a state written reads back (bits beyond 32 refused on
// 1.22), other memory is refused; the stock round trip vulkanupload ! vulkandownload runs with the
// messages of GStreamer's Vulkan instance counted (none but the tolerated); turn_off() turns interop
// off with its first reason.
#include <cstring>
#include <memory>
#include <string>

#include "gstvk/abi.hpp"
#include "gstvk/library.hpp"

#include "common/bus_wait.h"
#include "common/gstvk_library.h"
#include "common/runtime_test.h"

namespace {

using gstvk_test::GstMinor;
using gstvk_test::Library;
using vkc::gstvk::BarrierLayout;
using vkc::gstvk::BarrierState;
using vkc::gstvk::fields;
using vkc::gstvk::GstVulkanLibrary;

constexpr GstClockTime kPipelineTimeout = 30 * GST_SECOND;

// An instance and an open device on physical device 0, made through the library as GStreamer's
// elements make theirs; their references are dropped at the end of the scope.
struct GstDevice {
  std::unique_ptr<GstVulkanInstance, decltype(&gst_object_unref)> instance{nullptr, gst_object_unref};
  std::unique_ptr<GstVulkanDevice, decltype(&gst_object_unref)> device{nullptr, gst_object_unref};

  GstDevice() {
    vktest::RequirePhysicalDevice();
    const GstVulkanLibrary& library = Library();
    GError* error = nullptr;
    instance.reset(library.instance_new());
    fail_unless(library.instance_open(instance.get(), &error), "instance: %s", error ? error->message : "?");
    device.reset(library.device_new_with_index(instance.get(), 0));
    fail_unless(library.device_open(device.get(), &error), "device: %s", error ? error->message : "?");
  }
};

GST_START_TEST(test_library_loads) {
  const GstVulkanLibrary& library = Library();
  const bool from_1_24 = GstMinor() >= 24;
  fail_unless_equals_int(library.has_operation, from_1_24);
  fail_unless_equals_int(library.device_select_queue != nullptr, from_1_24);
  fail_unless_equals_int(library.image_buffer_pool_config_set_allocation_params != nullptr, from_1_24);
  const BarrierLayout expected = from_1_24 ? BarrierLayout::kFlags64 : BarrierLayout::kFlags32;
  fail_unless(vkc::gstvk::barrier_layout(library) == expected, "GStreamer 1.%u: the other barrier layout",
              GstMinor());
  std::string why;
  fail_unless(vkc::gstvk::available(why), "%s", why.c_str());
}
GST_END_TEST;

GST_START_TEST(test_check_layout) {
  GstDevice made;
  std::string why;
  fail_unless(vkc::gstvk::check_layout(made.device.get(), why), "%s", why.c_str());

  // The heads beyond what check_layout() compares: the physical device's properties are Vulkan's,
  // and a queue's head names its device, family and index.
  const vkc::gstvk::PhysicalDeviceFields& physical = fields(fields(made.device.get()).physical_device);
  fail_unless_equals_int(physical.device_index, 0);
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(physical.device, &properties);
  fail_unless_equals_string(physical.properties.deviceName, properties.deviceName);
  fail_unless_equals_int(physical.properties.apiVersion, properties.apiVersion);
  fail_unless(std::strstr(properties.deviceName, "llvmpipe") != nullptr, "not lavapipe: %s",
              properties.deviceName);

  GstVulkanQueue* queue = Library().device_get_queue(made.device.get(), 0, 0);  // lavapipe: one family
  fail_unless(queue != nullptr);
  const vkc::gstvk::QueueFields& head = fields(queue);
  fail_unless(head.device == made.device.get() && head.queue != VK_NULL_HANDLE);
  fail_unless_equals_int(head.family, 0);
  fail_unless_equals_int(head.index, 0);
  gst_object_unref(queue);
}
GST_END_TEST;

// Reads `memory`'s state, fails when it is not GStreamer's.
BarrierState Read(GstMemory* memory) {
  BarrierState state;
  fail_unless(vkc::gstvk::read_barrier(Library(), memory, state), "not GStreamer's Vulkan memory");
  return state;
}

// What GStreamer's own writers store after a copy into `memory` (stages, access, layout, and on
// 1.24+ the next timeline value) reads back as written, but the queue, which stays the memory's, and
// only what the release's layout can hold.
void CheckWrittenState(GstMemory* memory, GstVulkanQueue* queue, bool image) {
  const bool flags64 = vkc::gstvk::barrier_layout(Library()) == BarrierLayout::kFlags64;
  BarrierState written = Read(memory);
  written.pipeline_stages = VK_PIPELINE_STAGE_TRANSFER_BIT;
  written.access_flags = VK_ACCESS_TRANSFER_WRITE_BIT;
  written.image_layout = image ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
  written.queue = queue;  // not stored: the memory's reference is not ours to replace
  written.semaphore_value = flags64 ? 1 : 0;
  fail_unless(vkc::gstvk::write_barrier(Library(), memory, written));
  const BarrierState read = Read(memory);
  fail_unless(read.pipeline_stages == written.pipeline_stages && read.access_flags == written.access_flags &&
              read.image_layout == written.image_layout && read.queue == nullptr &&
              read.semaphore == written.semaphore && read.semaphore_value == written.semaphore_value);

  // A synchronization2 bit above 32 (a video decoder's write): only the 64-bit layout holds it.
  BarrierState decoded = read;
  decoded.access_flags = VK_ACCESS_2_VIDEO_DECODE_WRITE_BIT_KHR;
  fail_unless_equals_int(vkc::gstvk::write_barrier(Library(), memory, decoded), flags64);
  fail_unless(Read(memory).access_flags == (flags64 ? decoded.access_flags : written.access_flags));
}

GST_START_TEST(test_barrier_state) {
  GstDevice made;
  const GstVulkanLibrary& library = Library();
  const bool flags64 = vkc::gstvk::barrier_layout(library) == BarrierLayout::kFlags64;
  GstVulkanQueue* queue = library.device_get_queue(made.device.get(), 0, 0);

  library.image_memory_init_once();
  GstMemory* image =
      library.image_memory_alloc(made.device.get(), VK_FORMAT_R8G8B8A8_UNORM, 97, 61, VK_IMAGE_TILING_OPTIMAL,
                                 VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  fail_unless(image != nullptr);
  const BarrierState fresh = Read(image);
  fail_unless(fresh.pipeline_stages == VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT && fresh.access_flags == 0 &&
              fresh.image_layout == VK_IMAGE_LAYOUT_UNDEFINED && fresh.queue == nullptr &&
              fresh.semaphore_value == 0);
  // lavapipe has timeline semaphores, and from 1.24 GStreamer gives each image it allocates one.
  fail_unless_equals_int(fresh.semaphore != VK_NULL_HANDLE, flags64);
  CheckWrittenState(image, queue, true);
  gst_memory_unref(image);

  library.buffer_memory_init_once();
  GstMemory* buffer = library.buffer_memory_alloc(made.device.get(), 64, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  fail_unless(buffer != nullptr);
  const BarrierState fresh_buffer = Read(buffer);
  fail_unless(fresh_buffer.pipeline_stages == VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT &&
              fresh_buffer.access_flags == 0 && fresh_buffer.queue == nullptr &&
              fresh_buffer.semaphore == VK_NULL_HANDLE);
  CheckWrittenState(buffer, queue, false);
  gst_memory_unref(buffer);

  GstMemory* system = gst_allocator_alloc(nullptr, 64, nullptr);
  BarrierState state;
  fail_if(vkc::gstvk::read_barrier(library, system, state));
  fail_if(vkc::gstvk::write_barrier(library, system, state));
  gst_memory_unref(system);
  gst_object_unref(queue);
}
GST_END_TEST;

// GStreamer's own round trip, on its own instance: the layers' messages reach vktest's count through
// "vulkandebug" (none expected but the tolerated ones), and none of its g_warning/g_critical fails
// the test by itself.
GST_START_TEST(test_stock_round_trip_counted) {
  vktest::RequirePhysicalDevice();
  vktest::RunToEos(
      "videotestsrc num-buffers=3 ! video/x-raw,format=RGBA,width=64,height=48 ! vulkanupload ! "
      "vulkandownload ! "
      "fakesink",
      kPipelineTimeout);
}
GST_END_TEST;

// Runs in its own process (check forks one per test): interop stays off for the rest of it.
GST_START_TEST(test_turn_off) {
  GstDevice made;
  std::string why;
  fail_unless(vkc::gstvk::available(why), "%s", why.c_str());
  vkc::gstvk::turn_off("the first reason");
  vkc::gstvk::turn_off("a second reason");
  fail_if(vkc::gstvk::available(why));
  fail_unless_equals_string(why.c_str(), "the first reason");
  why.clear();
  fail_if(vkc::gstvk::check_layout(made.device.get(), why));
  fail_unless_equals_string(why.c_str(), "the first reason");
}
GST_END_TEST;

Suite* gstvk_library_suite() {
  Suite* suite = suite_create("gstvk_library");
  TCase* library = vktest::NewTCase("library", 120);
  suite_add_tcase(suite, library);
  tcase_add_test(library, test_library_loads);
  tcase_add_test(library, test_check_layout);
  tcase_add_test(library, test_barrier_state);
  tcase_add_test(library, test_stock_round_trip_counted);
  tcase_add_test(library, test_turn_off);
  return suite;
}

}  // namespace

int main(int argc, char** argv) {
  return vktest::RunRuntimeSuite(&argc, &argv, gstvk_library_suite(), "gstvk_library", __FILE__);
}
