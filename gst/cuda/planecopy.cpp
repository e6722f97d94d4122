#include "planecopy.hpp"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>

namespace vkc::cuda {

namespace {

// The kernel's PTX. Thread x of block (x, y, z) copies 32-bit word ctaid.x * ntid.x + tid.x of row
// ctaid.y of plane ctaid.z; plane i's parameters end in i, picked by a branch (PTX 6.0 indexes no
// parameter).
std::string copy_kernel() {
  const auto each_plane = [](const char* pattern, const char* separator) {
    std::string text;
    for (size_t i = 0; i < PlaneCopier::kMaxPlanes; ++i) {
      std::string part = pattern;
      for (size_t at; (at = part.find('#')) != std::string::npos;) part.replace(at, 1, std::to_string(i));
      text += (i ? separator : "") + part;
    }
    return text;
  };
  return R"(
.version 6.0
.target sm_50
.address_size 64
.visible .entry vkc_copy_planes()" +
         each_plane(
             ".param .u64 source#, .param .u64 destination#, .param .u32 source_pitch#, "
             ".param .u32 destination_pitch#, .param .u32 words#, .param .u32 rows#",
             ",\n") +
         R"()
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %ctaid.z;
)" + each_plane("  setp.eq.u32 %p1, %r1, #;\n  @%p1 bra PLANE#;\n", "") +
         "  bra.uni DONE;\n" +
         each_plane(R"(PLANE#:
  ld.param.u64 %rd1, [source#];
  ld.param.u64 %rd2, [destination#];
  ld.param.u32 %r2, [source_pitch#];
  ld.param.u32 %r3, [destination_pitch#];
  ld.param.u32 %r4, [words#];
  ld.param.u32 %r5, [rows#];
  bra.uni COPY;
)",
                    "") +
         R"(COPY:
  mov.u32 %r6, %ctaid.x;
  mov.u32 %r7, %ntid.x;
  mov.u32 %r8, %tid.x;
  mad.lo.u32 %r9, %r6, %r7, %r8;
  mov.u32 %r10, %ctaid.y;
  setp.ge.u32 %p2, %r9, %r4;
  setp.ge.u32 %p3, %r10, %r5;
  or.pred %p2, %p2, %p3;
  @%p2 bra DONE;
  mul.wide.u32 %rd3, %r10, %r2;
  add.s64 %rd3, %rd1, %rd3;
  mul.wide.u32 %rd4, %r10, %r3;
  add.s64 %rd4, %rd2, %rd4;
  mul.wide.u32 %rd5, %r9, 4;
  add.s64 %rd3, %rd3, %rd5;
  add.s64 %rd4, %rd4, %rd5;
  ld.global.u32 %r11, [%rd3];
  st.global.u32 [%rd4], %r11;
DONE:
  ret;
}
)";
}

constexpr unsigned kThreads = 256;  // per block, along a row
constexpr size_t kMaxRows = 65535;  // a grid's rows (gridDim.y)
size_t words_of(const PlaneCopy& plane) {
  return (plane.row_bytes + PlaneCopier::kWord - 1) / PlaneCopier::kWord;
}

}  // namespace

std::shared_ptr<PlaneCopier> PlaneCopier::for_context(const CudaFunctions& cu, CUcontext context,
                                                      std::string& error) {
  static std::mutex lock;
  static std::map<CUcontext, std::weak_ptr<PlaneCopier>> copiers;
  std::lock_guard<std::mutex> guard(lock);
  // A context holds its copier only while a bridge on it lives, and the context outlives its bridges:
  // a context made later at the same address finds its own.
  std::shared_ptr<PlaneCopier> copier = copiers[context].lock();
  if (copier) return copier;
  copier = std::make_shared<PlaneCopier>(cu, error);
  if (!copier->ready()) return nullptr;
  // Contexts gone leave expired entries: dropped here, so that the map holds live contexts only.
  for (auto it = copiers.begin(); it != copiers.end();)
    it = it->second.expired() ? copiers.erase(it) : std::next(it);
  copiers[context] = copier;
  return copier;
}

PlaneCopier::PlaneCopier(const CudaFunctions& cu, std::string& error) : cu_(cu) {
  const std::string ptx = copy_kernel();
  CUresult result = cu_.cuModuleLoadData(&module_, ptx.c_str());
  if (result == CUDA_SUCCESS) result = cu_.cuModuleGetFunction(&function_, module_, "vkc_copy_planes");
  if (result != CUDA_SUCCESS) {
    error = error_text(cu_, "loading the plane copy kernel", result);
    function_ = nullptr;
  }
}

CUresult copy_2d(const CudaFunctions& cu, const PlaneCopy& plane, CUstream stream) {
  CUDA_MEMCPY2D copy{};
  copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.srcDevice = plane.source;
  copy.srcPitch = plane.source_pitch;
  copy.dstDevice = plane.destination;
  copy.dstPitch = plane.destination_pitch;
  copy.WidthInBytes = plane.row_bytes;
  copy.Height = plane.rows;
  return cu.cuMemcpy2DAsync(&copy, stream);
}

PlaneCopier::~PlaneCopier() {
  if (module_) cu_.cuModuleUnload(module_);
}

bool PlaneCopier::suits(const PlaneCopy* planes, size_t count) {
  if (count == 0 || count > kMaxPlanes) return false;
  for (size_t i = 0; i < count; ++i) {
    const PlaneCopy& p = planes[i];
    const size_t rounded = words_of(p) * kWord;
    const bool aligned = p.source % kWord == 0 && p.destination % kWord == 0 && p.source_pitch % kWord == 0 &&
                         p.destination_pitch % kWord == 0;
    const bool within = rounded <= p.source_pitch && rounded <= p.destination_pitch &&
                        p.destination_pitch <= std::numeric_limits<uint32_t>::max() &&
                        p.source_pitch <= std::numeric_limits<uint32_t>::max();
    if (!aligned || !within || p.rows > kMaxRows) return false;
  }
  return true;
}

bool PlaneCopier::launch(const PlaneCopy* planes, size_t count, CUstream stream, std::string& error) const {
  struct Arguments {
    CUdeviceptr source, destination;
    uint32_t source_pitch, destination_pitch, words, rows;
  } arguments[kMaxPlanes]{};
  void* parameters[kMaxPlanes * 6];
  size_t widest = 0, tallest = 0;
  for (size_t i = 0; i < kMaxPlanes; ++i) {
    Arguments& a = arguments[i];
    if (i < count) {
      const PlaneCopy& p = planes[i];
      a = {p.source,
           p.destination,
           uint32_t(p.source_pitch),
           uint32_t(p.destination_pitch),
           uint32_t(words_of(p)),
           uint32_t(p.rows)};
      widest = std::max(widest, words_of(p));
      tallest = std::max(tallest, p.rows);
    }
    void** at = parameters + i * 6;
    at[0] = &a.source;
    at[1] = &a.destination;
    at[2] = &a.source_pitch;
    at[3] = &a.destination_pitch;
    at[4] = &a.words;
    at[5] = &a.rows;
  }
  if (widest == 0 || tallest == 0) return true;
  const unsigned blocks = unsigned((widest + kThreads - 1) / kThreads);
  if (CUresult result = cu_.cuLaunchKernel(function_, blocks, unsigned(tallest), unsigned(count), kThreads, 1,
                                           1, 0, stream, parameters, nullptr);
      result != CUDA_SUCCESS) {
    error = error_text(cu_, "cuLaunchKernel (the plane copy)", result);
    return false;
  }
  return true;
}

}  // namespace vkc::cuda
