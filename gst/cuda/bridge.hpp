// Frames handed between CUDA and Vulkan on the GPU (issue 31), through a device-local Vulkan buffer
// exported to CUDA (Target):
// - in: a CUDA copy on the bridge's stream fills the target from a frame in CUDA memory (a
//   decoder's output), then signals the next value of a timeline semaphore exported to CUDA; the
//   Vulkan work that reads the target waits for that value on the GPU (CommandRing::wait_before()).
// - out: the Vulkan work writes the target; once it is done (the CPU knows: the frame completes), a
//   CUDA copy moves the target into a frame in CUDA memory and records an event, which the frame's
//   push waits for (GStreamer's CUDA elements of 1.22 read a frame they receive at once).
// No CPU touches a pixel.
//
// CUDA's types stay out of this header (the context is a CUcontext, pointers are CUdeviceptr
// values), so that GStreamer's CUDA headers and the driver loader's never meet in one file.
#pragma once

#include <glib-object.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "vk/exported_timeline.hpp"
#include "vk/memory.hpp"
#include "vk/timeline.hpp"

namespace vkc::cuda {

// Whether this process can hand frames between CUDA and Vulkan: NVIDIA's driver loads and offers
// the interop, and GStreamer's CUDA library is installed (gstcudalibrary.hpp); otherwise why not.
bool available(std::string& why);

// The CUDA device ordinal of the GPU that is Vulkan device `device` (the same UUID), or -1 (no
// CUDA, or not an NVIDIA GPU).
int device_ordinal(const Device& device);

// The index of the Vulkan device that is CUDA device `ordinal` (the same UUID), or -1.
int vulkan_index(int ordinal);

// A plane of a frame in CUDA memory: `rows` rows of `row_bytes` bytes, `pitch` bytes apart.
struct CudaPlane {
  uint64_t pointer = 0;  // CUdeviceptr
  size_t pitch = 0;
  size_t row_bytes = 0;
  size_t rows = 0;
};

class Bridge;
class PlaneCopier;

// A device-local Vulkan buffer that CUDA writes (and may read) as device memory of its own.
class Target {
 public:
  ~Target();
  Target(const Target&) = delete;
  Target& operator=(const Target&) = delete;
  const Buffer& buffer() const { return *buffer_; }
  uint64_t cuda_pointer() const { return pointer_; }  // CUdeviceptr of the buffer's first byte

 private:
  friend class Bridge;
  class PlaneCopier;
  Target(Bridge& bridge, std::unique_ptr<Buffer> buffer) : bridge_(bridge), buffer_(std::move(buffer)) {}
  Bridge& bridge_;
  std::unique_ptr<Buffer> buffer_;
  void* memory_ = nullptr;  // CUexternalMemory
  uint64_t pointer_ = 0;
  void* copied_out_ = nullptr;  // CUevent: the last copy out of the target (Bridge::copy_out())
};

class Bridge {
 public:
  // A bridge between `device` and the CUDA context `context` (a CUcontext), with a CUDA stream of its
  // own. `owner` is what keeps the context alive (GStreamer's GstCudaContext, of which the bridge
  // holds a reference until it is gone: copies that ride on frames hold the bridge), or null when the
  // caller keeps the context alive longer. Null with `error` set when CUDA is not available, the
  // context's GPU is not `device`, or `device` cannot export memory and semaphores.
  static std::unique_ptr<Bridge> create(std::shared_ptr<Device> device, void* context, GObject* owner,
                                        std::string& error);
  // Waits for the copies still on its stream. Its targets must be gone first.
  ~Bridge();
  Bridge(const Bridge&) = delete;
  Bridge& operator=(const Bridge&) = delete;

  // A new target of at least `bytes`; null with `error` set when the driver refuses.
  std::unique_ptr<Target> make_target(vk::DeviceSize bytes, const char* name, std::string& error);

  // Queues, on the bridge's stream, the copy of `planes` into `to` (plane i at byte offset
  // `offsets[i]`, rows `pitches[i]` bytes apart), then the signal of the next value of semaphore():
  // returns that value, which the Vulkan work reading `to` must wait for; 0 with `error` set when
  // CUDA refuses (a lost context: release_if_lost() then runs). The planes' memory must hold the frame
  // already (GStreamer's CUDA elements finish their work on a frame before pushing it) and stay alive until
  // the value.
  uint64_t copy_in(const std::vector<CudaPlane>& planes, Target& to, const std::vector<uint32_t>& offsets,
                   const std::vector<uint32_t>& pitches, std::string& error);

  // Queues, on the bridge's stream for copies out, the copy of `from` (which the Vulkan work that
  // wrote it has finished writing) into `planes`, the other way round from copy_in(), then an event
  // that wait_copied_out() waits for. False with `error` set when CUDA refuses.
  bool copy_out(Target& from, const std::vector<uint32_t>& offsets, const std::vector<uint32_t>& pitches,
                const std::vector<CudaPlane>& planes, std::string& error);
  // Waits until the last copy_out() of `from` is done: the frame in CUDA memory holds it, as
  // GStreamer's CUDA elements expect of a frame pushed to them. False with `error` set when CUDA
  // fails.
  bool wait_copied_out(Target& from, std::string& error);

  // Whether the CUDA context is lost (a fault in any of its work, or the context gone: its stream
  // reports an error that stays, and the driver runs none of its queued work). Then the copies in that were
  // queued will never signal the semaphore: their values are signalled from the CPU
  // (ExportedTimeline::release()), so that no Vulkan work waits for them forever, holding the compute queue
  // of every stream on the device.
  bool release_if_lost();

  // The timeline semaphore the copies signal.
  vk::Semaphore semaphore() const { return timeline_->semaphore(); }
  const std::shared_ptr<Device>& device() const { return device_; }

 private:
  friend class Target;
  Bridge(std::shared_ptr<Device> device, void* context, GObject* owner);

  // copy_in() once its arguments are checked.
  uint64_t queue_copy_in(const std::vector<CudaPlane>& planes, Target& to,
                         const std::vector<uint32_t>& offsets, const std::vector<uint32_t>& pitches,
                         std::string& error);

  // Queues on `stream` (a CUstream) the copies of `planes` between the frame in CUDA memory and
  // `target`, into it when `into_target`, else out of it: one launch of the copier's kernel where
  // the planes suit it, else a cuMemcpy2DAsync per plane. False with `error` set.
  bool queue_plane_copies(const std::vector<CudaPlane>& planes, const Target& target,
                          const std::vector<uint32_t>& offsets, const std::vector<uint32_t>& pitches,
                          bool into_target, void* stream, std::string& error);

  std::shared_ptr<Device> device_;
  void* context_;           // CUcontext
  GObject* owner_;          // a reference of what keeps context_ alive, or null
  void* stream_ = nullptr;  // CUstream of the copies in
  // CUstream of the copies out, so that a copy in never waits behind one (on one stream, 8 streams
  // of morph took 4.85-5.27 s against 3.31-3.37 s; docs/benchmarks.md).
  void* out_stream_ = nullptr;
  void* semaphore_ = nullptr;            // CUexternalSemaphore: timeline_ imported
  std::shared_ptr<PlaneCopier> copier_;  // the context's; null when the driver refused its kernel
  std::unique_ptr<ExportedTimeline> timeline_;
};

}  // namespace vkc::cuda
