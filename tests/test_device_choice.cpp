// The device choice and its errors, against made-up devices: meson points the Vulkan loader at the
// fake driver of fake_icd/fake_icd.cpp only, and each test says which devices it lists through
// VKCOMPUTE_FAKE_ICD_DEVICES (read by the driver whenever an instance is created). Every fake
// device fails vkCreateDevice; the errors must name each device found and why it cannot be used
// (Vulkan 1.0, no compute queue, could not be opened), for the automatic choice and for a forced
// device index, and the element must return to NULL cleanly. With Mesa's lavapipe listed beside a
// broken device, the automatic choice passes over the broken one.
#include <gst/check/gstcheck.h>

#include <string>
#include <vector>

#include "common/bus_wait.h"
#include "common/vktest.h"

namespace {

constexpr char kDevicesEnv[] = "VKCOMPUTE_FAKE_ICD_DEVICES";
constexpr char kEnumerateEnv[] = "VKCOMPUTE_FAKE_ICD_ENUMERATE";

// A filter and an analysis element: both start through GstVkComputeFilter.
const char* const kElements[] = {"rgb2yuv", "lumamax"};

// The fake driver's devices from the next Vulkan instance on ("VERSION[-FLAG...]:NAME,...").
void UseFakeDevices(const char* list) {
  g_setenv(kDevicesEnv, list, TRUE);
  g_unsetenv(kEnumerateEnv);
}

// The index of the device called `name` in the loader's order, which the element's "device"
// property and its messages use (the loader sorts devices by kind: not the driver's order).
int IndexOf(const std::string& name) {
  const std::vector<std::string> names = vktest::PhysicalDeviceNames();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return int(i);
  ck_abort_msg(
      "the Vulkan loader lists no device \"%s\" (%zu devices): is VK_DRIVER_FILES the fake driver's?",
      name.c_str(), names.size());
  return -1;
}

// "Vulkan device N (NAME) REASON", as the element names a device and why it was passed over.
std::string Clause(const std::string& name, const std::string& reason) {
  return "Vulkan device " + std::to_string(IndexOf(name)) + " (" + name + ") " + reason;
}

constexpr char kTooOld[] = "supports Vulkan 1.0; 1.2 or newer is needed";
constexpr char kNoCompute[] = "has no compute queue";
// Followed by Vulkan-Hpp's text for the VkResult of vkCreateDevice.
constexpr char kNotOpened[] = "could not be opened: ";
constexpr char kCreateResult[] = "InitializationFailed";

void ExpectContains(const std::string& text, const std::string& part) {
  fail_unless(text.find(part) != std::string::npos, "the error\n  %s\ndoes not say\n  %s", text.c_str(),
              part.c_str());
}

// The device `name` could not be opened, and the error says so with vkCreateDevice's result.
void ExpectNotOpened(const std::string& text, const std::string& name) {
  const std::string clause = Clause(name, kNotOpened);
  ExpectContains(text, clause);
  const size_t start = text.find(clause) + clause.size();
  const std::string rest = text.substr(start, text.find(';', start) - start);
  fail_unless(rest.find(kCreateResult) != std::string::npos,
              "the error\n  %s\ndoes not give vkCreateDevice's result for %s", text.c_str(), name.c_str());
}

// Sets a new `factory` element with device property `device` to PAUSED: the state change must
// fail, posting one RESOURCE NOT_FOUND error; the element must then go back to NULL. Returns the
// error's text.
std::string StartError(const char* factory, int device) {
  GstElement* element = gst_element_factory_make(factory, nullptr);
  fail_unless(element != nullptr, "%s is not registered (GST_PLUGIN_PATH?)", factory);
  g_object_set(element, "device", device, nullptr);
  GstBus* bus = gst_bus_new();
  gst_element_set_bus(element, bus);
  fail_unless(gst_element_set_state(element, GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE,
              "%s (device=%d) reached PAUSED on devices that cannot run it", factory, device);

  GstMessage* message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  fail_unless(message != nullptr, "%s (device=%d) posted no ERROR message", factory, device);
  GError* error = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_error(message, &error, &debug);
  fail_unless(error->domain == GST_RESOURCE_ERROR && error->code == GST_RESOURCE_ERROR_NOT_FOUND,
              "%s (device=%d): %s error %d: %s", factory, device, g_quark_to_string(error->domain),
              error->code, error->message);
  const std::string text = error->message;
  g_error_free(error);
  g_free(debug);
  gst_message_unref(message);
  GST_INFO("%s, device=%d: %s", factory, device, text.c_str());

  fail_unless(gst_element_set_state(element, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS,
              "%s did not go back to NULL", factory);
  gst_element_set_bus(element, nullptr);
  gst_object_unref(bus);
  gst_object_unref(element);
  return text;
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

// The automatic choice on devices of which none can run the kernels: each one is named with its
// reason, the kind tried first (discrete) first.
GST_START_TEST(test_automatic_choice_names_every_device) {
  UseFakeDevices("1.0:Old GPU,1.2-nocompute:Graphics only,1.2-discrete:Broken GPU");
  for (const char* factory : kElements) {
    const std::string text = StartError(factory, -1);
    fail_unless(
        StartsWith(text, "No usable Vulkan device: none of the 3 Vulkan devices found can run the kernels: "),
        "%s: %s", factory, text.c_str());
    ExpectContains(text, Clause("Old GPU", kTooOld));
    ExpectContains(text, Clause("Graphics only", kNoCompute));
    ExpectNotOpened(text, "Broken GPU");
    fail_unless(text.find("Broken GPU") < text.find("Old GPU") &&
                    text.find("Broken GPU") < text.find("Graphics only"),
                "the discrete GPU was not tried first: %s", text.c_str());
  }
}
GST_END_TEST;

// Other sets: devices that all fail the checks (no open attempted), several that all fail to
// open, a lone device.
GST_START_TEST(test_automatic_choice_other_device_sets) {
  UseFakeDevices("1.0-discrete:Old GPU,1.0-cpu:Old CPU,1.2-virtual-nocompute:Virtual GPU");
  for (const char* factory : kElements) {
    const std::string text = StartError(factory, -1);
    ExpectContains(text, "none of the 3 Vulkan devices found can run the kernels: ");
    ExpectContains(text, Clause("Old GPU", kTooOld));
    ExpectContains(text, Clause("Old CPU", kTooOld));
    ExpectContains(text, Clause("Virtual GPU", kNoCompute));
    fail_unless(text.find(kNotOpened) == std::string::npos, "no device was to be opened: %s", text.c_str());
  }

  UseFakeDevices("1.2-cpu:Broken CPU,1.3-integrated:Broken iGPU");
  for (const char* factory : kElements) {
    const std::string text = StartError(factory, -1);
    ExpectContains(text, "none of the 2 Vulkan devices found can run the kernels: ");
    ExpectNotOpened(text, "Broken CPU");
    ExpectNotOpened(text, "Broken iGPU");
  }

  UseFakeDevices("1.2-nocompute:Graphics only");
  for (const char* factory : kElements) {
    const std::string text = StartError(factory, -1);
    ExpectContains(text, Clause("Graphics only", kNoCompute));
  }
}
GST_END_TEST;

// A forced device (the "device" property, or GST_VKCOMPUTE_DEVICE) names that device's reason
// only; an index past the last device says how many there are.
GST_START_TEST(test_forced_device_names_its_reason) {
  UseFakeDevices("1.0:Old GPU,1.2-nocompute:Graphics only,1.2-discrete:Broken GPU");
  for (const char* factory : kElements) {
    std::string text = StartError(factory, IndexOf("Old GPU"));
    fail_unless(text == "No usable Vulkan device: " + Clause("Old GPU", kTooOld) + ".", "%s", text.c_str());
    text = StartError(factory, IndexOf("Graphics only"));
    fail_unless(text == "No usable Vulkan device: " + Clause("Graphics only", kNoCompute) + ".", "%s",
                text.c_str());
    text = StartError(factory, IndexOf("Broken GPU"));
    fail_unless(StartsWith(text, "No usable Vulkan device: " + Clause("Broken GPU", kNotOpened)), "%s",
                text.c_str());
    ExpectNotOpened(text, "Broken GPU");
    text = StartError(factory, 3);
    fail_unless(
        text == "No usable Vulkan device: Vulkan device 3 does not exist: this system has 3 (indices 0..2).",
        "%s", text.c_str());
  }

  const std::string index = std::to_string(IndexOf("Broken GPU"));
  g_setenv("GST_VKCOMPUTE_DEVICE", index.c_str(), TRUE);
  const std::string text = StartError("rgb2yuv", -1);
  g_unsetenv("GST_VKCOMPUTE_DEVICE");
  fail_unless(StartsWith(text, "No usable Vulkan device: " + Clause("Broken GPU", kNotOpened)), "%s",
              text.c_str());
}
GST_END_TEST;

// A driver whose vkEnumeratePhysicalDevices fails: the loader passes the failure on, and the error
// says the devices could not be listed (not that some device could not be opened).
GST_START_TEST(test_failed_listing) {
  UseFakeDevices("1.2-discrete:Broken GPU");
  g_setenv(kEnumerateEnv, "fail", TRUE);
  for (const char* factory : kElements) {
    const std::string text = StartError(factory, -1);
    fail_unless(StartsWith(text, "No usable Vulkan device: the Vulkan loader could not list the devices ("),
                "%s", text.c_str());
    ExpectContains(text, kCreateResult);
    ExpectContains(text, "); a driver failed to start.");
  }
}
GST_END_TEST;

// A broken discrete GPU listed before lavapipe (a CPU device): the automatic choice passes over
// the GPU that fails to open and runs on lavapipe, and its warning that the device is a CPU says
// which devices were passed over and why.
GST_START_TEST(test_automatic_choice_passes_over_a_broken_device) {
  const std::string lavapipe = vktest::LavapipeManifest();
  fail_unless(!lavapipe.empty(), "Mesa's lavapipe (mesa-vulkan-drivers) is not installed");
  const std::string drivers = std::string(g_getenv("VK_DRIVER_FILES")) + ":" + lavapipe;
  g_setenv("VK_DRIVER_FILES", drivers.c_str(), TRUE);
  g_setenv("VK_ICD_FILENAMES", drivers.c_str(), TRUE);
  UseFakeDevices("1.0:Old GPU,1.2-discrete:Broken GPU");
  const std::vector<std::string> names = vktest::PhysicalDeviceNames();
  fail_unless(names.size() == 3, "the loader lists %zu devices, not the fake driver's 2 and lavapipe",
              names.size());

  for (const char* factory : kElements) {
    GstElement* element = gst_element_factory_make(factory, nullptr);
    GstBus* bus = gst_bus_new();
    gst_element_set_bus(element, bus);
    fail_unless(gst_element_set_state(element, GST_STATE_PAUSED) == GST_STATE_CHANGE_SUCCESS,
                "%s did not start on lavapipe beside a broken GPU", factory);
    gchar* device_name = nullptr;
    g_object_get(element, "device-name", &device_name, nullptr);
    fail_unless(device_name != nullptr && g_str_has_prefix(device_name, "llvmpipe"), "%s runs on %s", factory,
                device_name != nullptr ? device_name : "(none)");
    g_free(device_name);
    // Popping one type drops the others from the bus: errors and warnings together.
    GstMessage* warning =
        gst_bus_pop_filtered(bus, static_cast<GstMessageType>(GST_MESSAGE_ERROR | GST_MESSAGE_WARNING));
    fail_unless(warning != nullptr, "%s did not warn of the CPU device", factory);
    fail_unless(GST_MESSAGE_TYPE(warning) == GST_MESSAGE_WARNING, "%s posted an error", factory);
    GError* text = nullptr;
    gchar* debug = nullptr;
    gst_message_parse_warning(warning, &text, &debug);
    const std::string message = text->message, details = debug != nullptr ? debug : "";
    g_error_free(text);
    g_free(debug);
    fail_unless(vktest::IsCpuDeviceWarning(warning), "%s warned: %s", factory, message.c_str());
    gst_message_unref(warning);
    ExpectContains(details, "The automatic choice passed over: ");
    ExpectNotOpened(details, "Broken GPU");
    ExpectContains(details, Clause("Old GPU", kTooOld));
    fail_unless(gst_element_set_state(element, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
    gst_element_set_bus(element, nullptr);
    gst_object_unref(bus);
    gst_object_unref(element);
  }
}
GST_END_TEST;

static Suite* device_choice_suite() {
  Suite* suite = suite_create("device_choice");
  TCase* tcase = vktest::NewTCase("device_choice", 120);
  suite_add_tcase(suite, tcase);
  tcase_add_test(tcase, test_automatic_choice_names_every_device);
  tcase_add_test(tcase, test_automatic_choice_other_device_sets);
  tcase_add_test(tcase, test_forced_device_names_its_reason);
  tcase_add_test(tcase, test_failed_listing);
  tcase_add_test(tcase, test_automatic_choice_passes_over_a_broken_device);
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(device_choice_suite(), "device_choice", __FILE__);
}
