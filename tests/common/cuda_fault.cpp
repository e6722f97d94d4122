#include "common/cuda_fault.h"

namespace vktest {

namespace {

// One thread stores to address 16, which no allocation holds: the GPU's memory unit faults. PTX,
// which the driver compiles for the GPU it runs on.
constexpr const char kFaultingKernel[] = R"(
.version 6.0
.target sm_50
.address_size 64
.visible .entry vkc_fault()
{
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  mov.u64 %rd1, 16;
  mov.u32 %r1, 1;
  st.volatile.global.u32 [%rd1], %r1;
  ret;
}
)";

}  // namespace

CudaFault::CudaFault(const CudaFunctions& cu, CUcontext context) : cu_(cu), context_(context) {
  vkc::cuda::ContextScope current(cu_, context_);
  if (!current.ok()) {
    error_ = "the context cannot be made current";
    return;
  }
  CUmodule module = nullptr;
  CUresult result = cu_.cuModuleLoadData(&module, kFaultingKernel);
  if (result == CUDA_SUCCESS) result = cu_.cuModuleGetFunction(&kernel_, module, "vkc_fault");
  if (result == CUDA_SUCCESS) result = cu_.cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING);
  if (result != CUDA_SUCCESS) error_ = vkc::cuda::error_text(cu_, "making the faulting kernel", result);
  // The module and the stream stay: the context they belong to will be unusable.
}

bool CudaFault::fire(std::string& report) {
  if (!error_.empty()) {
    report = error_;
    return false;
  }
  vkc::cuda::ContextScope current(cu_, context_);
  CUresult result = cu_.cuLaunchKernel(kernel_, 1, 1, 1, 1, 1, 1, 0, stream_, nullptr, nullptr);
  if (result == CUDA_SUCCESS) result = cu_.cuStreamSynchronize(stream_);
  if (result == CUDA_SUCCESS) {
    report = "the kernel that writes to address 16 did not fault";
    return false;
  }
  report = vkc::cuda::error_text(cu_, "the faulting kernel", result);
  return true;
}

}  // namespace vktest
