// A fake Vulkan driver (ICD) for test_device_choice: it lists made-up physical devices that a real
// driver cannot be made to show (too old a Vulkan version, no compute queue, a device that fails to
// open) so the tests can check what the plugin says about each. The Vulkan loader loads it through
// the manifest meson writes next to it (fake_icd.json, named by VK_DRIVER_FILES/VK_ICD_FILENAMES).
//
// Its devices come from the environment, read when an instance is created:
//
//   VKCOMPUTE_FAKE_ICD_DEVICES="1.0:Old GPU,1.1-nocompute:Graphics only,1.1-discrete:Broken GPU"
//       one device per comma-separated entry, VERSION[-FLAG...]:NAME. VERSION is the Vulkan version
//       the device reports (1.0, 1.1, ...); FLAGs: "nocompute" (its one queue family has graphics
//       and transfer but no compute), "discrete", "integrated", "virtual", "cpu" (its type;
//       integrated when none is given). Unset or empty: no device.
//   VKCOMPUTE_FAKE_ICD_ENUMERATE=fail
//       vkEnumeratePhysicalDevices fails with VK_ERROR_INITIALIZATION_FAILED.
//
// Every device fails vkCreateDevice with VK_ERROR_INITIALIZATION_FAILED: there is nothing behind
// it. Only the entry points that the loader requires or the plugin calls up to vkCreateDevice
// exist; every other name resolves to NULL. Depends on the Vulkan headers only (not on the loader).
#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define FAKE_ICD_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

// Dispatchable handles are pointers to objects whose first pointer-sized field holds
// ICD_LOADER_MAGIC when they are handed to the loader; the loader then stores its dispatch table
// there. Hence `loader` first in both structs.
struct FakePhysicalDevice {
  VK_LOADER_DATA loader;
  uint32_t api_version;
  VkPhysicalDeviceType type;
  bool compute;
  std::string name;
};

struct FakeInstance {
  VK_LOADER_DATA loader;
  bool enumerate_fails;
  std::vector<FakePhysicalDevice*> devices;
};

FakeInstance* from_handle(VkInstance instance) {
  return reinterpret_cast<FakeInstance*>(instance);
}
FakePhysicalDevice* from_handle(VkPhysicalDevice device) {
  return reinterpret_cast<FakePhysicalDevice*>(device);
}

// One entry of VKCOMPUTE_FAKE_ICD_DEVICES ("VERSION[-FLAG...]:NAME") as a new device.
FakePhysicalDevice* parse_device(const std::string& entry) {
  auto* device = new FakePhysicalDevice{};
  set_loader_magic_value(device);
  device->type = VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
  device->compute = true;
  const size_t colon = entry.find(':');
  std::string spec = entry.substr(0, colon);
  device->name = colon == std::string::npos ? "fake device" : entry.substr(colon + 1);

  unsigned major = 1, minor = 0;
  sscanf(spec.c_str(), "%u.%u", &major, &minor);
  device->api_version = VK_MAKE_API_VERSION(0, major, minor, 0);
  for (size_t dash = spec.find('-'); dash != std::string::npos; dash = spec.find('-', dash + 1)) {
    const std::string flag = spec.substr(dash + 1, spec.find('-', dash + 1) - dash - 1);
    if (flag == "nocompute") device->compute = false;
    if (flag == "discrete") device->type = VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
    if (flag == "integrated") device->type = VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
    if (flag == "virtual") device->type = VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU;
    if (flag == "cpu") device->type = VK_PHYSICAL_DEVICE_TYPE_CPU;
  }
  return device;
}

// The instance-level entry points. vkEnumerateInstanceVersion and
// vkEnumerateInstanceExtensionProperties are queried by the loader with a NULL instance while it
// scans the drivers; the rest are the loader's terminators' targets.

VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceVersion(uint32_t* version) {
  *version = VK_API_VERSION_1_1;
  return VK_SUCCESS;
}

// No instance extension: the loader implements VK_EXT_debug_utils itself.
VKAPI_ATTR VkResult VKAPI_CALL EnumerateInstanceExtensionProperties(const char*, uint32_t* count,
                                                                    VkExtensionProperties*) {
  *count = 0;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo*, const VkAllocationCallbacks*,
                                              VkInstance* out) {
  auto* instance = new FakeInstance{};
  set_loader_magic_value(instance);
  const char* enumerate = getenv("VKCOMPUTE_FAKE_ICD_ENUMERATE");
  instance->enumerate_fails = enumerate && strcmp(enumerate, "fail") == 0;
  const char* env = getenv("VKCOMPUTE_FAKE_ICD_DEVICES");
  std::string list = env ? env : "";
  for (size_t start = 0; start < list.size();) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    if (comma > start) instance->devices.push_back(parse_device(list.substr(start, comma - start)));
    start = comma + 1;
  }
  *out = reinterpret_cast<VkInstance>(instance);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance handle, const VkAllocationCallbacks*) {
  FakeInstance* instance = from_handle(handle);
  if (!instance) return;
  for (FakePhysicalDevice* device : instance->devices) delete device;
  delete instance;
}

VKAPI_ATTR VkResult VKAPI_CALL EnumeratePhysicalDevices(VkInstance handle, uint32_t* count,
                                                        VkPhysicalDevice* devices) {
  FakeInstance* instance = from_handle(handle);
  if (instance->enumerate_fails) return VK_ERROR_INITIALIZATION_FAILED;
  const uint32_t total = uint32_t(instance->devices.size());
  if (!devices) {
    *count = total;
    return VK_SUCCESS;
  }
  const uint32_t written = *count < total ? *count : total;
  for (uint32_t i = 0; i < written; ++i)
    devices[i] = reinterpret_cast<VkPhysicalDevice>(instance->devices[i]);
  *count = written;
  return written < total ? VK_INCOMPLETE : VK_SUCCESS;
}

// Physical-device queries: what the loader reads to sort the devices and what the plugin reads to
// judge and open one. Limits, features and sparse properties stay zero.

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties(VkPhysicalDevice handle,
                                                       VkPhysicalDeviceProperties* properties) {
  const FakePhysicalDevice* device = from_handle(handle);
  *properties = VkPhysicalDeviceProperties{};
  properties->apiVersion = device->api_version;
  properties->driverVersion = 1;
  properties->vendorID = 0;  // no vendor
  properties->deviceID = 1;
  properties->deviceType = device->type;
  strncpy(properties->deviceName, device->name.c_str(), VK_MAX_PHYSICAL_DEVICE_NAME_SIZE - 1);
}

// The structures chained after VkPhysicalDeviceProperties2 (subgroup, host-pointer import) are
// left as the caller initialised them: none of their features.
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceProperties2(VkPhysicalDevice handle,
                                                        VkPhysicalDeviceProperties2* properties) {
  GetPhysicalDeviceProperties(handle, &properties->properties);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties(VkPhysicalDevice handle, uint32_t* count,
                                                                  VkQueueFamilyProperties* families) {
  if (!families) {
    *count = 1;
    return;
  }
  if (*count < 1) return;
  const FakePhysicalDevice* device = from_handle(handle);
  families[0] = VkQueueFamilyProperties{};
  families[0].queueFlags =
      VK_QUEUE_TRANSFER_BIT | (device->compute ? VK_QUEUE_COMPUTE_BIT : VK_QUEUE_GRAPHICS_BIT);
  families[0].queueCount = 1;
  families[0].minImageTransferGranularity = {1, 1, 1};
  *count = 1;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceQueueFamilyProperties2(VkPhysicalDevice handle, uint32_t* count,
                                                                   VkQueueFamilyProperties2* families) {
  if (!families) {
    GetPhysicalDeviceQueueFamilyProperties(handle, count, nullptr);
    return;
  }
  if (*count >= 1) GetPhysicalDeviceQueueFamilyProperties(handle, count, &families[0].queueFamilyProperties);
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures(VkPhysicalDevice, VkPhysicalDeviceFeatures* features) {
  *features = VkPhysicalDeviceFeatures{};
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFeatures2(VkPhysicalDevice, VkPhysicalDeviceFeatures2* features) {
  features->features = VkPhysicalDeviceFeatures{};
}

// One host-visible, coherent, device-local memory type on one 256 MiB heap.
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceMemoryProperties(VkPhysicalDevice,
                                                             VkPhysicalDeviceMemoryProperties* memory) {
  *memory = VkPhysicalDeviceMemoryProperties{};
  memory->memoryTypeCount = 1;
  memory->memoryTypes[0].propertyFlags = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                         VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  memory->memoryTypes[0].heapIndex = 0;
  memory->memoryHeapCount = 1;
  memory->memoryHeaps[0].size = VkDeviceSize(256) << 20;
  memory->memoryHeaps[0].flags = VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceMemoryProperties2(VkPhysicalDevice handle,
                                                              VkPhysicalDeviceMemoryProperties2* memory) {
  GetPhysicalDeviceMemoryProperties(handle, &memory->memoryProperties);
}

// No device extension (the loader asks while sorting and while creating a device).
VKAPI_ATTR VkResult VKAPI_CALL EnumerateDeviceExtensionProperties(VkPhysicalDevice, const char*,
                                                                  uint32_t* count, VkExtensionProperties*) {
  *count = 0;
  return VK_SUCCESS;
}

// The loader insists on every core Vulkan 1.0 instance-level entry point (it skips a driver that
// lacks one), so these four exist, answering as a device with no formats, no sparse images and no
// device functions would.
VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceFormatProperties(VkPhysicalDevice, VkFormat,
                                                             VkFormatProperties* properties) {
  *properties = VkFormatProperties{};
}

VKAPI_ATTR VkResult VKAPI_CALL GetPhysicalDeviceImageFormatProperties(VkPhysicalDevice, VkFormat, VkImageType,
                                                                      VkImageTiling, VkImageUsageFlags,
                                                                      VkImageCreateFlags,
                                                                      VkImageFormatProperties*) {
  return VK_ERROR_FORMAT_NOT_SUPPORTED;
}

VKAPI_ATTR void VKAPI_CALL GetPhysicalDeviceSparseImageFormatProperties(VkPhysicalDevice, VkFormat,
                                                                        VkImageType, VkSampleCountFlagBits,
                                                                        VkImageUsageFlags, VkImageTiling,
                                                                        uint32_t* count,
                                                                        VkSparseImageFormatProperties*) {
  *count = 0;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice, const char*) {
  return nullptr;
}

// The failure the tests are about: the device is listed but cannot be opened.
VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice, const VkDeviceCreateInfo*,
                                            const VkAllocationCallbacks*, VkDevice*) {
  return VK_ERROR_INITIALIZATION_FAILED;
}

struct Entry {
  const char* name;
  PFN_vkVoidFunction function;
};

#define FAKE_ICD_ENTRY(name) \
  { "vk" #name, reinterpret_cast<PFN_vkVoidFunction>(name) }
const Entry kEntries[] = {
    FAKE_ICD_ENTRY(EnumerateInstanceVersion),
    FAKE_ICD_ENTRY(EnumerateInstanceExtensionProperties),
    FAKE_ICD_ENTRY(CreateInstance),
    FAKE_ICD_ENTRY(DestroyInstance),
    FAKE_ICD_ENTRY(EnumeratePhysicalDevices),
    FAKE_ICD_ENTRY(GetPhysicalDeviceProperties),
    FAKE_ICD_ENTRY(GetPhysicalDeviceProperties2),
    FAKE_ICD_ENTRY(GetPhysicalDeviceQueueFamilyProperties),
    FAKE_ICD_ENTRY(GetPhysicalDeviceQueueFamilyProperties2),
    FAKE_ICD_ENTRY(GetPhysicalDeviceFeatures),
    FAKE_ICD_ENTRY(GetPhysicalDeviceFeatures2),
    FAKE_ICD_ENTRY(GetPhysicalDeviceMemoryProperties),
    FAKE_ICD_ENTRY(GetPhysicalDeviceMemoryProperties2),
    FAKE_ICD_ENTRY(EnumerateDeviceExtensionProperties),
    FAKE_ICD_ENTRY(GetPhysicalDeviceFormatProperties),
    FAKE_ICD_ENTRY(GetPhysicalDeviceImageFormatProperties),
    FAKE_ICD_ENTRY(GetPhysicalDeviceSparseImageFormatProperties),
    FAKE_ICD_ENTRY(GetDeviceProcAddr),
    FAKE_ICD_ENTRY(CreateDevice),
};
#undef FAKE_ICD_ENTRY

}  // namespace

// The loader offers its newest interface version; 5 is the newest this driver needs (the loader
// takes the driver's word on which Vulkan versions it supports, and asks for no surfaces or
// adapter lists).
FAKE_ICD_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t* version) {
  if (*version > 5) *version = 5;
  return VK_SUCCESS;
}

// How the loader finds every other entry point of the driver, by name.
FAKE_ICD_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vk_icdGetInstanceProcAddr(VkInstance,
                                                                                   const char* name) {
  for (const Entry& entry : kEntries)
    if (strcmp(entry.name, name) == 0) return entry.function;
  return nullptr;
}
