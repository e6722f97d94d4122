// What the plugin's runtime says in its log (the "vkcompute" debug category) about the memory and
// kernels of its devices: each buffer it allocates or frees, with what the device then holds, and each kernel
// it compiles. The bench reads it as any application could, without the plugin's internals.
#pragma once

#include <cstdint>

namespace bench {

struct RuntimeHeld {
  uint64_t device_local = 0;  // bytes the device's buffers hold, after the last allocation or free
  uint64_t host_visible = 0;
  // Bytes of Vulkan memory they are placed in (what the driver holds), device-local and host-visible.
  uint64_t allocated_device_local = 0;
  uint64_t allocated_host_visible = 0;
  int allocations = 0;
  int frees = 0;
  int kernels_compiled = 0;
};

// Raises the category's threshold to DEBUG and starts reading it (once per process).
void read_runtime_log();
// What the log said so far.
RuntimeHeld runtime_held();

}  // namespace bench
