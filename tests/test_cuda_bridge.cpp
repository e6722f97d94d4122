// gst/cuda/bridge.hpp: frames handed from CUDA to Vulkan on the GPU. Where NVIDIA's driver is
// (the lent GPU, bench/gpu-checks.sh): random NV12 frames in CUDA memory at the decoders' pitch,
// copied by the bridge into an exported Vulkan buffer and read by Vulkan work that waits for the
// copy's timeline value, arrive byte for byte, frame after frame into the same buffer; what Vulkan
// writes there CUDA reads, and the bridge's copies out put it byte for byte into a pitched frame in
// CUDA memory; the bridge holds what keeps its context alive; a lost context (a faulting kernel) is reported,
// lets the Vulkan work that waits for its copies run, and leaves the Vulkan device working. Without the
// driver (CI, lavapipe): the bridge is refused with the reason, and no GPU is taken for CUDA's.
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuda/bridge.hpp"
#include "cuda/driver.hpp"
#include "vk/device.hpp"
#include "vk/submit.hpp"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

#include "common/cuda_fault.h"
#include "common/runtime_test.h"
#include "common/test_seed.h"
#include "common/vktest.h"

namespace {

constexpr uint64_t kSecondNs = 1'000'000'000;
constexpr size_t kWidth = 1920, kHeight = 1080;  // NV12: a luma plane, and half as many rows of UV

void Check(const CudaFunctions& cu, CUresult result, const char* what) {
  if (result != CUDA_SUCCESS) fail("%s", vkc::cuda::error_text(cu, what, result).c_str());
}

// Copies `rows` rows of `width` bytes from host `content` into the frame at `frame` (rows `pitch`
// apart), or the other way when `to_host`; done when it returns (as a decoder's frame is once pushed).
void CopyFrame(const CudaFunctions& cu, CUdeviceptr frame, size_t pitch, uint8_t* host, size_t width,
               size_t rows, bool to_host) {
  CUDA_MEMCPY2D copy{};
  copy.srcMemoryType = to_host ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
  copy.srcDevice = to_host ? frame : 0;
  copy.srcHost = to_host ? nullptr : host;
  copy.srcPitch = to_host ? pitch : width;
  copy.dstMemoryType = to_host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
  copy.dstDevice = to_host ? 0 : frame;
  copy.dstHost = to_host ? host : nullptr;
  copy.dstPitch = to_host ? width : pitch;
  copy.WidthInBytes = width;
  copy.Height = rows;
  Check(cu, cu.cuMemcpy2D(&copy), "cuMemcpy2D");
}

// Copies `target` into `readback` on `ring`'s slot 0 once CUDA's copy `value` of `bridge` is done,
// and waits for it.
void ReadBack(vkc::CommandRing& ring, const vkc::cuda::Bridge& bridge, uint64_t value,
              const vkc::cuda::Target& target, const vkc::Buffer& readback, size_t bytes) {
  vkc::Commands cmd = ring.begin(0);
  cmd.copyBuffer(target.buffer().handle(), readback.handle(), vk::BufferCopy{.size = bytes});
  vk::MemoryBarrier to_host{.srcAccessMask = vk::AccessFlagBits::eTransferWrite,
                            .dstAccessMask = vk::AccessFlagBits::eHostRead};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eHost, {}, to_host,
                      nullptr, nullptr);
  ring.wait_before(0, bridge.semaphore(), value);
  ring.submit(0);
  fail_unless(ring.wait(0, 10 * kSecondNs) == vkc::Completion::kDone, "the readback did not end");
}

// A lost context (a fault in any of its work): the copies in it had queued signal nothing, so the
// Vulkan work waiting for them would hold the compute queue forever; the bridge says the context is
// lost and lets that work run, refuses what comes after with CUDA's error, and goes without a crash;
// the Vulkan device works on.
void CheckLostContext(const std::shared_ptr<vkc::Device>& device, const CudaFunctions& cu,
                      CUdevice cuda_device) {
  CUcontext context = nullptr;
  Check(cu, cu.cuCtxCreate(&context, 0, cuda_device), "cuCtxCreate");
  CUcontext popped;
  cu.cuCtxPopCurrent(&popped);
  vktest::CudaFault fault(cu, context);
  fail_unless(fault.error().empty(), "%s", fault.error().c_str());
  std::string error;
  auto bridge = vkc::cuda::Bridge::create(device, context, nullptr, error);
  fail_unless(bridge != nullptr, "Bridge::create: %s", error.c_str());
  // 128 copies of 256 MiB (tens of milliseconds together), most still queued when the context
  // faults.
  constexpr size_t kSide = 16384;
  constexpr int kCopies = 128;
  auto target = bridge->make_target(kSide * kSide, "test CUDA target", error);
  fail_unless(target != nullptr, "make_target: %s", error.c_str());
  CUdeviceptr frame = 0;
  {
    vkc::cuda::ContextScope current(cu, context);
    Check(cu, cu.cuMemAlloc(&frame, kSide * kSide), "cuMemAlloc");
  }
  const std::vector<vkc::cuda::CudaPlane> planes{{frame, kSide, kSide, kSide}};
  const std::vector<uint32_t> offsets{0}, pitches{uint32_t(kSide)};
  vkc::CommandRing ring(device, 1, "test CUDA waits", 0);
  uint64_t last = 0;
  for (int i = 0; i < kCopies; ++i) {
    last = bridge->copy_in(planes, *target, offsets, pitches, error);
    fail_unless(last > 0, "copy_in %d: %s", i, error.c_str());
  }
  ring.begin(0);
  ring.wait_before(0, bridge->semaphore(), last);
  ring.submit(0);
  std::string report;
  fail_unless(fault.fire(report), "%s", report.c_str());
  const uint64_t reached = (*device->device()).getSemaphoreCounterValue(bridge->semaphore());
  fail_unless(reached < last,
              "the copies finished before the fault (%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
              "): nothing waits for a lost copy",
              reached, last);
  fail_unless(ring.wait(0, kSecondNs / 10) == vkc::Completion::kPending,
              "the Vulkan work ran without the copy it waits for");
  fail_unless(bridge->release_if_lost(), "the bridge does not see the context's fault (%s)", report.c_str());
  fail_unless(ring.wait(0, 10 * kSecondNs) == vkc::Completion::kDone,
              "the Vulkan work waiting for a lost copy still waits");
  // What comes after is refused with the driver's error.
  fail_unless(bridge->copy_in(planes, *target, offsets, pitches, error) == 0, "a copy in a lost context");
  fail_unless(error.find("CUDA_ERROR_") != std::string::npos, "the reason: %s", error.c_str());
  error.clear();
  fail_unless(!bridge->copy_out(*target, offsets, pitches, planes, error), "a copy out of a lost context");
  fail_unless(error.find("CUDA_ERROR_") != std::string::npos, "the reason: %s", error.c_str());
  target.reset();
  bridge.reset();
  cu.cuCtxDestroy(context);
  // The Vulkan device works on.
  auto buffer = vkc::Buffer::create_host(device, 4096, "test after the loss");
  vkc::Commands cmd = ring.begin(0);
  cmd.fillBuffer(buffer->handle(), 0, VK_WHOLE_SIZE, 0x2a2a2a2au);
  vk::MemoryBarrier to_host{.srcAccessMask = vk::AccessFlagBits::eTransferWrite,
                            .dstAccessMask = vk::AccessFlagBits::eHostRead};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eHost, {}, to_host,
                      nullptr, nullptr);
  ring.submit(0);
  fail_unless(ring.wait(0, 10 * kSecondNs) == vkc::Completion::kDone, "the Vulkan device no longer works");
  fail_unless_equals_int(buffer->mapped()[4095], 0x2a);
}

// Frames whose rows the bridge's copy kernel reads in whole words (a width of 1918 in a target
// whose rows are 1920 bytes apart: 2 bytes of padding copied too) and frames it leaves to
// cuMemcpy2DAsync (rows 1918 bytes apart in the target: not in whole words) arrive byte for byte, in
// and out.
void CheckRowLayouts(const std::shared_ptr<vkc::Device>& device, const CudaFunctions& cu, CUcontext context,
                     vkc::cuda::Bridge& bridge, std::mt19937& rng) {
  constexpr size_t kLayoutWidth = 1918;
  for (const size_t target_pitch : {size_t(1920), kLayoutWidth}) {
    const size_t rows = kHeight * 3 / 2, bytes = target_pitch * rows;
    std::string error;
    auto target = bridge.make_target(bytes, "test CUDA target", error);
    fail_unless(target != nullptr, "make_target: %s", error.c_str());
    auto readback = vkc::Buffer::create_host(device, bytes, "test readback");
    CUdeviceptr frame = 0;
    size_t pitch = 0;
    std::vector<uint8_t> content(kLayoutWidth * rows);
    for (auto& b : content) b = uint8_t(rng());
    {
      vkc::cuda::ContextScope current(cu, context);
      Check(cu, cu.cuMemAllocPitch(&frame, &pitch, kLayoutWidth, rows, 4), "cuMemAllocPitch");
      CopyFrame(cu, frame, pitch, content.data(), kLayoutWidth, rows, /*to_host=*/false);
    }
    const std::vector<vkc::cuda::CudaPlane> planes{
        {frame, pitch, kLayoutWidth, kHeight}, {frame + pitch * kHeight, pitch, kLayoutWidth, kHeight / 2}};
    const std::vector<uint32_t> offsets{0, uint32_t(target_pitch * kHeight)},
        pitches{uint32_t(target_pitch), uint32_t(target_pitch)};
    const uint64_t value = bridge.copy_in(planes, *target, offsets, pitches, error);
    fail_unless(value > 0, "copy_in: %s", error.c_str());
    vkc::CommandRing ring(device, 1, "test CUDA layouts", 0);
    ReadBack(ring, bridge, value, *target, *readback, bytes);
    for (size_t row = 0; row < rows; ++row)
      for (size_t x = 0; x < kLayoutWidth; ++x)
        if (readback->mapped()[row * target_pitch + x] != content[row * kLayoutWidth + x])
          fail("target rows %zu bytes apart: row %zu byte %zu is %u in Vulkan, %u in CUDA (%s)", target_pitch,
               row, x, readback->mapped()[row * target_pitch + x], content[row * kLayoutWidth + x],
               vktest::SeedDescription().c_str());
    // And back out into a cleared frame.
    {
      vkc::cuda::ContextScope current(cu, context);
      Check(cu, cu.cuMemsetD8Async(frame, 0, pitch * rows, nullptr), "cuMemsetD8Async");
      Check(cu, cu.cuStreamSynchronize(nullptr), "cuStreamSynchronize");
    }
    fail_unless(bridge.copy_out(*target, offsets, pitches, planes, error), "copy_out: %s", error.c_str());
    fail_unless(bridge.wait_copied_out(*target, error), "wait_copied_out: %s", error.c_str());
    std::vector<uint8_t> read(kLayoutWidth * rows);
    vkc::cuda::ContextScope current(cu, context);
    CopyFrame(cu, frame, pitch, read.data(), kLayoutWidth, rows, /*to_host=*/true);
    fail_unless(read == content, "target rows %zu bytes apart: the frame copied out differs (%s)",
                target_pitch, vktest::SeedDescription().c_str());
    cu.cuMemFree(frame);
  }
}

}  // namespace

GST_START_TEST(test_frames_cross_from_cuda_to_vulkan) {
  auto device = vktest::AnyDevice();
  std::string why;
  const CudaFunctions* cu = vkc::cuda::driver(why);
  if (!cu) {
    // No NVIDIA driver: said so, and nothing is bridged.
    fail_unless(!vkc::cuda::available(why), "available without a driver");
    fail_unless(why.find("libcuda.so.1") != std::string::npos, "the reason: %s", why.c_str());
    fail_unless_equals_int(vkc::cuda::device_ordinal(*device), -1);
    std::string error;
    fail_unless(vkc::cuda::Bridge::create(device, nullptr, nullptr, error) == nullptr);
    fail_unless(error == why, "the bridge's reason (%s) is not the driver's (%s)", error.c_str(),
                why.c_str());
    return;
  }
  const int ordinal = vkc::cuda::device_ordinal(*device);
  fail_unless(ordinal >= 0, "Vulkan device %d (%s) is no CUDA device", device->index(),
              device->name().c_str());
  CUdevice cuda_device;
  CUcontext context = nullptr;
  Check(*cu, cu->cuDeviceGet(&cuda_device, ordinal), "cuDeviceGet");
  Check(*cu, cu->cuCtxCreate(&context, 0, cuda_device), "cuCtxCreate");
  CUcontext popped;
  cu->cuCtxPopCurrent(&popped);  // the bridge makes it current where it needs it
  {
    std::string error;
    auto bridge = vkc::cuda::Bridge::create(device, context, nullptr, error);
    fail_unless(bridge != nullptr, "Bridge::create: %s", error.c_str());
    const std::vector<uint32_t> offsets{0, uint32_t(kWidth * kHeight)}, pitches{kWidth, kWidth};
    const size_t bytes = kWidth * kHeight * 3 / 2;
    auto target = bridge->make_target(bytes, "test CUDA target", error);
    fail_unless(target != nullptr, "make_target: %s", error.c_str());
    auto readback = vkc::Buffer::create_host(device, bytes, "test readback");

    // The frame in CUDA memory as a decoder leaves it: pitched rows (cuMemAllocPitch), planes
    // one after the other.
    CUdeviceptr frame = 0;
    size_t pitch = 0;
    {
      vkc::cuda::ContextScope current(*cu, context);
      Check(*cu, cu->cuMemAllocPitch(&frame, &pitch, kWidth, kHeight * 3 / 2, 4), "cuMemAllocPitch");
    }
    const std::vector<vkc::cuda::CudaPlane> planes{{frame, pitch, kWidth, kHeight},
                                                   {frame + pitch * kHeight, pitch, kWidth, kHeight / 2}};
    vkc::CommandRing ring(device, 1, "test CUDA readback", 0);
    std::mt19937 rng = vktest::RngFor("cuda frames");
    std::vector<uint8_t> content(bytes);
    for (int round = 0; round < 3; ++round) {
      for (auto& b : content) b = uint8_t(rng());
      {
        vkc::cuda::ContextScope current(*cu, context);
        CopyFrame(*cu, frame, pitch, content.data(), kWidth, kHeight * 3 / 2, /*to_host=*/false);
      }
      const uint64_t value = bridge->copy_in(planes, *target, offsets, pitches, error);
      fail_unless(value > 0, "copy_in: %s", error.c_str());
      ReadBack(ring, *bridge, value, *target, *readback, bytes);
      const uint8_t* read = readback->mapped();
      for (size_t i = 0; i < bytes; ++i)
        if (read[i] != content[i])
          fail("round %d: byte %zu (row %zu) is %u in Vulkan, %u in CUDA (%s)", round, i, i / kWidth, read[i],
               content[i], vktest::SeedDescription().c_str());
    }
    // The other way: what Vulkan writes into the target, CUDA reads (once Vulkan's work is done).
    {
      vkc::Commands cmd = ring.begin(0);
      cmd.fillBuffer(target->buffer().handle(), 0, VK_WHOLE_SIZE, 0x5a3c9617u);
      ring.submit(0);
      fail_unless(ring.wait(0, 10 * kSecondNs) == vkc::Completion::kDone, "the fill did not end");
      std::vector<uint32_t> read(bytes / 4, 0);
      vkc::cuda::ContextScope current(*cu, context);
      Check(*cu, cu->cuMemcpyDtoH(read.data(), target->cuda_pointer(), bytes), "cuMemcpyDtoH");
      for (size_t i = 0; i < read.size(); ++i)
        if (read[i] != 0x5a3c9617u)
          fail("word %zu of the target reads %08x in CUDA, Vulkan wrote 5a3c9617", i, read[i]);
    }
    // Frames out: what Vulkan writes into the target, the bridge copies into the pitched frame in
    // CUDA memory (copy_out()), complete once wait_copied_out() returns.
    for (int round = 0; round < 2; ++round) {
      for (auto& b : content) b = uint8_t(rng());
      std::memcpy(readback->mapped(), content.data(), bytes);
      vkc::Commands cmd = ring.begin(0);
      cmd.copyBuffer(readback->handle(), target->buffer().handle(), vk::BufferCopy{.size = bytes});
      ring.submit(0);
      fail_unless(ring.wait(0, 10 * kSecondNs) == vkc::Completion::kDone, "round %d: the write did not end",
                  round);
      fail_unless(bridge->copy_out(*target, offsets, pitches, planes, error), "copy_out: %s", error.c_str());
      fail_unless(bridge->wait_copied_out(*target, error), "wait_copied_out: %s", error.c_str());
      std::vector<uint8_t> read(bytes);
      vkc::cuda::ContextScope current(*cu, context);
      CopyFrame(*cu, frame, pitch, read.data(), kWidth, kHeight * 3 / 2, /*to_host=*/true);
      for (size_t i = 0; i < bytes; ++i)
        if (read[i] != content[i])
          fail("out, round %d: byte %zu (row %zu) is %u in CUDA, %u in Vulkan (%s)", round, i, i / kWidth,
               read[i], content[i], vktest::SeedDescription().c_str());
    }
    CheckRowLayouts(device, *cu, context, *bridge, rng);
    // A plane that does not fit the target is refused, nothing queued.
    const std::vector<vkc::cuda::CudaPlane> too_tall{{frame, pitch, kWidth, kHeight * 2}};
    fail_unless(bridge->copy_in(too_tall, *target, offsets, pitches, error) == 0,
                "a plane too tall was copied");
    fail_unless(error.find("does not fit") != std::string::npos, "the reason: %s", error.c_str());
    vkc::cuda::ContextScope current(*cu, context);
    cu->cuMemFree(frame);
  }
  {
    // What keeps the context alive (GStreamer's GstCudaContext; here a stand-in) is held while the
    // bridge lives: the copies that ride on frames hold the bridge.
    GObject* owner = G_OBJECT(g_object_new(G_TYPE_OBJECT, nullptr));
    std::string error;
    auto bridge = vkc::cuda::Bridge::create(device, context, owner, error);
    fail_unless(bridge != nullptr, "Bridge::create: %s", error.c_str());
    fail_unless_equals_int(owner->ref_count, 2);
    bridge.reset();
    fail_unless_equals_int(owner->ref_count, 1);
    g_object_unref(owner);
  }
  cu->cuCtxDestroy(context);
  CheckLostContext(device, *cu, cuda_device);
  vktest::AssertNoValidationErrors();
}
GST_END_TEST;

static Suite* cuda_bridge_suite() {
  Suite* suite = suite_create("cuda_bridge");
  TCase* tc = tcase_create("cuda_bridge");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_frames_cross_from_cuda_to_vulkan);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(int argc, char** argv) {
  return vktest::RunRuntimeSuite(&argc, &argv, cuda_bridge_suite(), "cuda_bridge", __FILE__);
}
