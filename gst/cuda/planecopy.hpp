// A frame's planes copied between two places in CUDA memory by one kernel launch (PTX of ours,
// which the driver compiles for its GPU when the bridge starts), instead of one cuMemcpy2DAsync per
// plane: the launch costs the CPU less than the driver's copies of 2D regions (docs/benchmarks.md,
// the decode bench). Planes that do not suit it (rows not in whole 32-bit words of both pitches,
// more rows than a launch's grid takes) are copied by cuMemcpy2DAsync, as before.
//
// Include only where CUDA is called (the driver loader's declarations, driver.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "driver.hpp"

namespace vkc::cuda {

// One plane's copy: `rows` rows of `row_bytes` bytes, from `source` (rows `source_pitch` bytes
// apart) to `destination` (rows `destination_pitch` bytes apart).
struct PlaneCopy {
  CUdeviceptr source = 0;
  size_t source_pitch = 0;
  CUdeviceptr destination = 0;
  size_t destination_pitch = 0;
  size_t row_bytes = 0;
  size_t rows = 0;
};

// Queues `plane`'s copy on `stream` by cuMemcpy2DAsync.
CUresult copy_2d(const CudaFunctions& cu, const PlaneCopy& plane, CUstream stream);

// The copy kernel, loaded in one CUDA context (which must be current while it is made, used and
// destroyed).
class PlaneCopier {
 public:
  static constexpr size_t kMaxPlanes = 3;
  static constexpr size_t kWord = 4;  // the bytes a thread copies

  // The kernel of `context` (current on the calling thread), shared by the bridges of the context:
  // the driver compiles the PTX at each load, milliseconds that each stream would pay at its start.
  // Null with `error` set when the driver refuses it. The last holder lets it go with the context
  // current.
  static std::shared_ptr<PlaneCopier> for_context(const CudaFunctions& cu, CUcontext context,
                                                  std::string& error);

  // Loads the kernel into the current context; `error` set (and ready() false) when the driver
  // refuses it.
  PlaneCopier(const CudaFunctions& cu, std::string& error);
  ~PlaneCopier();
  PlaneCopier(const PlaneCopier&) = delete;
  PlaneCopier& operator=(const PlaneCopier&) = delete;
  bool ready() const { return function_ != nullptr; }

  // Whether one launch copies `planes`: at most kMaxPlanes, each row read and written in whole
  // 32-bit words that stay within both pitches (the rounded-up end of a row is the row's padding).
  static bool suits(const PlaneCopy* planes, size_t count);

  // Queues the copy of `planes` (suits() holds) on `stream`; false with `error` set.
  bool launch(const PlaneCopy* planes, size_t count, CUstream stream, std::string& error) const;

 private:
  const CudaFunctions& cu_;
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
};

}  // namespace vkc::cuda
