// Single include point for Vulkan-Hpp so every file sees the same configuration.
#pragma once

#include <vulkan/vulkan_raii.hpp>
