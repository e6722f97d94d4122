// The Vulkan instance and devices shared by every element of the process.
#pragma once

#include <gst/gst.h>

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "queue_lock.hpp"
#include "timeline.hpp"
#include "vk.hpp"

GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_runtime_debug);

namespace vkc {

// Optional capabilities found on the physical device, enabled when present.
struct DeviceFeatures {
  bool host_pointer_import = false;  // VK_EXT_external_memory_host
  vk::DeviceSize host_pointer_alignment = 0;
  uint32_t subgroup_size = 1;
  vk::SubgroupFeatureFlags subgroup_ops;
  // Kernels that read every byte of a frame once, in narrow loads, do better on a device-memory
  // copy of it made by a transfer: on a discrete GPU the copy crosses the bus near the link's
  // rate, which narrow shader loads of host memory do not reach (see
  // vkc::InputReads in gst/base/operation.hpp). GST_VKCOMPUTE_COPY_INPUT=1 or 0 forces it.
  bool copy_input_to_device = false;
  // Memory and timeline semaphores another API (CUDA) can import, as opaque file descriptors
  // (VK_KHR_external_memory_fd, VK_KHR_external_semaphore_fd): Buffer::create_exported(),
  // ExportedTimeline.
  bool memory_fd_export = false;
  bool semaphore_fd_export = false;
  // VkPhysicalDeviceIDProperties::deviceUUID: the same GPU in another API (cuDeviceGetUuid).
  std::array<uint8_t, VK_UUID_SIZE> uuid{};
  // VK_EXT_calibrated_timestamps with the device's and CLOCK_MONOTONIC's time domains: a timestamp
  // query's ticks read as the host's time (Device::host_ns_of()).
  bool calibrated_timestamps = false;
  // shaderFloat16 (Vulkan 1.2), enabled on the devices the plugin opens where they have it: kernels
  // may compute on pairs of 16-bit floats (morph_rect.comp's 8-bit lanes).
  bool float16 = false;
};

class Instance;
class KernelCache;
class MemoryBlocks;
class HostTail;

// How many Vulkan instances the process has made: ours (one, kept until exit) and other libraries'
// (GStreamer's, which come and go). The loader loads the driver with each one (and unloads it when
// the instance goes), so a driver's exit handlers are registered anew after each.
uint64_t instance_generation();
// Counts a Vulkan instance that another library made (vk/reaper.hpp, after_other_instance()).
void note_other_instance();

// Bytes of Vulkan memory that buffers of a device hold (vkc::Buffer), by the kind asked for.
// Imports of host memory are not counted: their memory belongs to whoever allocated it.
struct MemoryHeld {
  std::atomic<uint64_t> device_local{0};  // Buffer::create_device (VRAM on a discrete GPU)
  std::atomic<uint64_t> host_visible{0};  // Buffer::create_host: system memory on a discrete GPU
  // What the driver holds for them, by the kind of memory (a CPU device's one type counts as
  // device-local): the memory blocks (MemoryBlocks), whose free ranges wait for the next buffers,
  // and the memory of buffers that have their own.
  std::atomic<uint64_t> allocated_device_local{0};
  std::atomic<uint64_t> allocated_host_visible{0};
};

// What a queue of the device is used for. A frame that crosses the bus at either end of a chain in
// device memory moves by transfers on queues of their own, so that one frame's upload and the
// previous frame's download overlap the kernels of the frame between them (see CommandRing).
enum class QueueRole {
  kCompute,   // every kernel, and the copies inside a frame's work
  kUpload,    // host to device copies ahead of a frame's kernels
  kDownload,  // device to host copies after them
};

// How acquire() came to the device it returns.
enum class DeviceChoice {
  kAutomatic,     // index -1, GST_VKCOMPUTE_DEVICE unset: the best kind of device that opens
  kIndex,         // the index asked for (the element's `device` property)
  kEnvironment,   // index -1 and GST_VKCOMPUTE_DEVICE=N
  kNeighbours,    // index -1: the device of the elements of ours beside the element (deviceopen.cpp)
  kCudaUpstream,  // index -1: the GPU of the CUDA context upstream (a decoder's; deviceopen.cpp)
};

// What acquire() found on its way to the device, for the element's messages.
struct DeviceChoiceInfo {
  DeviceChoice choice = DeviceChoice::kAutomatic;
  size_t listed = 0;        // the devices the loader lists
  std::string passed_over;  // kAutomatic: each device passed over and why, "; " between them
};

// A VkDevice that another library made and owns (GStreamer's Vulkan elements'), for Device::adopt():
// its handles, what it enables that DeviceFeatures use, and the queue ours go on.
struct ForeignDevice {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  int index = -1;  // the physical device's index in the loader's list (the `device` property's)
  VkDevice device = VK_NULL_HANDLE;
  // The one queue every role of ours submits on (QueueRole), and its family.
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
  // The device extensions enabled on `device`: DeviceFeatures holds only what they allow.
  std::vector<std::string> extensions;
  // The other library's lock of `queue`, taken inside ours around each of our submissions.
  std::function<void()> lock_queue, unlock_queue;
  // The other library's references to its objects, let go once the Device of ours is gone.
  std::shared_ptr<void> owner;
};

// One VkDevice per physical device per process, shared by every element using it (acquire()).
// Queue submission is serialized with a mutex, so any streaming thread may submit.
class Device {
 public:
  // Returns the shared device for `index` (-1 = automatic choice), creating it on first use.
  // On failure returns nullptr and sets `error` to a sentence saying what was needed and found.
  // `info`, when given, says how the device was chosen.
  static std::shared_ptr<Device> acquire(int index, std::string& error, DeviceChoiceInfo* info = nullptr);

  // Our Device on a VkDevice another library made (GStreamer's, shared with its Vulkan elements), one
  // per VkDevice while it lives: its instance and device are borrowed, never destroyed or waited
  // idle (that would need every other queue of the device), and every role submits on the queue given.
  // Null with `error` set when the device has no timeline semaphores enabled or fails to answer.
  static std::shared_ptr<Device> adopt(ForeignDevice foreign, std::string& error);
  // The adopted Device whose id() is `id` while it lives, else null.
  static std::shared_ptr<Device> adopted_with_id(int id);
  // Ids of adopted devices start here, past every device index.
  static constexpr int kFirstAdoptedId = 4096;

  // The index the automatic choice resolves to when `index` is -1: GST_VKCOMPUTE_DEVICE when set,
  // otherwise -1.
  static int default_index();

  // The index of the Vulkan device whose deviceUUID is `uuid` (another API's name for the same
  // GPU), without opening it; -1 when none is.
  static int index_with_uuid(const uint8_t (&uuid)[VK_UUID_SIZE]);

  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  ~Device();

  const vk::raii::Device& device() const { return device_; }
  const vk::raii::PhysicalDevice& physical() const { return physical_; }
  const vk::PhysicalDeviceProperties& properties() const { return properties_; }
  const vk::PhysicalDeviceMemoryProperties& memory_properties() const { return memory_; }
  const DeviceFeatures& features() const { return features_; }
  uint32_t queue_family(QueueRole role = QueueRole::kCompute) const { return queue(role).family; }
  // The distinct queue families of the roles: buffers are shared between them (memory.cpp).
  const std::vector<uint32_t>& queue_families() const { return families_; }
  // The index of the physical device in the loader's list (the `device` property's).
  int index() const { return index_; }
  // Which VkDevice of the process this is, in the elements' device query (memorycaps.hpp): the
  // index for a device of ours, kFirstAdoptedId and up for adopted ones. Two elements exchange device
  // memory only on the same id: an adopted device and ours on the same GPU are two devices.
  int id() const { return id_; }
  // Whether another library made the VkDevice (adopt()).
  bool adopted() const { return foreign_ != nullptr; }
  // What adopt() was given, for an adopted device; else null.
  const ForeignDevice* foreign() const { return foreign_.get(); }
  const std::string& name() const { return name_; }
  // A CPU implementation of Vulkan (VK_PHYSICAL_DEVICE_TYPE_CPU: Mesa's lavapipe, SwiftShader):
  // its "GPU" work runs on the host's cores.
  bool is_cpu() const { return properties_.deviceType == vk::PhysicalDeviceType::eCpu; }
  // The CLOCK_MONOTONIC time, in ns, when the device's timestamp counter read `ticks` (a query's
  // result), from a calibration made now; 0 without features().calibrated_timestamps. For logs of
  // when a frame's work ended on the GPU.
  uint64_t host_ns_of(uint64_t ticks) const;

  // Thread-safe vkQueueSubmit to the queue of `role`, after the calling thread's batch (batch.hpp),
  // signalling `fence` when given. Returns where the work ends on the queue's timeline. With
  // `defer` inside a BatchScope (and no fence), the submission joins the batch instead, and the
  // point's value is set when the batch goes.
  // `label` names the work in errors (Timeline::submit()).
  std::shared_ptr<const SubmitPoint> submit(const vk::SubmitInfo& info, vk::Fence fence,
                                            QueueRole role = QueueRole::kCompute, bool defer = false,
                                            const char* label = nullptr) const;
  // vkQueueSubmit to the queue of `role` now, whatever the thread's batch holds (the batch's own
  // submissions); returns the value on the queue's timeline where the work ends.
  uint64_t submit_now(const vk::SubmitInfo& info, vk::Fence fence, QueueRole role,
                      const char* label = nullptr, uint32_t others = 0) const;
  // Lets `thread`'s submissions go before those of threads that wait for a queue without hurry
  // (on), or no longer (off): the streaming thread of a pipeline being stopped (queue_lock.hpp).
  void hurry(std::thread::id thread, bool on) const;
  // The timeline of the queue of `role` (roles that share a queue share it).
  const Timeline& timeline(QueueRole role) const { return *queue(role).timeline; }
  // Where each queue stands, for an error about work that does not end: "compute queue: 812 of 815
  // submissions done, next: morph3; upload queue: ..." (the queues the roles use, once each).
  std::string describe_queues() const;

  // What the device's buffers hold now (logged at each allocation; bench/ and the tests read it
  // from the log).
  MemoryHeld& memory_held() const { return held_; }

  // The memory blocks the device's buffers are placed in (memory_blocks.hpp).
  MemoryBlocks& blocks() const { return *blocks_; }

  // The compute pipelines compiled on this device, shared by every element using it.
  KernelCache& kernels() const { return *kernels_; }

  // Buffers and descriptor sets destroyed on the device so far: a command buffer recorded before
  // one went may name it, or a new object that took its handle (commands.hpp). Pipelines live as
  // long as the device (KernelCache).
  void note_released() const { released_.fetch_add(1, std::memory_order_relaxed); }
  uint64_t released() const { return released_.load(std::memory_order_relaxed); }

  // Held exclusively while a buffer is destroyed, shared while a descriptor set is written (Buffer,
  // Kernel). Destroying a buffer that a descriptor set still names (a frame's, freed by the reaper
  // after the set's last use) while another thread writes that set anew is valid Vulkan, but the
  // validation layer's tracking then races: its walk from the buffer to the set and on to the command
  // buffers that bound it can mark a slot's command buffer invalid after the slot has begun recording
  // it again (UNASSIGNED-CoreValidation-DrawState-InvalidCommandBuffer-VkBuffer: about 1 run in 13 of
  // tests/test_tee_branches.cpp with VKCOMPUTE_TEE_RUNS=10 on lavapipe, none in 30 with this lock). One at a
  // time, a destroy that comes first marks only the recording that the slot's next begin drops, and one that
  // comes after the write no longer reaches the set. Writes take it shared: they never wait for each other.
  std::shared_mutex& destroy_lock() const { return destroy_lock_; }

  // Attaches a debug name (visible in validation messages and GPU debuggers) when the instance
  // has VK_EXT_debug_utils.
  template <typename Handle>
  void set_name(Handle handle, const char* name) const {
    set_name_raw(Handle::objectType, (uint64_t) static_cast<typename Handle::CType>(handle), name);
  }

  // Counts one stream of frames (an element between its start and stop) on the device while it
  // lives: the automatic choice spreads new streams over the devices of the best kind by it.
  class StreamCount {
   public:
    explicit StreamCount(const Device& device) : device_(device) { device_.streams_++; }
    ~StreamCount() { device_.streams_--; }
    StreamCount(const StreamCount&) = delete;
    StreamCount& operator=(const StreamCount&) = delete;

   private:
    const Device& device_;
  };
  int streams() const { return streams_.load(); }

  // A memory type index with all of `required` flags among `type_bits`, preferring one that also
  // has `preferred`; -1 when none.
  int find_memory_type(uint32_t type_bits, vk::MemoryPropertyFlags required,
                       vk::MemoryPropertyFlags preferred = {}) const;

 private:
  Device(std::shared_ptr<Instance> instance, vk::raii::PhysicalDevice physical, int index);
  // Adopts `foreign`'s device (adopt()).
  Device(std::shared_ptr<Instance> instance, vk::raii::PhysicalDevice physical, ForeignDevice& foreign,
         int id);
  // The properties, memory, identity and subgroup operations of the physical device, and whether
  // analyses copy their input to device memory.
  void describe_physical();
  // Sets the features that the `enabled` device extensions give.
  void note_extensions(const std::vector<std::string>& enabled);
  // The timelines, kernels and memory blocks of the device, once device_ is set.
  void make_helpers();
  void set_name_raw(vk::ObjectType type, uint64_t handle, const char* name) const;

  // One VkQueue. Roles without a queue of their own share the compute queue, and its lock.
  struct Queue {
    uint32_t family = 0;
    vk::Queue handle;
    QueueLock* lock = nullptr;
    Timeline* timeline = nullptr;  // signalled by every submission, under `lock`
  };
  const Queue& queue(QueueRole role) const { return queues_[size_t(role)]; }

  // An adopted device's owner: GStreamer's references, let go after everything below.
  std::shared_ptr<ForeignDevice> foreign_;
  std::shared_ptr<Instance> instance_;
  vk::raii::PhysicalDevice physical_;
  vk::PhysicalDeviceProperties properties_;
  vk::PhysicalDeviceMemoryProperties memory_;
  DeviceFeatures features_;
  int index_;
  int id_;
  std::string name_;
  vk::raii::Device device_ = nullptr;
  Queue queues_[3];  // by QueueRole
  std::vector<uint32_t> families_;
  mutable QueueLock locks_[3];  // one per distinct VkQueue
  // One per distinct VkQueue, beside its lock; declared after device_: destroyed before it.
  std::unique_ptr<Timeline> timelines_[3];
  mutable MemoryHeld held_;
  mutable std::atomic<int> streams_{0};  // StreamCount
  mutable std::atomic<uint64_t> released_{0};
  mutable std::shared_mutex destroy_lock_;
  std::unique_ptr<KernelCache> kernels_;  // after device_: destroyed before it
  std::unique_ptr<MemoryBlocks> blocks_;  // after device_: freed before it
  std::unique_ptr<HostTail> host_tail_;   // after device_: the compute queue's (host_tail.hpp)
};

}  // namespace vkc
