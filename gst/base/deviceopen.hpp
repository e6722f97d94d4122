// Opening an element's Vulkan device at start, with the messages a user needs: an element error
// when there is none, a warning when the automatic choice lands on a CPU implementation.
#pragma once

#include <gst/gst.h>

#include <memory>

#include "vk/device.hpp"

namespace vkc {

// The device `index` names (-1: the automatic choice, or GST_VKCOMPUTE_DEVICE), shared with the
// other elements on it; null after posting an element error on `element`.
std::shared_ptr<Device> open_device(GstElement* element, gint index);

}  // namespace vkc
