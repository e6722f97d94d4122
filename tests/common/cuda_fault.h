// A CUDA context lost the way a fault of the GPU loses one: a kernel writes where no memory is
// (CUDA_ERROR_ILLEGAL_ADDRESS, an Xid fault in the kernel's log). The error stays with the context:
// every later call in it fails and the work queued in it is dropped. For the checks of a lost
// context (issue 31): test_cuda_bridge and vkcompute-decoder-checks, on the lent GPU.
#pragma once

#include <string>

#include "cuda/driver.hpp"

namespace vktest {

class CudaFault {
 public:
  // Compiles the faulting kernel in `context` (a CUcontext) now: its compile takes milliseconds,
  // which work queued just before fire() must not get to finish in.
  CudaFault(const CudaFunctions& cu, CUcontext context);
  // The reason the kernel could not be made, or "".
  const std::string& error() const { return error_; }
  // Runs the kernel and waits for its fault: true, with `report` the error the driver gave; false
  // with `report` saying why the context did not fault.
  bool fire(std::string& report);

 private:
  const CudaFunctions& cu_;
  CUcontext context_;
  CUfunction kernel_ = nullptr;
  CUstream stream_ = nullptr;
  std::string error_;
};

}  // namespace vktest
