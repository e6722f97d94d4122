// NVIDIA's CUDA driver API, loaded at run time (dlopen of libcuda.so.1) through nv-codec-headers'
// loader (Debian's libffmpeg-nvenc-dev, as ffmpeg uses it): nothing of CUDA at build time, and a
// process without NVIDIA's driver simply has no CUDA. Include this only where CUDA is called:
// its declarations are the loader's, which GStreamer's CUDA headers must not meet in one file.
#pragma once

#include <string>

#include <ffnvcodec/dynlink_loader.h>

namespace vkc::cuda {

// The driver's functions, loaded and initialised once per process (cuInit), with everything the
// interop with Vulkan needs (external memory and semaphores, device UUIDs); null with `why` set
// when the driver is missing or lacks them.
const CudaFunctions* driver(std::string& why);

// "cuFunction: CUDA_ERROR_NAME (code)" for an error of the driver.
std::string error_text(const CudaFunctions& cu, const char* function, CUresult result);

// Makes a CUDA context current on the calling thread while it lives.
class ContextScope {
 public:
  ContextScope(const CudaFunctions& cu, CUcontext context);
  ~ContextScope();
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;
  // Whether the context became current (the driver may refuse: a lost context).
  bool ok() const { return pushed_; }

 private:
  const CudaFunctions& cu_;
  bool pushed_;
};

}  // namespace vkc::cuda
