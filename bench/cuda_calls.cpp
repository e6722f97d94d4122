// What the calls of a frame's hand-over from CUDA to Vulkan cost the CPU, each alone (the lent GPU:
// bench/gpu-decode.sh CALLS=1). A 1080p NV12 frame in CUDA memory at a decoder's pitch is copied
// into the bridge's exported buffer, frame after frame, by each way in turn: two cuMemcpy2DAsync
// (one per plane), one cuMemcpyDtoDAsync of the whole frame, one launch of the bridge's copy kernel,
// and the bridge's whole copy_in() (the kernel and the semaphore's signal); then the submission of
// Vulkan work with and without a wait for the copy's value. The thread's CPU time of each call,
// with the context made current around it as the bridge does, in us: mean and median over the
// frames, paced (a frame every `--gap-us`, as a live stream's come, the drivers' code cold) and
// back to back. The work is waited for between frames, outside the time measured.
//   vkcompute-cuda-calls [--frames N] [--gap-us U]
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "cuda/bridge.hpp"
#include "cuda/driver.hpp"
#include "cuda/planecopy.hpp"
#include "vk/device.hpp"
#include "vk/submit.hpp"

GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_runtime_debug);

namespace {

constexpr size_t kWidth = 1920, kHeight = 1080;

double thread_us() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
}

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "vkcompute-cuda-calls: %s\n", what.c_str());
  std::exit(1);
}

void check(const CudaFunctions& cu, CUresult result, const char* what) {
  if (result != CUDA_SUCCESS) die(vkc::cuda::error_text(cu, what, result));
}

// Runs `call` (timed) then `settle` (not timed) `frames` times, `gap_us` apart; prints the mean and
// the median of the calls' CPU time.
void measure(const char* name, int frames, int gap_us, const std::function<void()>& call,
             const std::function<void()>& settle) {
  std::vector<double> us;
  for (int i = 0; i < frames; ++i) {
    const double start = thread_us();
    call();
    us.push_back(thread_us() - start);
    settle();
    if (gap_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(gap_us));
  }
  double sum = 0;
  for (double u : us) sum += u;
  std::sort(us.begin(), us.end());
  std::printf("  %-44s mean %7.2f  median %7.2f  p90 %7.2f\n", name, sum / frames, us[us.size() / 2],
              us[us.size() * 9 / 10]);
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  GST_DEBUG_CATEGORY_INIT(gst_vkcompute_runtime_debug, "vkcompute", 0, "vkcompute Vulkan runtime");
  int frames = 2000, gap_us = 1000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--frames"))
      frames = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--gap-us"))
      gap_us = std::atoi(argv[i + 1]);
    else
      die(std::string("unknown option ") + argv[i]);
  }
  std::string error;
  const CudaFunctions* cu = vkc::cuda::driver(error);
  if (!cu) die(error);
  auto device = vkc::Device::acquire(-1, error);
  if (!device) die(error);
  const int ordinal = vkc::cuda::device_ordinal(*device);
  if (ordinal < 0) die("the Vulkan device is no CUDA device");
  CUdevice cuda_device;
  CUcontext context;
  check(*cu, cu->cuDeviceGet(&cuda_device, ordinal), "cuDeviceGet");
  check(*cu, cu->cuCtxCreate(&context, 0, cuda_device), "cuCtxCreate");
  CUcontext popped;
  cu->cuCtxPopCurrent(&popped);
  {
    auto bridge = vkc::cuda::Bridge::create(device, context, error);
    if (!bridge) die(error);
    const size_t bytes = kWidth * kHeight * 3 / 2;
    auto target = bridge->make_target(bytes, "cuda-calls target", error);
    if (!target) die(error);
    CUdeviceptr frame;
    size_t pitch;
    CUstream stream;
    std::string why;
    std::unique_ptr<vkc::cuda::PlaneCopier> copier;
    {
      vkc::cuda::ContextScope current(*cu, context);
      check(*cu, cu->cuMemAllocPitch(&frame, &pitch, kWidth, kHeight * 3 / 2, 4), "cuMemAllocPitch");
      check(*cu, cu->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
      // What a bridge of its own context pays once (PlaneCopier::for_context shares it).
      const auto start = std::chrono::steady_clock::now();
      copier = std::make_unique<vkc::cuda::PlaneCopier>(*cu, why);
      if (!copier->ready()) die(why);
      std::printf(
          "loading the copy kernel (the driver compiles its PTX): %.2f ms\n",
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    const std::vector<vkc::cuda::CudaPlane> planes{{frame, pitch, kWidth, kHeight},
                                                   {frame + pitch * kHeight, pitch, kWidth, kHeight / 2}};
    const std::vector<uint32_t> offsets{0, uint32_t(kWidth * kHeight)}, pitches{kWidth, kWidth};
    const vkc::cuda::PlaneCopy copies[2] = {
        {frame, pitch, target->cuda_pointer(), kWidth, kWidth, kHeight},
        {frame + pitch * kHeight, pitch, target->cuda_pointer() + kWidth * kHeight, kWidth, kWidth,
         kHeight / 2}};
    auto synchronize = [&] {
      vkc::cuda::ContextScope current(*cu, context);
      check(*cu, cu->cuStreamSynchronize(stream), "cuStreamSynchronize");
    };
    vkc::CommandRing ring(device, 1, "cuda-calls", 0);
    uint64_t value = 0;
    auto wait_ring = [&] {
      if (ring.wait(0, 10'000'000'000ull) != vkc::Completion::kDone) die("the Vulkan work did not end");
    };
    for (int gap : {gap_us, 0}) {
      std::printf("%s (%d frames)\n", gap ? "paced" : "back to back", frames);
      std::printf("  (a frame every %d us)\n", gap);
      measure(
          "context push and pop", frames, gap, [&] { vkc::cuda::ContextScope current(*cu, context); }, [] {});
      measure(
          "2 x cuMemcpy2DAsync (a plane each)", frames, gap,
          [&] {
            vkc::cuda::ContextScope current(*cu, context);
            for (const auto& c : copies) check(*cu, vkc::cuda::copy_2d(*cu, c, stream), "cuMemcpy2DAsync");
          },
          synchronize);
      measure(
          "1 x cuMemcpyDtoDAsync (whole frame)", frames, gap,
          [&] {
            vkc::cuda::ContextScope current(*cu, context);
            check(*cu, cu->cuMemcpyDtoDAsync(target->cuda_pointer(), frame, bytes, stream),
                  "cuMemcpyDtoDAsync");
          },
          synchronize);
      measure(
          "1 x copy kernel launch (both planes)", frames, gap,
          [&] {
            vkc::cuda::ContextScope current(*cu, context);
            if (!copier->launch(copies, 2, stream, why)) die(why);
          },
          synchronize);
      measure(
          "Bridge::copy_in (kernel + signal)", frames, gap,
          [&] {
            value = bridge->copy_in(planes, *target, offsets, pitches, why);
            if (!value) die(why);
          },
          [&] {
            ring.begin(0);
            ring.wait_before(0, bridge->semaphore(), value);
            ring.submit(0);
            wait_ring();
          });
      measure(
          "CommandRing::submit (a fill)", frames, gap,
          [&] {
            vkc::Commands cmd = ring.begin(0);
            cmd.fillBuffer(target->buffer().handle(), 0, 256, 0u);
            ring.submit(0);
          },
          wait_ring);
      measure(
          "CommandRing::submit (a fill, waiting for CUDA)", frames, gap,
          [&] {
            vkc::Commands cmd = ring.begin(0);
            cmd.fillBuffer(target->buffer().handle(), 0, 256, 0u);
            ring.wait_before(0, bridge->semaphore(), value);
            ring.submit(0);
          },
          wait_ring);
    }
    vkc::cuda::ContextScope current(*cu, context);
    copier.reset();
    cu->cuStreamDestroy(stream);
    cu->cuMemFree(frame);
  }
  cu->cuCtxDestroy(context);
  return 0;
}
