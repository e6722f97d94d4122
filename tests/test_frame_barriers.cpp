// When a frame waits for earlier work on the compute queue (gst/base/framebarriers.hpp), on a real
// device (lavapipe): the frame in device memory that it reads or writes may still be being written
// there, unless the write is seen done, or a barrier that the same thread submitted after it already
// orders it. A frame that skipped a barrier it needed would read a frame half written; one that
// recorded every barrier kept the device's frames from overlapping (docs/benchmarks.md).
#include <memory>
#include <string>
#include <thread>

#include "base/framebarriers.hpp"
#include "base/vkmemory.hpp"
#include "vk/device.hpp"
#include "vk/submit.hpp"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

#include "common/vktest.h"

GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_runtime_debug);

namespace {

constexpr uint64_t kWaitNs = 10'000'000'000;

std::shared_ptr<vkc::Device> any_device() {
  vktest::RequirePhysicalDevice();
  std::string error;
  auto device = vkc::Device::acquire(-1, error);
  fail_unless(device != nullptr, "no device: %s", error.c_str());
  return device;
}

// A frame's worth of device memory of ours on `device`, written by nothing yet.
struct DeviceFrame {
  explicit DeviceFrame(const std::shared_ptr<vkc::Device>& device)
      : allocator(gst_vkcompute_device_allocator_new(device, std::make_shared<vkc::TransferCounts>())),
        memory(gst_allocator_alloc(allocator, 4096, nullptr)) {
    fail_unless(memory != nullptr, "no device memory");
    // Its zero fill seen done (through empty work submitted after it on the same queue), so that only
    // the writes the cases set count.
    auto after = vkc::submit_commands(device, "test frame barriers", [](vkc::Commands) {});
    fail_unless(after->wait(0, kWaitNs) == vkc::Completion::kDone, "the device did not complete empty work");
  }
  ~DeviceFrame() {
    gst_memory_unref(memory);
    gst_object_unref(allocator);
  }
  GstAllocator* allocator;
  GstMemory* memory;
};

// A write on the device's compute queue that has not reached it yet (a batch still holds it).
std::shared_ptr<const vkc::SubmitPoint> unsent_write(const vkc::Device& device) {
  return std::make_shared<const vkc::SubmitPoint>(device.timeline(vkc::QueueRole::kCompute), 0);
}

// A frame this thread submits to `device`, with or without the barrier after earlier work.
vkc::WriteOrder submit_frame(const vkc::Device& device, bool barrier) {
  vkc::Frame frame;
  frame.after_earlier_work = barrier;
  return vkc::note_submitted(device, frame);
}

}  // namespace

GST_START_TEST(test_memory_never_written_needs_no_wait) {
  auto device = any_device();
  DeviceFrame frame(device);
  fail_if(vkc::waits_for_write(frame.memory, *device), "a frame whose only write is done waits for it");
}
GST_END_TEST;

GST_START_TEST(test_a_running_write_is_waited_for_until_a_later_barrier_of_the_thread) {
  auto device = any_device();
  DeviceFrame frame(device);
  gst_vkcompute_memory_set_written(frame.memory, unsent_write(*device), submit_frame(*device, false));
  fail_unless(vkc::waits_for_write(frame.memory, *device), "a reader skips the wait for a running write");
  // Frames of the thread without a barrier order nothing.
  submit_frame(*device, false);
  fail_unless(vkc::waits_for_write(frame.memory, *device), "a frame without a barrier ordered the write");
  // A frame with a barrier, submitted after the write, orders it for every frame after it.
  submit_frame(*device, true);
  fail_if(vkc::waits_for_write(frame.memory, *device), "a barrier submitted after the write does not count");
  // A write after that barrier is running again.
  gst_vkcompute_memory_set_written(frame.memory, unsent_write(*device), submit_frame(*device, false));
  fail_unless(vkc::waits_for_write(frame.memory, *device), "an earlier barrier ordered a later write");
}
GST_END_TEST;

GST_START_TEST(test_a_barrier_of_another_thread_does_not_count) {
  auto device = any_device();
  DeviceFrame frame(device);
  // Written by another thread, which then submits a barrier frame: its order on the queue relative to
  // this thread's frames is not known here.
  std::thread writer([&] {
    gst_vkcompute_memory_set_written(frame.memory, unsent_write(*device), submit_frame(*device, false));
    submit_frame(*device, true);
  });
  writer.join();
  // Barriers of this thread, numbered past the writer's frame: the numbers are each thread's own.
  for (int i = 0; i < 3; ++i) submit_frame(*device, true);
  fail_unless(vkc::waits_for_write(frame.memory, *device), "a reader on another thread skips the wait");
}
GST_END_TEST;

GST_START_TEST(test_a_write_seen_done_needs_no_wait) {
  auto device = any_device();
  DeviceFrame frame(device);
  auto ring = vkc::submit_commands(device, "test frame barriers", [](vkc::Commands) {});
  gst_vkcompute_memory_set_written(frame.memory, ring->compute_point(0), submit_frame(*device, false));
  fail_unless(ring->wait(0, kWaitNs) == vkc::Completion::kDone, "the device did not complete empty work");
  fail_if(vkc::waits_for_write(frame.memory, *device), "a reader waits for a write seen done");
}
GST_END_TEST;

static Suite* frame_barriers_suite() {
  Suite* suite = suite_create("frame_barriers");
  TCase* tc = tcase_create("frame_barriers");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_memory_never_written_needs_no_wait);
  tcase_add_test(tc, test_a_running_write_is_waited_for_until_a_later_barrier_of_the_thread);
  tcase_add_test(tc, test_a_barrier_of_another_thread_does_not_count);
  tcase_add_test(tc, test_a_write_seen_done_needs_no_wait);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  GST_DEBUG_CATEGORY_INIT(gst_vkcompute_runtime_debug, "vkcompute", 0, "vkcompute Vulkan runtime");
  return gst_check_run_suite(frame_barriers_suite(), "frame_barriers", __FILE__);
}
