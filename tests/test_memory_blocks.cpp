// vkc::MemoryBlocks on a real device (lavapipe): when a buffer is worth moving to a fuller block.
// A fuller block with enough free bytes, but only in pieces too small for the buffer at its
// alignment, has no room for it: made again, the buffer would land where it was, and be moved
// again and again (docs/benchmarks.md: a chain across two GPUs spent twice the CPU that way).
#include <string>
#include <vector>

#include "vk/device.hpp"
#include "vk/memory_blocks.hpp"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

#include "common/vktest.h"

// The runtime's category (gst/vk/device.cpp), which the plugin's init makes: here the runtime is
// linked without the plugin.
GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_runtime_debug);

namespace {

constexpr vk::DeviceSize kMiB = 1 << 20;

// A memory type of the device that buffers may use (the first one).
uint32_t any_memory_type(const vkc::Device& device) {
  fail_unless(device.memory_properties().memoryTypeCount > 0, "the device lists no memory type");
  return 0;
}

}  // namespace

GST_START_TEST(test_no_move_into_free_bytes_in_pieces) {
  vktest::RequirePhysicalDevice();
  std::string error;
  auto device = vkc::Device::acquire(-1, error);
  fail_unless(device != nullptr, "no device: %s", error.c_str());
  const uint32_t type = any_memory_type(*device);
  vkc::MemoryBlocks blocks(*device);  // blocks of its own: nothing else allocates in them
  // A block filled with 16 ranges of 4 MiB, then a 6 MiB range, which opens a second block.
  std::vector<vkc::BlockRange> full;
  for (int i = 0; i < 16; ++i) full.push_back(blocks.allocate(type, 4 * kMiB, kMiB, false));
  const vkc::BlockRange sparse = blocks.allocate(type, 6 * kMiB, kMiB, false);
  fail_unless(sparse.memory != full.front().memory, "the 6 MiB range went into the full block");
  for (const vkc::BlockRange& r : full)
    fail_unless(r.memory == full.front().memory, "the 16 ranges of 4 MiB did not share one block");
  // Two gaps of 4 MiB: 8 MiB free in the fuller block, but no 6 MiB in one piece.
  blocks.free(full[1]);
  blocks.free(full[3]);
  fail_if(blocks.worth_moving(sparse), "a move into free bytes in pieces was found worth making");
  // Joined into 12 MiB in one piece: now there is room.
  blocks.free(full[2]);
  fail_unless(blocks.worth_moving(sparse), "a move into a fuller block with room was not found worth making");
  // Made again, the range goes there.
  blocks.free(sparse);
  const vkc::BlockRange moved = blocks.allocate(type, 6 * kMiB, kMiB, false);
  fail_unless(moved.memory == full.front().memory, "the range made again did not go to the fuller block");
  blocks.free(moved);
  for (size_t i = 0; i < full.size(); ++i)
    if (i < 1 || i > 3) blocks.free(full[i]);
}
GST_END_TEST;

static Suite* memory_blocks_suite() {
  Suite* suite = suite_create("memory_blocks");
  TCase* tc = tcase_create("memory_blocks");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_no_move_into_free_bytes_in_pieces);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  g_unsetenv("GST_VKCOMPUTE_MEMORY_BLOCKS");  // every buffer in blocks, whatever the caller's setting
  GST_DEBUG_CATEGORY_INIT(gst_vkcompute_runtime_debug, "vkcompute", 0, "vkcompute Vulkan runtime");
  return gst_check_run_suite(memory_blocks_suite(), "memory_blocks", __FILE__);
}
