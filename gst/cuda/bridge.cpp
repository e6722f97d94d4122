#include "bridge.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "driver.hpp"
#include "gstcudalibrary.hpp"
#include "planecopy.hpp"

GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_runtime_debug);
#define GST_CAT_DEFAULT gst_vkcompute_runtime_debug

namespace vkc::cuda {

namespace {

// Not in the loader's declarations: the imported memory is one dedicated allocation.
constexpr unsigned kDedicatedMemory = 0x1;  // CUDA_EXTERNAL_MEMORY_DEDICATED

// Nor its error codes but a few: the one of a context that cannot be made current.
constexpr CUresult kInvalidContext = CUresult(201);  // CUDA_ERROR_INVALID_CONTEXT

// Whether `result` says the context will run none of its queued work: a fault in its work (an
// error that stays with the context) or a context gone. Not a passing error, after which CUDA may
// still signal what was queued (a signal from the CPU would then go backwards).
bool loses_context(CUresult result) {
  switch (int(result)) {
    case 201:  // CUDA_ERROR_INVALID_CONTEXT
    case 700:  // CUDA_ERROR_ILLEGAL_ADDRESS
    case 702:  // CUDA_ERROR_LAUNCH_TIMEOUT
    case 709:  // CUDA_ERROR_CONTEXT_IS_DESTROYED
    case 714:  // CUDA_ERROR_HARDWARE_STACK_ERROR
    case 715:  // CUDA_ERROR_ILLEGAL_INSTRUCTION
    case 716:  // CUDA_ERROR_MISALIGNED_ADDRESS
    case 717:  // CUDA_ERROR_INVALID_ADDRESS_SPACE
    case 718:  // CUDA_ERROR_INVALID_PC
    case 719:  // CUDA_ERROR_LAUNCH_FAILED
    case 999:  // CUDA_ERROR_UNKNOWN
      return true;
    default: return false;
  }
}

constexpr const char* kLostContext = "the CUDA context cannot be made current (lost?)";

std::string uuid_text(const uint8_t* bytes) {
  char text[40];
  std::snprintf(text, sizeof text, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8],
                bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]);
  return text;
}

// The UUID of CUDA device `device`; false when the driver cannot say.
bool uuid_of(const CudaFunctions& cu, CUdevice device, CUuuid& uuid) {
  return cu.cuDeviceGetUuid(&uuid, device) == CUDA_SUCCESS;
}

}  // namespace

bool available(std::string& why) {
  return driver(why) != nullptr && gst_cuda_library(why) != nullptr;
}

int device_ordinal(const Device& device) {
  std::string why;
  const CudaFunctions* cu = driver(why);
  int count = 0;
  if (!cu || cu->cuDeviceGetCount(&count) != CUDA_SUCCESS) return -1;
  for (int i = 0; i < count; ++i) {
    CUdevice handle;
    CUuuid uuid;
    if (cu->cuDeviceGet(&handle, i) == CUDA_SUCCESS && uuid_of(*cu, handle, uuid) &&
        std::memcmp(uuid.bytes, device.features().uuid.data(), sizeof uuid.bytes) == 0)
      return i;
  }
  return -1;
}

int vulkan_index(int ordinal) {
  std::string why;
  const CudaFunctions* cu = driver(why);
  CUdevice handle;
  CUuuid uuid;
  if (!cu || ordinal < 0 || cu->cuDeviceGet(&handle, ordinal) != CUDA_SUCCESS || !uuid_of(*cu, handle, uuid))
    return -1;
  uint8_t bytes[VK_UUID_SIZE];
  std::memcpy(bytes, uuid.bytes, sizeof bytes);
  return Device::index_with_uuid(bytes);
}

std::unique_ptr<Bridge> Bridge::create(std::shared_ptr<Device> device, void* context, GObject* owner,
                                       std::string& error) {
  const CudaFunctions* cu = driver(error);
  if (!cu) return nullptr;
  if (!device->features().memory_fd_export || !device->features().semaphore_fd_export) {
    error = "Vulkan device " + std::to_string(device->index()) + " (" + device->name() +
            ") cannot export memory and semaphores as file descriptors (VK_KHR_external_memory_fd, "
            "VK_KHR_external_semaphore_fd)";
    return nullptr;
  }
  std::unique_ptr<Bridge> bridge(new Bridge(device, context, owner));
  ContextScope current(*cu, CUcontext(context));
  if (!current.ok()) {
    error = kLostContext;
    return nullptr;
  }
  CUdevice cuda_device;
  CUuuid uuid;
  if (CUresult result = cu->cuCtxGetDevice(&cuda_device); result != CUDA_SUCCESS) {
    error = error_text(*cu, "cuCtxGetDevice", result);
    return nullptr;
  }
  if (!uuid_of(*cu, cuda_device, uuid)) {
    error = "the CUDA driver does not give the UUID of CUDA device " + std::to_string(cuda_device);
    return nullptr;
  }
  const auto* ours = device->features().uuid.data();
  if (std::memcmp(uuid.bytes, ours, sizeof uuid.bytes) != 0) {
    error = "the CUDA context is on another GPU (CUDA device " + std::to_string(cuda_device) + ", UUID " +
            uuid_text(reinterpret_cast<const uint8_t*>(uuid.bytes)) + ") than Vulkan device " +
            std::to_string(device->index()) + " (" + device->name() + ", UUID " + uuid_text(ours) + ")";
    return nullptr;
  }
  for (void** stream : {&bridge->stream_, &bridge->out_stream_}) {
    if (CUresult result = cu->cuStreamCreate(reinterpret_cast<CUstream*>(stream), CU_STREAM_NON_BLOCKING);
        result != CUDA_SUCCESS) {
      error = error_text(*cu, "cuStreamCreate", result);
      return nullptr;
    }
  }
  bridge->timeline_ = ExportedTimeline::create(device, "vkcompute CUDA copies", error);
  if (!bridge->timeline_) return nullptr;
  const int fd = bridge->timeline_->export_fd(error);
  if (fd < 0) return nullptr;
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc{};
  desc.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
  desc.handle.fd = fd;
  CUexternalSemaphore semaphore = nullptr;
  if (CUresult result = cu->cuImportExternalSemaphore(&semaphore, &desc); result != CUDA_SUCCESS) {
    close(fd);  // an import that fails leaves the descriptor with us
    error = error_text(*cu, "cuImportExternalSemaphore", result);
    return nullptr;
  }
  bridge->semaphore_ = semaphore;
  std::string why;
  bridge->copier_ = PlaneCopier::for_context(*cu, CUcontext(context), why);
  if (!bridge->copier_) GST_WARNING("frames are copied by cuMemcpy2DAsync, plane by plane: %s", why.c_str());
  GST_INFO("CUDA bridge on Vulkan device %d (%s), CUDA device %d", device->index(), device->name().c_str(),
           int(cuda_device));
  return bridge;
}

Bridge::Bridge(std::shared_ptr<Device> device, void* context, GObject* owner)
    : device_(std::move(device)),
      context_(context),
      owner_(owner ? G_OBJECT(g_object_ref(owner)) : nullptr) {}

Bridge::~Bridge() {
  std::string why;
  if (const CudaFunctions* cu = driver(why)) {
    ContextScope current(*cu, CUcontext(context_));
    if (stream_) cu->cuStreamSynchronize(CUstream(stream_));
    if (out_stream_) cu->cuStreamSynchronize(CUstream(out_stream_));
    if (semaphore_) cu->cuDestroyExternalSemaphore(CUexternalSemaphore(semaphore_));
    copier_.reset();
    if (stream_) cu->cuStreamDestroy(CUstream(stream_));
    if (out_stream_) cu->cuStreamDestroy(CUstream(out_stream_));
  }
  // Last: the context may go with it.
  if (owner_) g_object_unref(owner_);
}

std::unique_ptr<Target> Bridge::make_target(vk::DeviceSize bytes, const char* name, std::string& error) {
  const CudaFunctions* cu = driver(error);
  if (!cu) return nullptr;
  auto buffer = Buffer::create_exported(device_, bytes, name, error);
  if (!buffer) return nullptr;
  const int fd = buffer->export_fd(error);
  if (fd < 0) return nullptr;
  std::unique_ptr<Target> target(new Target(*this, std::move(buffer)));
  ContextScope current(*cu, CUcontext(context_));
  CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc{};
  desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
  desc.handle.fd = fd;
  desc.size = target->buffer_->allocation_size();
  desc.flags = kDedicatedMemory;
  CUexternalMemory memory = nullptr;
  if (CUresult result = cu->cuImportExternalMemory(&memory, &desc); result != CUDA_SUCCESS) {
    close(fd);
    error = error_text(*cu, "cuImportExternalMemory", result);
    return nullptr;
  }
  target->memory_ = memory;
  CUDA_EXTERNAL_MEMORY_BUFFER_DESC mapping{};
  mapping.size = target->buffer_->size();
  CUdeviceptr pointer = 0;
  if (CUresult result = cu->cuExternalMemoryGetMappedBuffer(&pointer, memory, &mapping);
      result != CUDA_SUCCESS) {
    error = error_text(*cu, "cuExternalMemoryGetMappedBuffer", result);
    return nullptr;
  }
  target->pointer_ = pointer;
  return target;
}

Target::~Target() {
  std::string why;
  const CudaFunctions* cu = driver(why);
  if (!cu || !memory_) return;
  ContextScope current(*cu, CUcontext(bridge_.context_));
  // No copy of the bridge may still use it: they are all on its streams.
  cu->cuStreamSynchronize(CUstream(bridge_.stream_));
  cu->cuStreamSynchronize(CUstream(bridge_.out_stream_));
  if (pointer_) cu->cuMemFree(CUdeviceptr(pointer_));
  cu->cuDestroyExternalMemory(CUexternalMemory(memory_));
  if (copied_out_) cu->cuEventDestroy(CUevent(copied_out_));
}

namespace {

// Whether `planes` fit `target` where `offsets` and `pitches` place them, their rows rounded up to
// whole `word`s; else why not in `error`.
bool planes_fit(const std::vector<CudaPlane>& planes, const Target& target,
                const std::vector<uint32_t>& offsets, const std::vector<uint32_t>& pitches,
                std::string& error, size_t word = 1) {
  if (offsets.size() < planes.size() || pitches.size() < planes.size()) {
    error = "a plane without its place in the target";
    return false;
  }
  for (size_t i = 0; i < planes.size(); ++i) {
    const CudaPlane& p = planes[i];
    if (p.rows == 0) continue;
    const size_t row_bytes = (p.row_bytes + word - 1) / word * word;
    const uint64_t end = uint64_t(offsets[i]) + uint64_t(pitches[i]) * (p.rows - 1) + row_bytes;
    if (pitches[i] < row_bytes || end > target.buffer().size()) {
      error = "plane " + std::to_string(i) + " (" + std::to_string(p.rows) + " rows of " +
              std::to_string(p.row_bytes) + " bytes) does not fit the target of " +
              std::to_string(target.buffer().size()) + " bytes";
      return false;
    }
  }
  return true;
}

// The copies of `planes` between the frame in CUDA memory and the target (at `target`, the
// target's CUDA address), into the target when `into_target`, else out of it.
std::vector<PlaneCopy> plane_copies(const std::vector<CudaPlane>& planes, uint64_t target,
                                    const std::vector<uint32_t>& offsets,
                                    const std::vector<uint32_t>& pitches, bool into_target) {
  std::vector<PlaneCopy> copies;
  for (size_t i = 0; i < planes.size(); ++i) {
    const CudaPlane& p = planes[i];
    const CUdeviceptr frame = CUdeviceptr(p.pointer);
    const CUdeviceptr place = CUdeviceptr(target + offsets[i]);
    PlaneCopy copy;
    copy.source = into_target ? frame : place;
    copy.source_pitch = into_target ? p.pitch : pitches[i];
    copy.destination = into_target ? place : frame;
    copy.destination_pitch = into_target ? pitches[i] : p.pitch;
    copy.row_bytes = p.row_bytes;
    copy.rows = p.rows;
    copies.push_back(copy);
  }
  return copies;
}

}  // namespace

bool Bridge::queue_plane_copies(const std::vector<CudaPlane>& planes, const Target& target,
                                const std::vector<uint32_t>& offsets, const std::vector<uint32_t>& pitches,
                                bool into_target, void* stream, std::string& error) {
  const CudaFunctions* cu = driver(error);
  const std::vector<PlaneCopy> copies =
      plane_copies(planes, target.cuda_pointer(), offsets, pitches, into_target);
  // The kernel reads and writes whole words of a row: the target's rows must hold their rounding.
  std::string unrounded;
  if (copier_ && planes_fit(planes, target, offsets, pitches, unrounded, PlaneCopier::kWord) &&
      PlaneCopier::suits(copies.data(), copies.size()))
    return copier_->launch(copies.data(), copies.size(), CUstream(stream), error);
  for (const PlaneCopy& c : copies) {
    if (CUresult result = copy_2d(*cu, c, CUstream(stream)); result != CUDA_SUCCESS) {
      error = error_text(*cu, "cuMemcpy2DAsync", result);
      return false;
    }
  }
  return true;
}

uint64_t Bridge::copy_in(const std::vector<CudaPlane>& planes, Target& to,
                         const std::vector<uint32_t>& offsets, const std::vector<uint32_t>& pitches,
                         std::string& error) {
  const CudaFunctions* cu = driver(error);
  if (!cu || !planes_fit(planes, to, offsets, pitches, error)) return 0;
  const uint64_t value = queue_copy_in(planes, to, offsets, pitches, error);
  // CUDA refuses what a lost context asks (the error stays with the context): the copies queued
  // before will signal nothing either.
  if (value == 0 && release_if_lost()) error = "the CUDA context is lost (" + error + ")";
  return value;
}

uint64_t Bridge::queue_copy_in(const std::vector<CudaPlane>& planes, Target& to,
                               const std::vector<uint32_t>& offsets, const std::vector<uint32_t>& pitches,
                               std::string& error) {
  const CudaFunctions* cu = driver(error);
  ContextScope current(*cu, CUcontext(context_));
  if (!current.ok()) {
    error = kLostContext;
    return 0;
  }
  if (!queue_plane_copies(planes, to, offsets, pitches, /*into_target=*/true, stream_, error)) return 0;
  const uint64_t value = timeline_->next_value();
  CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS signal{};
  signal.params.fence.value = value;
  CUexternalSemaphore semaphore = CUexternalSemaphore(semaphore_);
  if (CUresult result = cu->cuSignalExternalSemaphoresAsync(&semaphore, &signal, 1, CUstream(stream_));
      result != CUDA_SUCCESS) {
    error = error_text(*cu, "cuSignalExternalSemaphoresAsync", result);
    return 0;
  }
  return value;
}

bool Bridge::release_if_lost() {
  std::string why;
  const CudaFunctions* cu = driver(why);
  if (!cu) return false;
  CUresult state;
  {
    ContextScope current(*cu, CUcontext(context_));
    state = current.ok() ? cu->cuStreamQuery(CUstream(stream_)) : kInvalidContext;
  }
  if (!loses_context(state)) return false;
  GST_WARNING(
      "the CUDA context of the bridge on Vulkan device %d (%s) is lost (%s): the copies in "
      "that it will not finish are released",
      device_->index(), device_->name().c_str(), error_text(*cu, "cuStreamQuery", state).c_str());
  if (!timeline_->release(why)) GST_WARNING("%s", why.c_str());
  return true;
}

bool Bridge::copy_out(Target& from, const std::vector<uint32_t>& offsets,
                      const std::vector<uint32_t>& pitches, const std::vector<CudaPlane>& planes,
                      std::string& error) {
  const CudaFunctions* cu = driver(error);
  if (!cu || !planes_fit(planes, from, offsets, pitches, error)) return false;
  ContextScope current(*cu, CUcontext(context_));
  if (!current.ok()) {
    error = kLostContext;
    return false;
  }
  if (!from.copied_out_) {
    CUevent event = nullptr;
    // Its waiter sleeps: a worker of the completion service, which other streams share.
    if (CUresult result = cu->cuEventCreate(&event, CU_EVENT_DISABLE_TIMING | CU_EVENT_BLOCKING_SYNC);
        result != CUDA_SUCCESS) {
      error = error_text(*cu, "cuEventCreate", result);
      return false;
    }
    from.copied_out_ = event;
  }
  if (!queue_plane_copies(planes, from, offsets, pitches, /*into_target=*/false, out_stream_, error))
    return false;
  if (CUresult result = cu->cuEventRecord(CUevent(from.copied_out_), CUstream(out_stream_));
      result != CUDA_SUCCESS) {
    error = error_text(*cu, "cuEventRecord", result);
    return false;
  }
  return true;
}

bool Bridge::wait_copied_out(Target& from, std::string& error) {
  const CudaFunctions* cu = driver(error);
  if (!cu) return false;
  if (!from.copied_out_) return true;
  ContextScope current(*cu, CUcontext(context_));
  if (CUresult result = cu->cuEventSynchronize(CUevent(from.copied_out_)); result != CUDA_SUCCESS) {
    error = error_text(*cu, "cuEventSynchronize", result);
    return false;
  }
  return true;
}

}  // namespace vkc::cuda
