// --generated-launch: does a launch wait behind the bus when its commands live in device memory?
// One workgroup recorded directly against the same dispatch from device-generated commands
// (VK_NV_device_generated_commands_compute, NVIDIA), generated at execution or preprocessed once
// into a device-local buffer, with the bus quiet and busy (docs/benchmarks.md: kernels in a chain
// wait 10-15 µs per launch behind its copies).
#pragma once

namespace bench {

// Prints the times; says so and returns true when the device does not offer the extensions.
bool print_generated_launches();

}  // namespace bench
