// What the tests of gst/gstvk share: GStreamer's Vulkan library, loaded (a test fails without it:
// the suite's machines have it), and the release it is of.
#pragma once

#include <string>

#include "common/runtime_test.h"
#include "gstvk/library.hpp"

namespace gstvk_test {

inline const vkc::gstvk::GstVulkanLibrary& Library() {
  std::string why;
  const vkc::gstvk::GstVulkanLibrary* library = vkc::gstvk::gst_vulkan_library(why);
  fail_unless(library != nullptr, "GStreamer's Vulkan library: %s", why.c_str());
  return *library;
}

// GStreamer's minor version: its Vulkan library is of the same release.
inline guint GstMinor() {
  guint major, minor, micro, nano;
  gst_version(&major, &minor, &micro, &nano);
  return minor;
}

}  // namespace gstvk_test
