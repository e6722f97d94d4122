// For tests of the Vulkan runtime (gst/vk) linked without the plugin (test_external,
// test_cuda_bridge, test_command_reuse): the device they test on, and their main().
#pragma once

#include <memory>
#include <string>

#include "vk/device.hpp"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

#include "common/vktest.h"

// The runtime's category (gst/vk/device.cpp), which the plugin's init makes: here the runtime is
// linked without the plugin.
GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_runtime_debug);

namespace vktest {

// The device the runtime picks, as elements do (-1); the test fails without one.
inline std::shared_ptr<vkc::Device> AnyDevice() {
  RequirePhysicalDevice();
  std::string error;
  auto device = vkc::Device::acquire(-1, error);
  fail_unless(device != nullptr, "no device: %s", error.c_str());
  return device;
}

// main() of such a test: Init() with the runtime's category made, then `suite` run.
inline int RunRuntimeSuite(int* argc, char*** argv, Suite* suite, const char* name, const char* file) {
  Init(argc, argv);
  GST_DEBUG_CATEGORY_INIT(gst_vkcompute_runtime_debug, "vkcompute", 0, "vkcompute Vulkan runtime");
  return gst_check_run_suite(suite, name, file);
}

}  // namespace vktest
