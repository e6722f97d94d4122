#include "vktest.h"

#include <vulkan/vulkan.h>

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace vktest {
namespace {

constexpr char kValidationLayer[] = "VK_LAYER_KHRONOS_validation";
constexpr char kCategoryName[] = "vkcompute";
// The plugin's Vulkan messenger (gst/vk/device.cpp) prefixes the validation layer's checks
// "Vulkan validation:", the layers' general and performance messages "Vulkan:", and the loader's
// own "Vulkan loader:" (not counted: it says how the test set Vulkan up, e.g. that
// VK_INSTANCE_LAYERS adds the validation layer).
constexpr char kValidationPrefix[] = "Vulkan validation:";
constexpr char kMessengerPrefix[] = "Vulkan:";
// GStreamer's Vulkan instance (libgstvulkan: vulkanupload and the other stock elements, and those
// of ours that share it) reports the layers' messages through VK_EXT_debug_report into its own
// category, as "[<layer prefix>] Code <number> : <message>", and raises the same text as a
// g_critical (errors) or g_warning (warnings) in its log domain. It creates that report callback
// only if the category lets ERROR through when the instance is created.
constexpr char kGstVulkanCategory[] = "vulkandebug";
constexpr char kGstVulkanLogDomain[] = "GStreamer-Vulkan";
constexpr char kGstVulkanReportPattern[] = "^\\[[^]]*\\] Code -?[0-9]+ : ";

// Log functions run on whatever thread the element logs from (streaming threads, Vulkan
// callbacks), so the error list is guarded. It is deliberately leaked: messages may still be
// logged while the process exits, after static destructors would have run.
std::mutex& ErrorsMutex() {
  static auto* mutex = new std::mutex();
  return *mutex;
}

std::vector<std::string>& Errors() {
  static auto* errors = new std::vector<std::string>();
  return *errors;
}

bool g_validation_enabled = true;

bool ValidationLayerInstalled() {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) != VK_SUCCESS) return false;
  for (const VkLayerProperties& layer : layers) {
    if (std::strcmp(layer.layerName, kValidationLayer) == 0) return true;
  }
  return false;
}

// The loader reads VK_INSTANCE_LAYERS when an instance is created, so setting it before
// anything creates an instance turns validation on for the element too. Layers the user already
// asked for are kept.
void EnableValidationLayer() {
  const char* existing = g_getenv("VK_INSTANCE_LAYERS");
  if (existing != nullptr && std::strstr(existing, kValidationLayer) != nullptr) return;
  std::string layers = kValidationLayer;
  if (existing != nullptr && existing[0] != '\0') layers = std::string(existing) + ":" + layers;
  g_setenv("VK_INSTANCE_LAYERS", layers.c_str(), TRUE);
}

// Synchronization validation (hazards between commands, and between the GPU and the host) in
// every test, unless the run asks for other features of the layer (the GPU-assisted pass).
void EnableSynchronizationValidation() {
  g_setenv("VK_LAYER_ENABLES", "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT", FALSE);
}

// The messages of the layers that the suite expects and does not count, each by the ID that the
// plugin's messenger writes in brackets after the prefix and the start of its text (never a whole
// ID): what the validation layer says of its own set-up, not of what the plugin did. The 1.3.239
// layer (Debian 12) says none of them; the 1.4.309 layer (Debian 13) says them when the
// GPU-assisted checks are on (the test_gpu_assisted_* and the cases that turn them on, and GStreamer's
// own instance from 1.24, which turns them on itself: ToleratedReport()).
struct ToleratedMessage {
  const char* id;
  const char* text;  // the message's text after "[id] " starts with this
  const char* reason;
};
constexpr ToleratedMessage kToleratedMessages[] = {
    {"VALIDATION-SETTINGS",
     "vkCreateInstance(): Both GPU Assisted Validation and Normal Core Check Validation are enabled",
     "the GPU-assisted runs keep the core checks on by choice: slower, and they check everything"},
    {"WARNING-GPU-Assisted-Validation", "vkCreateDevice(): Internal Warning: Forcing ",
     "the layer turns on the device features its instrumentation needs on the device it wraps"},
    {"WARNING-GPU-Assisted-Validation", "vkCreateDevice(): Internal Warning: Adding a ",
     "the same, on a device that enables none of them itself (GStreamer's, on an instance of Vulkan 1.1)"},
    {"WARNING-GPU-Assisted-Validation",
     "vkCreateDevice(): Internal Warning: Ray Query validation option was enabled, but the rayQuery feature "
     "was not supported",
     "lavapipe has no ray queries, and nothing of ours uses them"},
    {"WARNING-GPU-Assisted-Validation",
     "vkGetPhysicalDeviceProperties2(): Internal Warning: Setting "
     "VkPhysicalDeviceVulkan12Properties::maxUpdateAfterBindDescriptorsInAllPools to ",
     "the layer reports a descriptor limit lowered by what its instrumentation reserves; GStreamer's "
     "instance (1.24+) turns the GPU-assisted checks on whenever its messages are asked for"},
};

// Whether `message`, as GStreamer's instance reports it (kGstVulkanCategory), is one of
// kToleratedMessages. After "Code <number> : ", the 1.3 layer writes "Validation Warning: [ <id> ]"
// and the text later on; the 1.4 layer writes the text alone (no ID, and the number 0), which must
// then start with the tolerated text.
bool ToleratedReport(const char* message) {
  const char* body = std::strstr(message, " : ");
  if (body == nullptr) return false;
  body += 3;
  for (const ToleratedMessage& tolerated : kToleratedMessages) {
    const std::string id = std::string("[ ") + tolerated.id + " ]";
    const char* at = std::strstr(body, "[ ");
    if (at == nullptr ? g_str_has_prefix(body, tolerated.text)
                      : g_str_has_prefix(at, id.c_str()) && std::strstr(at, tolerated.text) != nullptr)
      return true;
  }
  return false;
}

bool Tolerated(const char* text) {
  for (const char* prefix : {kValidationPrefix, kMessengerPrefix}) {
    if (!g_str_has_prefix(text, prefix)) continue;
    const char* rest = text + strlen(prefix);
    while (*rest == ' ') ++rest;
    for (const ToleratedMessage& tolerated : kToleratedMessages) {
      const std::string start = std::string("[") + tolerated.id + "] " + tolerated.text;
      if (g_str_has_prefix(rest, start.c_str())) return true;
    }
  }
  return false;
}

void CountValidationErrors(GstDebugCategory* category, GstDebugLevel level, const gchar* /*file*/,
                           const gchar* /*function*/, gint /*line*/, GObject* /*object*/,
                           GstDebugMessage* message, gpointer /*user_data*/) {
  // Warnings count too: any message of the layers at WARNING or ERROR fails the test.
  if (level != GST_LEVEL_ERROR && level != GST_LEVEL_WARNING) return;
  const gchar* text = gst_debug_message_get(message);
  if (text == nullptr) return;
  const char* name = gst_debug_category_get_name(category);
  std::string counted;
  if (std::strcmp(name, kCategoryName) == 0) {
    if (!(g_str_has_prefix(text, kValidationPrefix) || g_str_has_prefix(text, kMessengerPrefix)) ||
        Tolerated(text))
      return;
    counted = text;
  } else if (std::strcmp(name, kGstVulkanCategory) == 0) {
    if (ToleratedReport(text)) return;
    counted = std::string("GStreamer's Vulkan instance: ") + text;
  } else {
    return;
  }
  std::lock_guard<std::mutex> lock(ErrorsMutex());
  Errors().push_back(std::move(counted));
}

// The level the user's GST_DEBUG gives `name` (its last matching "pattern:level" entry), or
// GST_LEVEL_NONE when no entry matches.
GstDebugLevel UserLevelFor(const char* name) {
  GstDebugLevel level = GST_LEVEL_NONE;
  const char* user = g_getenv("GST_DEBUG");
  if (user == nullptr) return level;
  gchar** entries = g_strsplit(user, ",", -1);
  for (gchar** entry = entries; *entry != nullptr; ++entry) {
    gchar** parts = g_strsplit(*entry, ":", 2);
    if (parts[0] != nullptr && parts[1] != nullptr && g_pattern_match_simple(g_strstrip(parts[0]), name)) {
      const gchar* value = g_strstrip(parts[1]);
      if (g_ascii_isdigit(value[0])) {
        level = GstDebugLevel(std::min<guint64>(g_ascii_strtoull(value, nullptr, 10), GST_LEVEL_MEMDUMP));
      } else {
        for (int l = GST_LEVEL_NONE; l <= GST_LEVEL_MEMDUMP; ++l)
          if (g_ascii_strcasecmp(value, gst_debug_level_get_name(GstDebugLevel(l))) == 0)
            level = GstDebugLevel(l);
      }
    }
    g_strfreev(parts);
  }
  g_strfreev(entries);
  return level;
}

// Messages are only delivered to log functions when the category's threshold lets them through.
// The category may not exist yet (the plugin is loaded lazily), so a name pattern is used, set
// after the user's GST_DEBUG (the newest pattern wins): at least WARNING, so that no GST_DEBUG
// setting ("*:1", "vkcompute:0") hides a validation message from the count, and higher when the
// default threshold (GST_DEBUG=4) or the user's own pattern for the category ("vkcompute:6") asks
// for more.
void RaiseCategoryThreshold(const char* name) {
  const GstDebugLevel level =
      std::max({gst_debug_get_default_threshold(), UserLevelFor(name), GST_LEVEL_WARNING});
  gst_debug_set_threshold_for_name(name, level);
}

// GStreamer's instance reports what the layers say through kGstVulkanCategory, counted above,
// only if that category's threshold is raised before the instance is created (Init() does it before
// anything can create one). Its g_critical and g_warning of the same text would each fail the test
// at once (gst-check's handler of that domain), tolerated messages included: gst-check discards
// those of the report's form, and only those.
void CountGstVulkanReports() {
  RaiseCategoryThreshold(kGstVulkanCategory);
  gst_check_add_log_filter(
      kGstVulkanLogDomain, GLogLevelFlags(G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING),
      g_regex_new(kGstVulkanReportPattern, GRegexCompileFlags(0), GRegexMatchFlags(0), nullptr), nullptr,
      nullptr, nullptr);
}

std::string JoinErrors(const std::vector<std::string>& errors) {
  std::string text;
  for (const std::string& error : errors) text += "\n  " + error;
  return text;
}

// Catches errors logged after the last teardown (e.g. while the element's Vulkan objects are
// destroyed at exit). With check's fork mode this runs in the test's child process, whose
// non-zero exit status check reports as a failure of that test.
void FailAtExitOnValidationErrors() {
  std::vector<std::string> errors = TakeValidationErrors();
  if (errors.empty()) return;
  std::fprintf(stderr, "%zu Vulkan validation error(s) logged after the last check:%s\n", errors.size(),
               JoinErrors(errors).c_str());
  std::fflush(stderr);
  _exit(EXIT_FAILURE);
}

}  // namespace

void Init(int* argc, char*** argv) {
  g_validation_enabled = g_getenv(kNoValidationEnv) == nullptr;
  if (g_validation_enabled) {
    if (!ValidationLayerInstalled()) {
      std::fprintf(stderr,
                   "%s is not installed (install vulkan-validationlayers), or set %s=1 to run "
                   "without validation.\n",
                   kValidationLayer, kNoValidationEnv);
      std::exit(EXIT_FAILURE);
    }
    EnableValidationLayer();
    EnableSynchronizationValidation();
  }

  gst_check_init(argc, argv);

  gst_debug_add_log_function(CountValidationErrors, nullptr, nullptr);
  if (const char* user = g_getenv("GST_DEBUG")) gst_debug_set_threshold_from_string(user, FALSE);
  RaiseCategoryThreshold(kCategoryName);
  if (g_validation_enabled) CountGstVulkanReports();
  std::atexit(FailAtExitOnValidationErrors);
}

bool ValidationEnabled() {
  return g_validation_enabled;
}

std::vector<std::string> TakeValidationErrors() {
  std::lock_guard<std::mutex> lock(ErrorsMutex());
  std::vector<std::string> taken;
  taken.swap(Errors());
  return taken;
}

std::string SummarizeValidationErrors(const std::vector<std::string>& errors) {
  constexpr size_t kShown = 3, kLength = 800;
  std::string text;
  for (size_t i = 0; i < std::min(errors.size(), kShown); ++i)
    text += "\n  " + (errors[i].size() > kLength ? errors[i].substr(0, kLength) + " [...]" : errors[i]);
  if (errors.size() > kShown)
    text += "\n  (" + std::to_string(errors.size() - kShown) + " more, in full in the test's output)";
  return text;
}

void AssertNoValidationErrors(const std::string& context) {
  std::vector<std::string> errors = TakeValidationErrors();
  if (errors.empty()) return;
  std::fprintf(stderr, "%s%s%zu Vulkan validation error(s):%s\n", context.c_str(),
               context.empty() ? "" : ": ", errors.size(), JoinErrors(errors).c_str());
  std::fflush(stderr);
  fail("%s%s%zu Vulkan validation error(s):%s", context.c_str(), context.empty() ? "" : ": ", errors.size(),
       SummarizeValidationErrors(errors).c_str());
}

void AssertNoValidationErrorsBut(std::initializer_list<const char*> vuids, const char* reason,
                                 const std::string& context) {
  std::vector<std::string> errors = TakeValidationErrors();
  const std::string gst_prefix = "GStreamer's Vulkan instance: ";
  size_t dropped = 0;
  for (auto it = errors.begin(); it != errors.end();) {
    bool known = g_str_has_prefix(it->c_str(), gst_prefix.c_str()) &&
                 it->find("that is currently in use by Vk") != std::string::npos;
    known = known && std::any_of(vuids.begin(), vuids.end(),
                                 [&](const char* vuid) { return it->find(vuid) != std::string::npos; });
    if (known) {
      it = errors.erase(it);
      ++dropped;
    } else {
      ++it;
    }
  }
  if (dropped > 0) std::printf("%zu message(s) of GStreamer's instance not counted: %s\n", dropped, reason);
  {
    std::lock_guard<std::mutex> lock(ErrorsMutex());
    Errors().insert(Errors().begin(), errors.begin(), errors.end());
  }
  AssertNoValidationErrors(context);
}

void Setup() {
  TakeValidationErrors();
}

void Teardown() {
  AssertNoValidationErrors();
}

TCase* NewTCase(const char* name, double timeout_seconds) {
  TCase* tcase = tcase_create(name);
  tcase_add_checked_fixture(tcase, Setup, Teardown);
  tcase_set_timeout(tcase, timeout_seconds);
  return tcase;
}

std::vector<VkPhysicalDeviceProperties> PhysicalDeviceProperties() {
  VkApplicationInfo app_info = {};
  app_info.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app_info.pApplicationName = "gst-vkcompute tests";
  // The plugin's instance asks for Vulkan 1.1, and the loader sorts the devices (by kind) only for
  // an instance of 1.1 or newer: with 1.0 the order, and so the indices, could differ.
  app_info.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo create_info = {};
  create_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  create_info.pApplicationInfo = &app_info;

  VkInstance instance = VK_NULL_HANDLE;
  if (vkCreateInstance(&create_info, nullptr, &instance) != VK_SUCCESS) return {};

  uint32_t count = 0;
  std::vector<VkPhysicalDeviceProperties> all;
  if (vkEnumeratePhysicalDevices(instance, &count, nullptr) == VK_SUCCESS && count > 0) {
    std::vector<VkPhysicalDevice> devices(count);
    if (vkEnumeratePhysicalDevices(instance, &count, devices.data()) >= VK_SUCCESS) {
      for (uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(devices[i], &properties);
        all.push_back(properties);
      }
    }
  }
  vkDestroyInstance(instance, nullptr);
  return all;
}

std::vector<std::string> PhysicalDeviceNames() {
  std::vector<std::string> names;
  for (const VkPhysicalDeviceProperties& properties : PhysicalDeviceProperties())
    names.emplace_back(properties.deviceName);
  return names;
}

std::string LavapipeManifest() {
  for (const gchar* const* dir = g_get_system_data_dirs(); *dir != nullptr; ++dir) {
    gchar* icd_dir = g_build_filename(*dir, "vulkan", "icd.d", nullptr);
    GDir* listing = g_dir_open(icd_dir, 0, nullptr);
    std::string found;
    for (const gchar* name;
         listing != nullptr && found.empty() && (name = g_dir_read_name(listing)) != nullptr;)
      if (g_str_has_prefix(name, "lvp_icd") && g_str_has_suffix(name, ".json"))
        found = std::string(icd_dir) + G_DIR_SEPARATOR_S + name;
    if (listing != nullptr) g_dir_close(listing);
    g_free(icd_dir);
    if (!found.empty()) return found;
  }
  return "";
}

void ListLavapipeTwice(const char* test) {
  const std::string lavapipe = LavapipeManifest();
  if (lavapipe.empty()) return;  // the tests then fail on the devices they lack
  gchar* contents = nullptr;
  gsize length = 0;
  const std::string copy = std::string("vkcompute-") + test + "-second-lvp.json";
  gchar* second = g_build_filename(g_get_tmp_dir(), copy.c_str(), nullptr);
  if (g_file_get_contents(lavapipe.c_str(), &contents, &length, nullptr) &&
      g_file_set_contents(second, contents, gssize(length), nullptr)) {
    const std::string both = lavapipe + ":" + second;
    g_setenv("VK_DRIVER_FILES", both.c_str(), TRUE);
    g_setenv("VK_ICD_FILENAMES", both.c_str(), TRUE);
  }
  g_free(contents);
  g_free(second);
}

void RequirePhysicalDevice() {
  // Once per process is enough (check forks a process per test), and creating an instance
  // under validation costs a noticeable fraction of a second on lavapipe.
  static bool found = false;
  if (found) return;
  found = !PhysicalDeviceNames().empty();
  fail_unless(found,
              "No Vulkan physical device: install a driver (e.g. mesa-vulkan-drivers for lavapipe); "
              "the element cannot be tested without one.");
}

}  // namespace vktest
