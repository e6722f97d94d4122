#include "npp_peer.hpp"

#include <gmodule.h>

#include <algorithm>
#include <array>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace bench {

namespace {

// NPP's and the CUDA runtime's types, as their C interfaces lay them out.
struct NppiSize {
  int width, height;
};
struct NppiPoint {
  int x, y;
};
using NppStatus = int;  // negative: an error; positive: a warning
using CudaError = int;  // 0: success
constexpr int kCudaHostToDevice = 1;
constexpr int kNppBorderReplicate = 2;
constexpr int kLutLevels = 33;
constexpr int kCaptureRelaxed = 2;  // cudaStreamCaptureModeRelaxed

}  // namespace

// The entry points used, looked up by name. Buffer sizes are asked into a zeroed size_t: NPP 11
// writes an int there, NPP 12 a size_t, and either reads back right on a little-endian host.
struct NppPeer::Api {
  std::vector<GModule*> modules;
  CudaError (*cudaGetDeviceCount)(int*);
  CudaError (*cudaMalloc)(void**, size_t);
  CudaError (*cudaFree)(void*);
  CudaError (*cudaMemcpy)(void*, const void*, size_t, int);
  CudaError (*cudaMemset)(void*, int, size_t);
  CudaError (*cudaEventCreate)(void**);
  CudaError (*cudaEventDestroy)(void*);
  CudaError (*cudaEventRecord)(void*, void*);
  CudaError (*cudaEventSynchronize)(void*);
  CudaError (*cudaEventElapsedTime)(float*, void*, void*);
  CudaError (*cudaStreamCreate)(void**);
  CudaError (*cudaStreamDestroy)(void*);
  CudaError (*cudaStreamSynchronize)(void*);
  CudaError (*cudaStreamBeginCapture)(void*, int);
  CudaError (*cudaStreamEndCapture)(void*, void**);
  CudaError (*cudaGraphInstantiate)(void**, void*, void*, char*, size_t);
  CudaError (*cudaGraphLaunch)(void*, void*);
  CudaError (*cudaGraphExecDestroy)(void*);
  CudaError (*cudaGraphDestroy)(void*);
  CudaError (*cudaGetLastError)();
  NppStatus (*nppSetStream)(void*);
  NppStatus (*nppiRGBToGray_8u_AC4C1R)(const uint8_t*, int, uint8_t*, int, NppiSize);
  NppStatus (*nppiMinMaxIndxGetBufferHostSize_8u_C1R)(NppiSize, size_t*);
  NppStatus (*nppiMinMaxIndx_8u_C1R)(const uint8_t*, int, NppiSize, uint8_t*, uint8_t*, NppiPoint*,
                                     NppiPoint*, uint8_t*);
  NppStatus (*nppiHistogramEvenGetBufferSize_8u_C4R)(NppiSize, int*, size_t*);
  NppStatus (*nppiHistogramEven_8u_C4R)(const uint8_t*, int, NppiSize, int32_t**, int*, int32_t*, int32_t*,
                                        uint8_t*);
  NppStatus (*nppiHistogramEvenGetBufferSize_8u_C1R)(NppiSize, int, size_t*);
  NppStatus (*nppiHistogramEven_8u_C1R)(const uint8_t*, int, NppiSize, int32_t*, int, int32_t, int32_t,
                                        uint8_t*);
  NppStatus (*nppiRGBToYUV420_8u_C3P3R)(const uint8_t*, int, uint8_t**, int*, NppiSize);
  NppStatus (*nppiDilateBorder_8u_C4R)(const uint8_t*, int32_t, NppiSize, NppiPoint, uint8_t*, int32_t,
                                       NppiSize, const uint8_t*, NppiSize, NppiPoint, int);
  NppStatus (*nppiLUT_Trilinear_8u_AC4R)(const uint8_t*, int, uint8_t*, int, NppiSize, uint32_t*, uint8_t**,
                                         int*);

  ~Api() {
    for (GModule* m : modules) g_module_close(m);
  }

  // Opens `library` and sets each of `symbols` from it; false, with `why`, when one is missing.
  template <typename... Pointers>
  bool open(const char* library, std::string& why, std::pair<const char*, Pointers*>... symbols) {
    GModule* module = g_module_open(library, GModuleFlags(G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL));
    if (!module) {
      why = std::string(library) + " could not be loaded: " + g_module_error();
      return false;
    }
    modules.push_back(module);
    [[maybe_unused]] auto find = [&](const char* name, auto* pointer) {
      gpointer found = nullptr;
      if (!g_module_symbol(module, name, &found) || !found) {
        why = std::string(library) + " has no " + name;
        return false;
      }
      *pointer = reinterpret_cast<std::remove_pointer_t<decltype(pointer)>>(found);
      return true;
    };
    return (find(symbols.first, symbols.second) && ...);
  }
};

namespace {

#define SYMBOL(api, name) std::make_pair(#name, &(api).name)

// Device memory of the CUDA runtime, freed with its owner.
class DeviceMemory {
 public:
  DeviceMemory(const NppPeer::Api& api, size_t bytes, std::string& why) : api_(api) {
    if (api_.cudaMalloc(&data_, std::max<size_t>(bytes, 1)) != 0) {
      data_ = nullptr;
      why = "cudaMalloc of " + std::to_string(bytes) + " bytes failed";
    }
  }
  ~DeviceMemory() {
    if (data_) api_.cudaFree(data_);
  }
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;
  template <typename T = uint8_t>
  T* get() const {
    return static_cast<T*>(data_);
  }
  bool upload(const void* from, size_t bytes) const {
    return data_ && api_.cudaMemcpy(data_, from, bytes, kCudaHostToDevice) == 0;
  }

 private:
  const NppPeer::Api& api_;
  void* data_ = nullptr;
};

}  // namespace

std::unique_ptr<NppPeer> NppPeer::load(std::string& why) {
  auto api = std::make_unique<Api>();
  Api& a = *api;
  const bool loaded =
      a.open("libcudart.so.11.0", why, SYMBOL(a, cudaGetDeviceCount), SYMBOL(a, cudaMalloc),
             SYMBOL(a, cudaFree), SYMBOL(a, cudaMemcpy), SYMBOL(a, cudaMemset), SYMBOL(a, cudaEventCreate),
             SYMBOL(a, cudaEventDestroy), SYMBOL(a, cudaEventRecord), SYMBOL(a, cudaEventSynchronize),
             SYMBOL(a, cudaEventElapsedTime), SYMBOL(a, cudaStreamCreate), SYMBOL(a, cudaStreamDestroy),
             SYMBOL(a, cudaStreamSynchronize), SYMBOL(a, cudaStreamBeginCapture),
             SYMBOL(a, cudaStreamEndCapture), SYMBOL(a, cudaGraphInstantiate), SYMBOL(a, cudaGraphLaunch),
             SYMBOL(a, cudaGraphExecDestroy), SYMBOL(a, cudaGraphDestroy), SYMBOL(a, cudaGetLastError)) &&
      a.open("libnppc.so.11", why, SYMBOL(a, nppSetStream)) &&
      a.open("libnppist.so.11", why, SYMBOL(a, nppiMinMaxIndxGetBufferHostSize_8u_C1R),
             SYMBOL(a, nppiMinMaxIndx_8u_C1R), SYMBOL(a, nppiHistogramEvenGetBufferSize_8u_C4R),
             SYMBOL(a, nppiHistogramEven_8u_C4R), SYMBOL(a, nppiHistogramEvenGetBufferSize_8u_C1R),
             SYMBOL(a, nppiHistogramEven_8u_C1R)) &&
      a.open("libnppim.so.11", why, SYMBOL(a, nppiDilateBorder_8u_C4R)) &&
      a.open("libnppicc.so.11", why, SYMBOL(a, nppiRGBToGray_8u_AC4C1R), SYMBOL(a, nppiRGBToYUV420_8u_C3P3R),
             SYMBOL(a, nppiLUT_Trilinear_8u_AC4R));
  if (!loaded) return nullptr;
  int devices = 0;
  if (a.cudaGetDeviceCount(&devices) != 0 || devices == 0) {
    why = "the CUDA runtime finds no device";
    return nullptr;
  }
  return std::unique_ptr<NppPeer>(new NppPeer(std::move(api)));
}

NppPeer::NppPeer(std::unique_ptr<Api> api) : api_(std::move(api)) {}
NppPeer::~NppPeer() = default;

double NppPeer::time(NppWork work, int kernel, int width, int height, int stride, const uint8_t* frames,
                     size_t frame_bytes, int count, int repeats, std::string& why) {
  const Api& a = *api_;
  const NppiSize size{width, height};
  DeviceMemory in(a, frame_bytes * size_t(count), why);
  if (!in.upload(frames, frame_bytes * size_t(count))) {
    if (why.empty()) why = "the frames could not be copied to the GPU";
    return -1;
  }
  // What each work writes (one output, written by every frame), and what it reads besides the frame.
  const size_t out_bytes = work == NppWork::kRgbToI420    ? size_t(width) * height * 3 / 2
                           : work == NppWork::kLumaMinMax ? size_t(width) * height
                                                          : size_t(width) * height * 4;
  DeviceMemory out(a, out_bytes, why);
  DeviceMemory results(a, 5 * 256 * sizeof(int32_t) + 4 * sizeof(NppiPoint), why);
  std::array<int, 4> levels{257, 257, 257, 257};
  std::array<int32_t, 4> lower{0, 0, 0, 0}, upper{256, 256, 256, 256};
  size_t scratch_bytes = 0;
  NppStatus status = 0;
  if (work == NppWork::kLumaMinMax || work == NppWork::kPlaneMinMax) {
    status = a.nppiMinMaxIndxGetBufferHostSize_8u_C1R(size, &scratch_bytes);
  } else if (work == NppWork::kHistogram) {
    // One scratch for both calls, which run one after the other.
    size_t luma_bytes = 0;
    status = a.nppiHistogramEvenGetBufferSize_8u_C4R(size, levels.data(), &scratch_bytes);
    if (status >= 0) status = a.nppiHistogramEvenGetBufferSize_8u_C1R(size, levels[0], &luma_bytes);
    scratch_bytes = std::max(scratch_bytes, luma_bytes);
  }
  DeviceMemory scratch(a, scratch_bytes, why);
  // The dilation's mask, and the table: 33 levels a channel, each entry a packed RGBX of its levels
  // turned around (a table that moves every colour, as a grade does).
  std::vector<uint8_t> ones(size_t(std::max(kernel, 1)) * std::max(kernel, 1), 1);
  DeviceMemory mask(a, ones.size(), why);
  std::vector<uint8_t> level_values(kLutLevels);
  for (int i = 0; i < kLutLevels; ++i) level_values[i] = uint8_t((i * 255 + 16) / 32);
  std::vector<uint32_t> table(size_t(kLutLevels) * kLutLevels * kLutLevels);
  for (int b = 0; b < kLutLevels; ++b)
    for (int g = 0; g < kLutLevels; ++g)
      for (int r = 0; r < kLutLevels; ++r)
        table[(size_t(b) * kLutLevels + g) * kLutLevels + r] =
            uint32_t(level_values[g]) | uint32_t(level_values[b]) << 8 | uint32_t(level_values[r]) << 16;
  DeviceMemory values(a, table.size() * sizeof(uint32_t), why);
  if (!why.empty() || !mask.upload(ones.data(), ones.size()) ||
      !values.upload(table.data(), table.size() * sizeof(uint32_t)) || status < 0) {
    if (why.empty()) why = "NPP's buffers could not be set up (status " + std::to_string(status) + ")";
    return -1;
  }
  auto* hist = results.get<int32_t>();
  std::array<int32_t*, 4> bins{hist, hist + 256, hist + 512, hist + 768};
  int32_t* luma_bins = hist + 1024;
  auto* points = reinterpret_cast<NppiPoint*>(hist + 1280);
  uint8_t* extremes = reinterpret_cast<uint8_t*>(points + 2);
  std::array<uint8_t*, 3> planes{out.get(), out.get() + size_t(width) * height,
                                 out.get() + size_t(width) * height * 5 / 4};
  std::array<int, 3> plane_strides{width, width / 2, width / 2};
  // The levels are read by the CPU (host pointers), the table by the GPU.
  std::array<uint8_t*, 3> lut_levels{level_values.data(), level_values.data(), level_values.data()};
  std::array<int, 3> lut_sizes{kLutLevels, kLutLevels, kLutLevels};

  auto one_frame = [&](const uint8_t* frame) -> NppStatus {
    switch (work) {
      case NppWork::kLumaMinMax:
        if (NppStatus s = a.nppiRGBToGray_8u_AC4C1R(frame, stride, out.get(), width, size); s < 0) return s;
        return a.nppiMinMaxIndx_8u_C1R(out.get(), width, size, extremes, extremes + 1, points, points + 1,
                                       scratch.get());
      case NppWork::kPlaneMinMax:
        return a.nppiMinMaxIndx_8u_C1R(frame, stride, size, extremes, extremes + 1, points, points + 1,
                                       scratch.get());
      case NppWork::kHistogram:
        if (NppStatus s = a.nppiHistogramEven_8u_C4R(frame, stride, size, bins.data(), levels.data(),
                                                     lower.data(), upper.data(), scratch.get());
            s < 0)
          return s;
        if (NppStatus s = a.nppiRGBToGray_8u_AC4C1R(frame, stride, out.get(), width, size); s < 0) return s;
        return a.nppiHistogramEven_8u_C1R(out.get(), width, size, luma_bins, levels[0], lower[0], upper[0],
                                          scratch.get());
      case NppWork::kRgbToI420:
        return a.nppiRGBToYUV420_8u_C3P3R(frame, stride, planes.data(), plane_strides.data(), size);
      case NppWork::kDilate:
        return a.nppiDilateBorder_8u_C4R(frame, stride, size, NppiPoint{0, 0}, out.get(), width * 4, size,
                                         mask.get(), NppiSize{kernel, kernel},
                                         NppiPoint{kernel / 2, kernel / 2}, kNppBorderReplicate);
      case NppWork::kLutTrilinear:
        return a.nppiLUT_Trilinear_8u_AC4R(frame, stride, out.get(), width * 4, size, values.get<uint32_t>(),
                                           lut_levels.data(), lut_sizes.data());
      case NppWork::kNone: break;
    }
    return -1;
  };
  auto pass = [&]() -> bool {
    for (int i = 0; i < count; ++i)
      if (NppStatus s = one_frame(in.get() + frame_bytes * size_t(i)); s < 0) {
        why = "NPP failed with status " + std::to_string(s);
        return false;
      }
    return true;
  };

  // The frames' calls captured into one CUDA graph on a stream of NPP's, so that the time is the
  // GPU's and not the gaps between calls the CPU makes (our rows are recorded into one command
  // buffer likewise). A function that cannot be captured is timed as called, and the row says so.
  void* stream = nullptr;
  if (a.cudaStreamCreate(&stream) != 0 || a.nppSetStream(stream) < 0) {
    why = "no CUDA stream for NPP";
    return -1;
  }
  bool ok = pass();  // the first pass: NPP's own set-up, left out
  if (ok && a.cudaStreamSynchronize(stream) != 0) {
    why = "NPP's kernels faulted (the CUDA context is lost for the rows after this one)";
    ok = false;
  }
  void *graph = nullptr, *exec = nullptr;
  // The trilinear table's call copies the host levels into memory of its own for each call: a graph
  // of it replays its kernels against memory freed since (run 183: the launch faulted and the CUDA
  // context was lost for every row after it), so it is timed as called.
  const bool capturable = work != NppWork::kLutTrilinear;
  if (ok && capturable && a.cudaStreamBeginCapture(stream, kCaptureRelaxed) == 0) {
    const bool recorded = pass();
    if (a.cudaStreamEndCapture(stream, &graph) != 0 || !recorded ||
        a.cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0) != 0)
      exec = nullptr;
    why.clear();  // a capture that failed leaves its error: the passes below run as called
    a.cudaGetLastError();
  }
  last_captured_ = exec != nullptr;
  auto timed_pass = [&]() { return exec ? a.cudaGraphLaunch(exec, stream) == 0 : pass(); };
  void *start = nullptr, *stop = nullptr;
  if (a.cudaEventCreate(&start) != 0 || a.cudaEventCreate(&stop) != 0) {
    why = "cudaEventCreate failed";
    ok = false;
  }
  std::vector<double> per_frame_us;
  for (int r = 0; ok && r < repeats; ++r) {
    a.cudaEventRecord(start, stream);
    ok = timed_pass();
    a.cudaEventRecord(stop, stream);
    float ms = 0;
    if (ok && (a.cudaEventSynchronize(stop) != 0 || a.cudaEventElapsedTime(&ms, start, stop) != 0)) {
      why = "the CUDA events could not be read";
      ok = false;
    }
    per_frame_us.push_back(double(ms) * 1e3 / count);
  }
  if (!ok && why.empty()) why = "a captured pass failed to launch";
  if (stop) a.cudaEventSynchronize(stop);
  if (start) a.cudaEventDestroy(start);
  if (stop) a.cudaEventDestroy(stop);
  if (exec) a.cudaGraphExecDestroy(exec);
  if (graph) a.cudaGraphDestroy(graph);
  a.nppSetStream(nullptr);
  a.cudaStreamDestroy(stream);
  if (!ok) return -1;
  std::nth_element(per_frame_us.begin(), per_frame_us.begin() + per_frame_us.size() / 2, per_frame_us.end());
  return per_frame_us[per_frame_us.size() / 2];
}

}  // namespace bench
