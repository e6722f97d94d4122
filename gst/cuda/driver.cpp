#include <gst/gst.h>

// The loader's messages go to the runtime's log, not to stderr.
GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_runtime_debug);
#define FFNV_LOG_FUNC(logctx, msg, ...) \
  GST_CAT_INFO(gst_vkcompute_runtime_debug, "CUDA loader: " msg, __VA_ARGS__)
#define FFNV_DEBUG_LOG_FUNC(logctx, msg, ...) \
  GST_CAT_DEBUG(gst_vkcompute_runtime_debug, "CUDA loader: " msg, __VA_ARGS__)

#include "driver.hpp"

namespace vkc::cuda {

namespace {

struct Loaded {
  CudaFunctions* functions = nullptr;
  std::string why;
};

Loaded load() {
  Loaded loaded;
  if (cuda_load_functions(&loaded.functions, nullptr) != 0) {
    loaded.why = "no CUDA driver (libcuda.so.1 could not be loaded: NVIDIA's driver is not installed)";
    return loaded;
  }
  const CudaFunctions& cu = *loaded.functions;
  // Optional in the loader (older drivers lack them), needed here.
  const std::pair<const void*, const char*> needed[] = {
      {reinterpret_cast<const void*>(cu.cuDeviceGetUuid), "cuDeviceGetUuid"},
      {reinterpret_cast<const void*>(cu.cuImportExternalMemory), "cuImportExternalMemory"},
      {reinterpret_cast<const void*>(cu.cuExternalMemoryGetMappedBuffer), "cuExternalMemoryGetMappedBuffer"},
      {reinterpret_cast<const void*>(cu.cuDestroyExternalMemory), "cuDestroyExternalMemory"},
      {reinterpret_cast<const void*>(cu.cuImportExternalSemaphore), "cuImportExternalSemaphore"},
      {reinterpret_cast<const void*>(cu.cuSignalExternalSemaphoresAsync), "cuSignalExternalSemaphoresAsync"},
      {reinterpret_cast<const void*>(cu.cuWaitExternalSemaphoresAsync), "cuWaitExternalSemaphoresAsync"},
      {reinterpret_cast<const void*>(cu.cuDestroyExternalSemaphore), "cuDestroyExternalSemaphore"},
  };
  for (const auto& [function, name] : needed) {
    if (!function) {
      loaded.why = std::string("the CUDA driver lacks ") + name + " (a driver of 2019 or later has it)";
      return loaded;
    }
  }
  if (CUresult result = cu.cuInit(0); result != CUDA_SUCCESS) {
    loaded.why = "the CUDA driver does not start: " + error_text(cu, "cuInit", result);
    return loaded;
  }
  GST_CAT_INFO(gst_vkcompute_runtime_debug, "CUDA driver loaded");
  return loaded;
}

}  // namespace

const CudaFunctions* driver(std::string& why) {
  static const Loaded loaded = load();  // kept for the process: the driver stays loaded
  if (!loaded.why.empty()) {
    why = loaded.why;
    return nullptr;
  }
  return loaded.functions;
}

std::string error_text(const CudaFunctions& cu, const char* function, CUresult result) {
  const char* name = nullptr;
  if (cu.cuGetErrorName(result, &name) != CUDA_SUCCESS || !name) name = "unknown error";
  return std::string(function) + ": " + name + " (" + std::to_string(int(result)) + ")";
}

ContextScope::ContextScope(const CudaFunctions& cu, CUcontext context)
    : cu_(cu), pushed_(cu.cuCtxPushCurrent(context) == CUDA_SUCCESS) {}

ContextScope::~ContextScope() {
  CUcontext popped = nullptr;
  if (pushed_) cu_.cuCtxPopCurrent(&popped);
}

}  // namespace vkc::cuda
