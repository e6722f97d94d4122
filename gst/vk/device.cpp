// Instance creation, physical-device choice and the per-process registry of shared devices.
#include "device.hpp"

#include "batch.hpp"
#include "host_tail.hpp"
#include "kernel_cache.hpp"
#include "memory_blocks.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>

GST_DEBUG_CATEGORY(gst_vkcompute_runtime_debug);
#define GST_CAT_DEFAULT gst_vkcompute_runtime_debug

namespace vkc {

namespace {

// Validation and driver messages go to the runtime's debug category; tests count the errors.
void log_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT type,
                       const VkDebugUtilsMessengerCallbackDataEXT* data) {
  const char* text = data && data->pMessage ? data->pMessage : "";
  // The loader names its own messages (an environment variable that adds layers, a manifest it
  // skipped): they say how Vulkan was set up here, not what the plugin did.
  const bool loader = data && data->pMessageIdName && strcmp(data->pMessageIdName, "Loader Message") == 0;
  const char* source = (type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) ? "Vulkan validation"
                       : loader                                                ? "Vulkan loader"
                                                                               : "Vulkan";
  // The message's ID (a VUID, or a name such as "SYNC-HAZARD-WRITE-AFTER-READ") leads, in brackets:
  // validation layers from 1.4 on no longer put it in the text, and tests name the few messages
  // they tolerate by it.
  const char* id = data && data->pMessageIdName && !loader ? data->pMessageIdName : "";
  const char* open = id[0] ? "[" : "";
  const char* close = id[0] ? "] " : "";
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
    GST_ERROR("%s: %s%s%s%s", source, open, id, close, text);
  else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
    GST_WARNING("%s: %s%s%s%s", source, open, id, close, text);
  else
    GST_DEBUG("%s: %s%s%s%s", source, open, id, close, text);
}

// Vulkan-Hpp types the messenger's callback with its own enums and structs from header version
// 304 on (Debian 13's 1.4.309), with the C ones before it (Debian 12's 1.3.239); both carry the
// same bits and layout.
#if VK_HEADER_VERSION >= 304
VKAPI_ATTR vk::Bool32 VKAPI_CALL on_debug_message(vk::DebugUtilsMessageSeverityFlagBitsEXT severity,
                                                  vk::DebugUtilsMessageTypeFlagsEXT type,
                                                  const vk::DebugUtilsMessengerCallbackDataEXT* data, void*) {
  log_debug_message(static_cast<VkDebugUtilsMessageSeverityFlagBitsEXT>(severity),
                    static_cast<VkDebugUtilsMessageTypeFlagsEXT>(type),
                    reinterpret_cast<const VkDebugUtilsMessengerCallbackDataEXT*>(data));
  return VK_FALSE;
}
#else
VKAPI_ATTR VkBool32 VKAPI_CALL on_debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                VkDebugUtilsMessageTypeFlagsEXT type,
                                                const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  log_debug_message(severity, type, data);
  return VK_FALSE;
}
#endif

vk::DebugUtilsMessengerCreateInfoEXT messenger_info() {
  using S = vk::DebugUtilsMessageSeverityFlagBitsEXT;
  using T = vk::DebugUtilsMessageTypeFlagBitsEXT;
  return vk::DebugUtilsMessengerCreateInfoEXT{
      .messageSeverity = S::eError | S::eWarning | S::eInfo,
      .messageType = T::eGeneral | T::eValidation | T::ePerformance,
      .pfnUserCallback = on_debug_message,
  };
}

// Rank for the automatic choice: discrete GPU, then integrated, then virtual, then CPU.
int type_rank(vk::PhysicalDeviceType type) {
  switch (type) {
    case vk::PhysicalDeviceType::eDiscreteGpu: return 0;
    case vk::PhysicalDeviceType::eIntegratedGpu: return 1;
    case vk::PhysicalDeviceType::eVirtualGpu: return 2;
    case vk::PhysicalDeviceType::eCpu: return 3;
    default: return 4;
  }
}

bool has_extension(const std::vector<vk::ExtensionProperties>& list, const char* name) {
  return std::any_of(list.begin(), list.end(),
                     [&](const vk::ExtensionProperties& e) { return strcmp(e.extensionName, name) == 0; });
}

int compute_queue_family(const vk::raii::PhysicalDevice& physical) {
  auto families = physical.getQueueFamilyProperties();
  // A compute-only family is usually the asynchronous one; any compute family will do otherwise.
  int fallback = -1;
  for (uint32_t i = 0; i < families.size(); ++i) {
    auto flags = families[i].queueFlags;
    if (!(flags & vk::QueueFlagBits::eCompute)) continue;
    if (!(flags & vk::QueueFlagBits::eGraphics)) return int(i);
    if (fallback < 0) fallback = int(i);
  }
  return fallback;
}

// A family of queues that only copy: on discrete GPUs they drive the copy engines, which move
// memory across the bus while the compute queue runs kernels. -1 when there is none, or when
// GST_VKCOMPUTE_TRANSFER_QUEUES=0 asks to keep every copy on the compute queue (to compare).
int transfer_queue_family(const vk::raii::PhysicalDevice& physical) {
  if (g_strcmp0(g_getenv("GST_VKCOMPUTE_TRANSFER_QUEUES"), "0") == 0) return -1;
  auto families = physical.getQueueFamilyProperties();
  for (uint32_t i = 0; i < families.size(); ++i) {
    auto flags = families[i].queueFlags;
    if ((flags & vk::QueueFlagBits::eTransfer) &&
        !(flags & (vk::QueueFlagBits::eCompute | vk::QueueFlagBits::eGraphics)) && families[i].queueCount > 0)
      return int(i);
  }
  return -1;
}

// Why `physical` (device `index`) cannot run our kernels, or an empty string when it can.
std::string unusable_reason(const vk::raii::PhysicalDevice& physical, int index) {
  auto props = physical.getProperties();
  std::string name =
      std::string("Vulkan device ") + std::to_string(index) + " (" + props.deviceName.data() + ")";
  // 1.2 for timeline semaphores (timeline.hpp), which every 1.2 device has.
  if (props.apiVersion < VK_API_VERSION_1_2)
    return name + " supports Vulkan " + std::to_string(VK_VERSION_MAJOR(props.apiVersion)) + "." +
           std::to_string(VK_VERSION_MINOR(props.apiVersion)) + "; 1.2 or newer is needed";
  if (compute_queue_family(physical) < 0) return name + " has no compute queue";
  return {};
}

// The device extensions that DeviceFeatures use which `physical` has (with both clocks, for
// calibrated timestamps): host memory imported, memory and semaphores exported to CUDA, the GPU's
// clock read beside the CPU's.
std::vector<std::string> usable_extensions(const vk::raii::PhysicalDevice& physical) {
  std::vector<std::string> usable;
  const auto available = physical.enumerateDeviceExtensionProperties();
  for (const char* name :
       {VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME,
        VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME})
    if (has_extension(available, name)) usable.push_back(name);
  if (has_extension(available, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME)) {
    const auto domains = physical.getCalibrateableTimeDomainsEXT();
    auto has = [&](vk::TimeDomainEXT d) {
      return std::find(domains.begin(), domains.end(), d) != domains.end();
    };
    if (has(vk::TimeDomainEXT::eDevice) && has(vk::TimeDomainEXT::eClockMonotonic))
      usable.push_back(VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME);
  }
  return usable;
}

// How long closing an adopted device waits for work of ours still on its queue.
constexpr uint64_t kAdoptedCloseTimeoutNs = 10'000'000'000ull;

}  // namespace

// Vulkan instances made so far (instance_generation()).
static std::atomic<uint64_t> instances_created{0};

// The process-wide VkInstance. Once a device has opened on it, it stays until the process exits:
// destroying it with the last device made the loader unload the driver, and the next device loaded
// it again; on NVIDIA's driver (580, H200) a thread that had opened a device on that second instance
// then crashed in the driver's thread-exit handler (an element started from a thread of its own
// after an earlier pipeline of the process had stopped: test_robustness, test_caps_while_starting).
// An instance on which no device opened goes with its last reference, so the next start lists the
// drivers and devices again (one installed or fixed meanwhile; the fake driver's tests).
class Instance {
 public:
  static std::shared_ptr<Instance> get(std::string& error);
  // Keeps `instance` until the process exits (never destroyed: the driver's exit handlers tear it
  // down). Called when a device has opened on it.
  static void keep(std::shared_ptr<Instance> instance);
  // Another library's instance, for the devices adopted on it: never destroyed by us.
  static std::shared_ptr<Instance> borrow(VkInstance handle);
  ~Instance() {
    if (borrowed) instance.release();
  }

  vk::raii::Context context;
  vk::raii::Instance instance = nullptr;
  vk::raii::DebugUtilsMessengerEXT messenger = nullptr;
  bool debug_utils = false;
  bool borrowed = false;
};

std::shared_ptr<Instance> Instance::borrow(VkInstance handle) {
  auto borrowed = std::make_shared<Instance>();
  borrowed->instance = vk::raii::Instance(borrowed->context, handle);
  borrowed->borrowed = true;
  return borrowed;
}

namespace {
std::mutex instance_lock;
std::weak_ptr<Instance> shared_instance;  // instance_lock
}  // namespace

void Instance::keep(std::shared_ptr<Instance> instance) {
  static auto* kept = new std::shared_ptr<Instance>();
  std::lock_guard<std::mutex> guard(instance_lock);
  if (!*kept) *kept = std::move(instance);
}

std::shared_ptr<Instance> Instance::get(std::string& error) {
  std::lock_guard<std::mutex> guard(instance_lock);
  if (auto existing = shared_instance.lock()) return existing;

  auto created = std::make_shared<Instance>();
  try {
    uint32_t api = created->context.enumerateInstanceVersion();
    if (api < VK_API_VERSION_1_1) {
      error = "the Vulkan loader supports only Vulkan " + std::to_string(VK_VERSION_MAJOR(api)) + "." +
              std::to_string(VK_VERSION_MINOR(api)) + "; 1.2 or newer is needed";
      return nullptr;
    }
    std::vector<const char*> extensions;
    created->debug_utils = has_extension(created->context.enumerateInstanceExtensionProperties(),
                                         VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (created->debug_utils) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);

    vk::ApplicationInfo app{
        .pApplicationName = "gst-vkcompute", .pEngineName = "GStreamer", .apiVersion = VK_API_VERSION_1_2};
    auto debug_info = messenger_info();
    vk::InstanceCreateInfo info{.pNext = created->debug_utils ? &debug_info : nullptr,
                                .pApplicationInfo = &app,
                                .enabledExtensionCount = uint32_t(extensions.size()),
                                .ppEnabledExtensionNames = extensions.data()};
    created->instance = vk::raii::Instance(created->context, info);
    if (created->debug_utils)
      created->messenger = vk::raii::DebugUtilsMessengerEXT(created->instance, debug_info);
  } catch (const vk::SystemError& e) {
    error = std::string("could not create a Vulkan instance (is a Vulkan driver installed?): ") + e.what();
    return nullptr;
  }
  shared_instance = created;
  ++instances_created;
  return created;
}

uint64_t instance_generation() {
  return instances_created.load();
}

void note_other_instance() {
  ++instances_created;
}

int Device::default_index() {
  const char* env = g_getenv("GST_VKCOMPUTE_DEVICE");
  if (!env || !*env) return -1;
  char* end = nullptr;
  long value = strtol(env, &end, 10);
  if (*end != '\0' || value < -1 || value > 1024) {
    GST_WARNING("ignoring GST_VKCOMPUTE_DEVICE=\"%s\": not a device index", env);
    return -1;
  }
  return int(value);
}

int Device::index_with_uuid(const uint8_t (&uuid)[VK_UUID_SIZE]) {
  std::string error;
  auto instance = Instance::get(error);
  if (!instance) return -1;
  try {
    vk::raii::PhysicalDevices physicals(instance->instance);
    for (size_t i = 0; i < physicals.size(); ++i) {
      auto chain =
          physicals[i].getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceIDProperties>();
      const auto& id = chain.get<vk::PhysicalDeviceIDProperties>().deviceUUID;
      if (std::equal(id.begin(), id.end(), uuid)) return int(i);
    }
  } catch (const vk::SystemError&) {
  }
  return -1;
}

namespace {
// Adopted devices by VkDevice, while they live; adopted_ids names the next.
std::mutex adopted_lock;
std::map<VkDevice, std::weak_ptr<Device>> adopted_devices;
int adopted_ids = Device::kFirstAdoptedId;
}  // namespace

std::shared_ptr<Device> Device::adopt(ForeignDevice foreign, std::string& error) {
  std::lock_guard<std::mutex> guard(adopted_lock);
  if (auto existing = adopted_devices[foreign.device].lock()) return existing;
  try {
    auto instance = Instance::borrow(foreign.instance);
    vk::raii::PhysicalDevice physical(instance->instance, foreign.physical);
    // Our timelines live on the device (timeline.hpp): the feature must have been enabled with it.
    const auto features =
        physical.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan12Features>();
    if (!features.get<vk::PhysicalDeviceVulkan12Features>().timelineSemaphore) {
      error = "the GPU has no timeline semaphores";
      return nullptr;
    }
    std::shared_ptr<Device> device(new Device(instance, std::move(physical), foreign, adopted_ids++));
    adopted_devices[device->foreign_->device] = device;
    return device;
  } catch (const vk::SystemError& e) {
    error = std::string("it does not answer: ") + e.what();
    return nullptr;
  }
}

std::shared_ptr<Device> Device::adopted_with_id(int id) {
  std::lock_guard<std::mutex> guard(adopted_lock);
  for (auto& [handle, weak] : adopted_devices)
    if (auto device = weak.lock(); device && device->id() == id) return device;
  return nullptr;
}

std::shared_ptr<Device> Device::acquire(int index, std::string& error, DeviceChoiceInfo* info) {
  static std::mutex lock;
  static std::map<int, std::weak_ptr<Device>> devices;
  DeviceChoiceInfo unused;
  if (!info) info = &unused;
  *info = {};

  auto instance = Instance::get(error);
  if (!instance) return nullptr;

  std::lock_guard<std::mutex> guard(lock);
  std::vector<vk::raii::PhysicalDevice> physicals;
  try {
    physicals = vk::raii::PhysicalDevices(instance->instance);
  } catch (const vk::SystemError& e) {
    error = std::string("the Vulkan loader could not list the devices (") + e.what() +
            "); a driver failed to start";
    return nullptr;
  }
  if (physicals.empty()) {
    error =
        "no Vulkan device found (the Vulkan loader lists none; is a driver such as Mesa's lavapipe "
        "installed?)";
    return nullptr;
  }
  // The shared device for a usable `i`, opened on first use; null with `why` set otherwise.
  auto open = [&](int i, std::string& why) -> std::shared_ptr<Device> {
    why = unusable_reason(physicals[i], i);
    if (!why.empty()) return nullptr;
    if (auto existing = devices[i].lock()) return existing;
    const std::string name = physicals[i].getProperties().deviceName.data();
    try {
      std::shared_ptr<Device> device(new Device(instance, std::move(physicals[i]), i));
      devices[i] = device;
      Instance::keep(instance);
      return device;
    } catch (const vk::SystemError& e) {
      why = "Vulkan device " + std::to_string(i) + " (" + name + ") could not be opened: " + e.what();
      return nullptr;
    }
  };
  info->listed = physicals.size();
  if (index >= 0)
    info->choice = DeviceChoice::kIndex;
  else if ((index = default_index()) >= 0)
    info->choice = DeviceChoice::kEnvironment;
  if (index >= int(physicals.size())) {
    error = "Vulkan device " + std::to_string(index) + " does not exist: this system has " +
            std::to_string(physicals.size()) + " (indices 0.." + std::to_string(physicals.size() - 1) + ")";
    return nullptr;
  }
  if (index >= 0) return open(index, error);

  // Automatic: the best kind first and, among devices of a kind, the one running the fewest
  // streams (new pipelines spread over a host's GPUs; ties go to the lower index). A device that
  // cannot run the kernels or fails to open gives way to the next, and when none is left the error
  // says why each one was passed over.
  std::vector<int> order(physicals.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
  std::vector<std::pair<int, int>> rank(physicals.size());  // kind, then streams (read once: they move)
  for (size_t i = 0; i < rank.size(); ++i) {
    auto open_now = devices[int(i)].lock();
    rank[i] = {type_rank(physicals[i].getProperties().deviceType), open_now ? open_now->streams() : 0};
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return rank[a] < rank[b]; });
  std::string reasons;
  for (int i : order) {
    std::string why;
    if (auto device = open(i, why)) {
      info->passed_over = std::move(reasons);
      return device;
    }
    GST_INFO("automatic device choice passes over %s", why.c_str());
    reasons += (reasons.empty() ? "" : "; ") + why;
  }
  error = "none of the " + std::to_string(physicals.size()) +
          " Vulkan devices found can run the kernels: " + reasons;
  return nullptr;
}

void Device::describe_physical() {
  properties_ = physical_.getProperties();
  memory_ = physical_.getMemoryProperties();
  name_ = properties_.deviceName.data();

  auto chain = physical_.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceSubgroupProperties,
                                        vk::PhysicalDeviceExternalMemoryHostPropertiesEXT,
                                        vk::PhysicalDeviceIDProperties>();
  const auto& uuid = chain.get<vk::PhysicalDeviceIDProperties>().deviceUUID;
  std::copy(uuid.begin(), uuid.end(), features_.uuid.begin());
  const auto& subgroup = chain.get<vk::PhysicalDeviceSubgroupProperties>();
  // GST_VKCOMPUTE_NO_SUBGROUPS=1 hides subgroup operations, so the shared-memory fallbacks of the
  // reduction kernels can be tested on devices that have them.
  if ((subgroup.supportedStages & vk::ShaderStageFlagBits::eCompute) &&
      !g_getenv("GST_VKCOMPUTE_NO_SUBGROUPS")) {
    features_.subgroup_size = subgroup.subgroupSize;
    features_.subgroup_ops = subgroup.supportedOperations;
  }
  features_.host_pointer_alignment =
      chain.get<vk::PhysicalDeviceExternalMemoryHostPropertiesEXT>().minImportedHostPointerAlignment;

  const char* copy_input = g_getenv("GST_VKCOMPUTE_COPY_INPUT");
  features_.copy_input_to_device = copy_input
                                       ? g_strcmp0(copy_input, "0") != 0
                                       : properties_.deviceType == vk::PhysicalDeviceType::eDiscreteGpu;
}

void Device::note_extensions(const std::vector<std::string>& enabled) {
  auto has = [&](const char* name) {
    return std::find(enabled.begin(), enabled.end(), name) != enabled.end();
  };
  features_.host_pointer_import = has(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  features_.memory_fd_export = has(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
  features_.semaphore_fd_export = has(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
  features_.calibrated_timestamps = has(VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME);
}

void Device::make_helpers() {
  for (auto& timeline : timelines_) timeline = std::make_unique<Timeline>(device_);
  kernels_ = std::make_unique<KernelCache>(*this);
  blocks_ = std::make_unique<MemoryBlocks>(*this);
}

Device::Device(std::shared_ptr<Instance> instance, vk::raii::PhysicalDevice physical, int index)
    : instance_(std::move(instance)), physical_(std::move(physical)), index_(index), id_(index) {
  describe_physical();
  const std::vector<std::string> wanted = usable_extensions(physical_);
  std::vector<const char*> extensions;
  for (const std::string& name : wanted) extensions.push_back(name.c_str());
  note_extensions(wanted);

  const uint32_t compute_family = uint32_t(compute_queue_family(physical_));
  const int transfer_family = transfer_queue_family(physical_);
  // Two copy queues when the family has them: uploads and downloads then run at once.
  const uint32_t transfer_queues =
      transfer_family < 0 ? 0
                          : std::min(2u, physical_.getQueueFamilyProperties()[transfer_family].queueCount);
  const float priorities[2] = {1.0f, 1.0f};
  std::vector<vk::DeviceQueueCreateInfo> queue_infos{
      {.queueFamilyIndex = compute_family, .queueCount = 1, .pQueuePriorities = priorities}};
  if (transfer_queues > 0)
    queue_infos.push_back({.queueFamilyIndex = uint32_t(transfer_family),
                           .queueCount = transfer_queues,
                           .pQueuePriorities = priorities});
  features_.float16 =
      physical_.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan12Features>()
          .get<vk::PhysicalDeviceVulkan12Features>()
          .shaderFloat16;
  vk::PhysicalDeviceVulkan12Features vulkan12{.shaderFloat16 = features_.float16,
                                              .timelineSemaphore = VK_TRUE};
  vk::DeviceCreateInfo info{.pNext = &vulkan12,
                            .queueCreateInfoCount = uint32_t(queue_infos.size()),
                            .pQueueCreateInfos = queue_infos.data(),
                            .enabledExtensionCount = uint32_t(extensions.size()),
                            .ppEnabledExtensionNames = extensions.data()};
  device_ = vk::raii::Device(physical_, info);
  make_helpers();
  queues_[size_t(QueueRole::kCompute)] = {compute_family, *device_.getQueue(compute_family, 0), &locks_[0],
                                          timelines_[0].get()};
  families_ = {compute_family};
  host_tail_ = std::make_unique<HostTail>(device_, compute_family);
  for (QueueRole role : {QueueRole::kUpload, QueueRole::kDownload}) {
    if (transfer_queues == 0) {
      queues_[size_t(role)] = queues_[size_t(QueueRole::kCompute)];
      continue;
    }
    const uint32_t n = role == QueueRole::kUpload ? 0 : transfer_queues - 1;
    queues_[size_t(role)] = {uint32_t(transfer_family), *device_.getQueue(transfer_family, n), &locks_[1 + n],
                             timelines_[1 + n].get()};
  }
  if (transfer_queues > 0) families_.push_back(uint32_t(transfer_family));
  set_name(queue(QueueRole::kCompute).handle, "vkcompute queue");
  if (transfer_queues > 0) {
    set_name(queue(QueueRole::kUpload).handle, "vkcompute uploads");
    set_name(queue(QueueRole::kDownload).handle,
             transfer_queues > 1 ? "vkcompute downloads" : "vkcompute uploads");
  }
  GST_INFO(
      "opened Vulkan device %d: %s (compute queue family %u, %u copy queue(s) of family %d, subgroup "
      "size %u, host import %s, analysis input %s)",
      index_, name_.c_str(), compute_family, transfer_queues, transfer_family, features_.subgroup_size,
      features_.host_pointer_import ? "yes" : "no",
      features_.copy_input_to_device ? "copied to device memory" : "read in place");
}

Device::Device(std::shared_ptr<Instance> instance, vk::raii::PhysicalDevice physical, ForeignDevice& foreign,
               int id)
    : instance_(std::move(instance)), physical_(std::move(physical)), index_(foreign.index), id_(id) {
  describe_physical();
  std::vector<std::string> enabled;
  for (const std::string& name : usable_extensions(physical_))
    if (std::find(foreign.extensions.begin(), foreign.extensions.end(), name) != foreign.extensions.end())
      enabled.push_back(name);
  note_extensions(enabled);
  device_ = vk::raii::Device(physical_, foreign.device);
  make_helpers();
  // Every role on the one queue, under our lock and the other library's (queue_lock.hpp).
  locks_[0].share_with(foreign.lock_queue, foreign.unlock_queue);
  const Queue queue{foreign.queue_family, vk::Queue(foreign.queue), &locks_[0], timelines_[0].get()};
  for (Queue& role : queues_) role = queue;
  families_ = {foreign.queue_family};
  host_tail_ = std::make_unique<HostTail>(device_, foreign.queue_family);
  foreign_ = std::make_shared<ForeignDevice>(std::move(foreign));
  GST_INFO(
      "adopted a Vulkan device of another library on %s (device %d, queue family %u, subgroup size %u, "
      "host import %s, CUDA export %s)",
      name_.c_str(), index_, queue.family, features_.subgroup_size,
      features_.host_pointer_import ? "yes" : "no",
      features_.memory_fd_export && features_.semaphore_fd_export ? "yes" : "no");
}

Device::~Device() {
  if (adopted()) {
    // Not idle: the other library's queues may be submitting. Our own work is what must end.
    for (auto& timeline : timelines_) {
      if (!timeline || timeline->submitted() == 0) continue;
      const vk::Semaphore semaphore = timeline->semaphore();
      const uint64_t value = timeline->submitted();
      const vk::SemaphoreWaitInfo wait{.semaphoreCount = 1, .pSemaphores = &semaphore, .pValues = &value};
      try {
        if (device_.waitSemaphores(wait, kAdoptedCloseTimeoutNs) != vk::Result::eSuccess)
          GST_WARNING("work of ours on the adopted device %s did not end within 10 s", name_.c_str());
      } catch (const vk::SystemError& e) {
        GST_WARNING("waiting for work of ours on the adopted device %s: %s", name_.c_str(), e.what());
      }
    }
  } else if (*device_) {
    device_.waitIdle();
  }
  kernels_.reset();
  blocks_.reset();
  host_tail_.reset();
  for (auto& timeline : timelines_) timeline.reset();
  if (adopted()) {
    device_.release();
    GST_INFO("let go of the adopted Vulkan device on %s", name_.c_str());
    return;
  }
  GST_INFO("closed Vulkan device %d: %s", index_, name_.c_str());
}

std::shared_ptr<const SubmitPoint> Device::submit(const vk::SubmitInfo& info, vk::Fence fence, QueueRole role,
                                                  bool defer, const char* label) const {
  if (defer && !fence && batch::open()) return batch::add(*this, info, role, label);
  batch::flush();  // what the thread deferred goes first
  return std::make_shared<const SubmitPoint>(timeline(role), submit_now(info, fence, role, label));
}

uint64_t Device::submit_now(const vk::SubmitInfo& info, vk::Fence fence, QueueRole role, const char* label,
                            uint32_t others) const {
  const Queue& q = queue(role);
  if (role != QueueRole::kCompute) {
    std::lock_guard<QueueLock> guard(*q.lock);
    return q.timeline->submit(q.handle, info, fence, label, others);
  }
  // Compute work ends with the barrier towards the host (host_tail.hpp).
  std::vector<vk::CommandBuffer> commands(info.pCommandBuffers,
                                          info.pCommandBuffers + info.commandBufferCount);
  commands.push_back(host_tail_->commands());
  vk::SubmitInfo with_tail = info;
  with_tail.commandBufferCount = uint32_t(commands.size());
  with_tail.pCommandBuffers = commands.data();
  std::lock_guard<QueueLock> guard(*q.lock);
  return q.timeline->submit(q.handle, with_tail, fence, label, others);
}

void Device::hurry(std::thread::id thread, bool on) const {
  for (QueueLock& lock : locks_) lock.hurry(thread, on);
}

uint64_t Device::host_ns_of(uint64_t ticks) const {
  if (!features_.calibrated_timestamps) return 0;
  const std::array<vk::CalibratedTimestampInfoEXT, 2> infos{
      vk::CalibratedTimestampInfoEXT{.timeDomain = vk::TimeDomainEXT::eDevice},
      vk::CalibratedTimestampInfoEXT{.timeDomain = vk::TimeDomainEXT::eClockMonotonic}};
  try {
    const auto [now, deviation] = device_.getCalibratedTimestampsEXT(infos);
    const double ago_ns = (double(now[0]) - double(ticks)) * properties_.limits.timestampPeriod;
    return uint64_t(double(now[1]) - ago_ns);
  } catch (const std::exception&) {
    return 0;
  }
}

std::string Device::describe_queues() const {
  static const char* const kNames[] = {"compute", "upload", "download"};
  std::string text;
  std::vector<const Timeline*> told;
  for (int role = 0; role < 3; ++role) {
    const Timeline* timeline = queues_[role].timeline;
    if (std::find(told.begin(), told.end(), timeline) != told.end()) continue;
    told.push_back(timeline);
    std::string done, next;
    try {
      const uint64_t counter = timeline->counter();
      done = std::to_string(counter);
      if (counter < timeline->submitted()) {
        std::lock_guard<QueueLock> guard(*queues_[role].lock);
        next = timeline->label_of(counter + 1);
      }
    } catch (const vk::SystemError& e) {
      done = std::string("? (") + e.what() + ")";
    }
    text += std::string(text.empty() ? "" : "; ") + kNames[role] + " queue: " + done + " of " +
            std::to_string(timeline->submitted()) + " submissions done" +
            (next.empty() ? "" : ", next: " + next);
  }
  return text;
}

void Device::set_name_raw(vk::ObjectType type, uint64_t handle, const char* name) const {
  if (!instance_->debug_utils) return;
  vk::DebugUtilsObjectNameInfoEXT info{.objectType = type, .objectHandle = handle, .pObjectName = name};
  device_.setDebugUtilsObjectNameEXT(info);
}

int Device::find_memory_type(uint32_t type_bits, vk::MemoryPropertyFlags required,
                             vk::MemoryPropertyFlags preferred) const {
  int found = -1;
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    if (!(type_bits & (1u << i))) continue;
    auto flags = memory_.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return int(i);
    if (found < 0) found = int(i);
  }
  return found;
}

}  // namespace vkc
