// What another API (CUDA) needs of the runtime to hand frames over without the CPU (issue 31's
// groundwork, gst/vk): device-local memory exported as a file descriptor, which an importer reads
// as the same bytes; compute work that waits, on the GPU, for a timeline value that someone else
// signals, alone or merged into a thread's batch; and a clear refusal where a device cannot
// export semaphores (lavapipe), never a half-made semaphore.
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "vk/batch.hpp"
#include "vk/device.hpp"
#include "vk/exported_timeline.hpp"
#include "vk/memory.hpp"
#include "vk/submit.hpp"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

#include "common/runtime_test.h"
#include "common/test_seed.h"
#include "common/vktest.h"

namespace {

constexpr vk::DeviceSize kBytes = 256 * 1024 + 12;  // not a whole number of pages
constexpr uint64_t kSecondNs = 1'000'000'000;

// A buffer over the memory behind `fd` (an export of `bytes` of allocation), imported as another API
// would: a VkDeviceMemory of its own, of the memory type an export of this device uses.
struct Imported {
  vk::raii::DeviceMemory memory = nullptr;  // before buffer: freed after it
  vk::raii::Buffer buffer = nullptr;
};

Imported ImportFd(const vkc::Device& device, int fd, vk::DeviceSize size, vk::DeviceSize allocation) {
  const auto handle = vk::ExternalMemoryHandleTypeFlagBits::eOpaqueFd;
  Imported imported;
  // With the exported buffer's own parameters (memory.cpp): an import of a dedicated allocation
  // must name a buffer made the same way (NVIDIA's driver reads zeros otherwise).
  vk::ExternalMemoryBufferCreateInfo external{.handleTypes = handle};
  const auto& families = device.queue_families();
  vk::BufferCreateInfo info{.pNext = &external,
                            .size = size,
                            .usage = vk::BufferUsageFlagBits::eStorageBuffer |
                                     vk::BufferUsageFlagBits::eTransferSrc |
                                     vk::BufferUsageFlagBits::eTransferDst};
  if (families.size() > 1) {
    info.sharingMode = vk::SharingMode::eConcurrent;
    info.queueFamilyIndexCount = uint32_t(families.size());
    info.pQueueFamilyIndices = families.data();
  }
  imported.buffer = vk::raii::Buffer(device.device(), info);
  const auto needs = imported.buffer.getMemoryRequirements();
  const int type =
      device.find_memory_type(needs.memoryTypeBits, {}, vk::MemoryPropertyFlagBits::eDeviceLocal);
  fail_unless(type >= 0, "no memory type for the import");
  vk::MemoryDedicatedAllocateInfo dedicated{.buffer = *imported.buffer};
  vk::ImportMemoryFdInfoKHR import{.pNext = &dedicated, .handleType = handle, .fd = fd};
  imported.memory =
      vk::raii::DeviceMemory(device.device(), vk::MemoryAllocateInfo{.pNext = &import,
                                                                     .allocationSize = allocation,
                                                                     .memoryTypeIndex = uint32_t(type)});
  imported.buffer.bindMemory(*imported.memory, 0);
  return imported;
}

void FillRandom(std::vector<uint8_t>& bytes, const std::string& name) {
  std::mt19937 rng = vktest::RngFor(name);
  for (auto& b : bytes) b = uint8_t(rng());
}

}  // namespace

// Random bytes copied into an exported buffer read back, through a second allocation that imports
// its file descriptor, equal. (On lavapipe: NVIDIA's driver reads zeros through an import into the
// exporting device, bench/gpu-checks.sh; its importer, CUDA, is checked by test_cuda_bridge.)
GST_START_TEST(test_exported_memory_reads_the_same_through_an_import) {
  auto device = vktest::AnyDevice();
  fail_unless(device->features().memory_fd_export,
              "the device (%s) lacks VK_KHR_external_memory_fd, which lavapipe and NVIDIA's drivers offer",
              device->name().c_str());
  std::string error;
  auto exported = vkc::Buffer::create_exported(device, kBytes, "test exported", error);
  fail_unless(exported != nullptr, "create_exported: %s", error.c_str());
  fail_unless(exported->allocation_size() >= exported->size());
  const int fd = exported->export_fd(error);
  fail_unless(fd >= 0, "export_fd: %s", error.c_str());
  Imported imported = ImportFd(*device, fd, exported->size(), exported->allocation_size());  // takes fd

  auto source = vkc::Buffer::create_host(device, kBytes, "test source");
  auto target = vkc::Buffer::create_host(device, kBytes, "test target");
  std::vector<uint8_t> bytes(kBytes);
  FillRandom(bytes, "exported memory");
  std::memcpy(source->mapped(), bytes.data(), kBytes);
  auto ring = vkc::submit_commands(device, "test export round trip", [&](vkc::Commands cmd) {
    cmd.copyBuffer(source->handle(), exported->handle(), vk::BufferCopy{.size = kBytes});
    vk::MemoryBarrier written{.srcAccessMask = vk::AccessFlagBits::eTransferWrite,
                              .dstAccessMask = vk::AccessFlagBits::eTransferRead};
    cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eTransfer, {},
                        written, nullptr, nullptr);
    cmd.copyBuffer(*imported.buffer, target->handle(), vk::BufferCopy{.size = kBytes});
  });
  fail_unless(ring->wait(0, 10 * kSecondNs) == vkc::Completion::kDone, "the copies did not complete");
  const uint8_t* read = target->mapped();
  for (size_t i = 0; i < kBytes; ++i)
    if (read[i] != bytes[i])
      fail("byte %zu read through the import is %u, written %u (%s)", i, read[i], bytes[i],
           vktest::SeedDescription().c_str());
  ring.reset();
  vktest::AssertNoValidationErrors();
}
GST_END_TEST;

// A ring slot told to wait for value 3 of a timeline semaphore that the host signals (as CUDA
// would, once its copy is done) does not run before it, and runs after it; with the thread's batch
// open, the wait travels with the work merged into the batch's one submission.
GST_START_TEST(test_compute_work_waits_for_a_timeline_value) {
  auto device = vktest::AnyDevice();
  for (bool batched : {false, true}) {
    vk::SemaphoreTypeCreateInfo type{.semaphoreType = vk::SemaphoreType::eTimeline, .initialValue = 1};
    vk::raii::Semaphore semaphore(device->device(), vk::SemaphoreCreateInfo{.pNext = &type});
    auto source = vkc::Buffer::create_host(device, kBytes, "test source");
    auto target = vkc::Buffer::create_host(device, kBytes, "test target");
    std::vector<uint8_t> bytes(kBytes);
    FillRandom(bytes, batched ? "timeline wait, batched" : "timeline wait");
    std::memcpy(source->mapped(), bytes.data(), kBytes);
    vkc::CommandRing ring(device, 1, "test timeline wait", 0);
    {
      std::unique_ptr<vkc::BatchScope> scope(batched ? new vkc::BatchScope : nullptr);
      vkc::Commands cmd = ring.begin(0);
      cmd.copyBuffer(source->handle(), target->handle(), vk::BufferCopy{.size = kBytes});
      vk::MemoryBarrier to_host{.srcAccessMask = vk::AccessFlagBits::eTransferWrite,
                                .dstAccessMask = vk::AccessFlagBits::eHostRead};
      cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eHost, {}, to_host,
                          nullptr, nullptr);
      ring.wait_before(0, *semaphore, 3);
      ring.submit(0, batched);
    }
    // Signalled to 2 only: the work may not start. (A wait that finds it done would be a defect
    // whatever its length; this one only gives a wrong wait the time to show.)
    device->device().signalSemaphore(vk::SemaphoreSignalInfo{.semaphore = *semaphore, .value = 2});
    fail_unless(ring.wait(0, kSecondNs / 10) == vkc::Completion::kPending,
                "the work ran before the value it waits for (batched: %d)", batched);
    fail_unless(target->mapped()[0] == 0 && std::memcmp(target->mapped(), target->mapped() + 1, 64) == 0,
                "the target was written before the value it waits for");
    device->device().signalSemaphore(vk::SemaphoreSignalInfo{.semaphore = *semaphore, .value = 3});
    fail_unless(ring.wait(0, 10 * kSecondNs) == vkc::Completion::kDone,
                "the work did not run after the value");
    fail_unless(std::memcmp(target->mapped(), bytes.data(), kBytes) == 0, "the copy is wrong (%s)",
                vktest::SeedDescription().c_str());
  }
  vktest::AssertNoValidationErrors();
}
GST_END_TEST;

// An exported timeline: made where the device exports semaphores as file descriptors, with a file
// descriptor to give, and released from the CPU when the API that signals it is lost; refused with
// the reason where the device does not export semaphores (lavapipe).
GST_START_TEST(test_exported_timeline_or_the_reason_why_not) {
  auto device = vktest::AnyDevice();
  std::string error;
  auto timeline = vkc::ExportedTimeline::create(device, "test exported timeline", error);
  if (device->features().semaphore_fd_export) {
    fail_unless(timeline != nullptr, "create: %s", error.c_str());
    const int fd = timeline->export_fd(error);
    fail_unless(fd >= 0, "export_fd: %s", error.c_str());
    close(fd);
    fail_unless_equals_int(timeline->next_value(), 1);
    fail_unless_equals_int(timeline->next_value(), 2);
    fail_unless_equals_int(timeline->counter(), 0);
    // The other API lost: work waiting for the last value given runs once the CPU releases it.
    vkc::CommandRing ring(device, 1, "test released wait", 0);
    ring.begin(0);
    ring.wait_before(0, timeline->semaphore(), 2);
    ring.submit(0);
    fail_unless(ring.wait(0, kSecondNs / 10) == vkc::Completion::kPending, "the work ran before its value");
    fail_unless(timeline->release(error), "release: %s", error.c_str());
    fail_unless(ring.wait(0, 10 * kSecondNs) == vkc::Completion::kDone, "the released work still waits");
    fail_unless_equals_int(timeline->counter(), 2);
    fail_unless(timeline->release(error), "a second release: %s", error.c_str());  // nothing to signal
    fail_unless_equals_int(timeline->counter(), 2);
  } else {
    fail_unless(timeline == nullptr, "made without VK_KHR_external_semaphore_fd");
    fail_unless(error.find("VK_KHR_external_semaphore_fd") != std::string::npos, "the reason: %s",
                error.c_str());
  }
  vktest::AssertNoValidationErrors();
}
GST_END_TEST;

static Suite* external_suite() {
  Suite* suite = suite_create("external");
  TCase* tc = tcase_create("external");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_exported_memory_reads_the_same_through_an_import);
  tcase_add_test(tc, test_compute_work_waits_for_a_timeline_value);
  tcase_add_test(tc, test_exported_timeline_or_the_reason_why_not);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(int argc, char** argv) {
  return vktest::RunRuntimeSuite(&argc, &argv, external_suite(), "external", __FILE__);
}
