// Vulkan-aware setup shared by every test executable of the project.
//
// The element logs each message of its Vulkan messenger through the "vkcompute" debug category,
// errors and warnings at GST_LEVEL_ERROR and GST_LEVEL_WARNING, prefixed "Vulkan validation:"
// (the validation layer's checks), "Vulkan:" (the layers' general and performance messages) or
// "Vulkan loader:" (the loader's own, not counted), each with its message ID in brackets. These helpers
// turn the validation layer on, count them all (called errors below) but the few that vktest.cpp names by
// ID and text (kToleratedMessages: the layer's words on its own set-up), and make the running test fail
// when any was seen, so that API misuse is caught even when the converted pixels happen to be right.
// The messages of GStreamer's own Vulkan instance (the stock elements', and any of ours that share
// it) count the same way: they arrive in the "vulkandebug" category (vktest.cpp says how).
#pragma once

#include <vulkan/vulkan.h>

#include <gst/check/gstcheck.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace vktest {

// Name of the environment variable that disables the validation layer (for profiling or for
// machines without it). Validation errors are then not counted either.
inline constexpr const char kNoValidationEnv[] = "GST_VKCOMPUTE_TEST_NO_VALIDATION";

// Replaces gst_check_init() in main(): enables VK_LAYER_KHRONOS_validation (exits with a
// message when it is not installed), initialises gst-check and starts counting validation errors.
void Init(int* argc, char*** argv);

// True unless kNoValidationEnv is set.
bool ValidationEnabled();

// Validation errors logged since the last call, oldest first; the list is cleared.
std::vector<std::string> TakeValidationErrors();

// Fails the running test when any validation error was logged, the first ones in the failure
// message and all of them on stderr; `context` (e.g. "round 3") starts the failure message.
void AssertNoValidationErrors(const std::string& context = "");
// The same, but first drops the messages of GStreamer's Vulkan instance that say an object was
// destroyed while a command buffer or a queue still used it ("that is currently in use by") under one of
// `vuids`: a defect of GStreamer's own elements that a test case cannot avoid, named by the case
// with `reason` (printed with how many were dropped). Any other message still fails the test.
void AssertNoValidationErrorsBut(std::initializer_list<const char*> vuids, const char* reason,
                                 const std::string& context = "");
// What a failure message holds of `errors`: the first ones, each cut short, and how many more there
// are (check refuses a message of more than 8 KB and reports the test as an early exit with no
// text). AssertNoValidationErrors() prints every error in full on stderr.
std::string SummarizeValidationErrors(const std::vector<std::string>& errors);

// Checked fixture (tcase_add_checked_fixture) for tests that drive the element: forgets errors
// left by earlier code and fails the test at teardown when validation errors were logged.
void Setup();
void Teardown();

// A test case with the fixture above and a timeout (check's default of a few seconds is far too
// short for a software Vulkan driver under validation).
TCase* NewTCase(const char* name, double timeout_seconds);

// The properties of the physical devices the Vulkan loader exposes, in enumeration order (the
// order the element's "device" index refers to), and their names. Empty when there is no driver.
std::vector<VkPhysicalDeviceProperties> PhysicalDeviceProperties();
std::vector<std::string> PhysicalDeviceNames();

// The manifest of Mesa's lavapipe in the system's data directories (vulkan/icd.d/lvp_icd*.json),
// or "" when it is not installed. Tests that need lavapipe, alone or beside another driver, name
// it in VK_DRIVER_FILES.
std::string LavapipeManifest();

// Names lavapipe twice to the Vulkan loader (VK_DRIVER_FILES, from the next instance on): two
// devices, for chains across devices and the spread of the automatic choice. Call from main(),
// before Init(); `test` names the manifest's copy in the temporary directory.
void ListLavapipeTwice(const char* test);

// Fails (not skips) the running test when no Vulkan physical device exists: the suite must not
// pass vacuously on a machine where the element cannot run.
void RequirePhysicalDevice();

}  // namespace vktest
