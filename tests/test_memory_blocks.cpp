// vkc::MemoryBlocks on a real device (lavapipe): when a buffer is worth moving to a fuller block.
// A fuller block with enough free bytes, but only in pieces too small for the buffer at its
// alignment, has no room for it: made again, the buffer would land where it was, and be moved
// again and again (docs/benchmarks.md: a chain across two GPUs spent twice the CPU that way).
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "vk/device.hpp"
#include "vk/memory.hpp"
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

// What the driver holds for the device in memory of `type`'s kind (device-local or host-visible).
const std::atomic<uint64_t>& driver_holds(const vkc::Device& device, uint32_t type) {
  const bool device_local = bool(device.memory_properties().memoryTypes[type].propertyFlags &
                                 vk::MemoryPropertyFlagBits::eDeviceLocal);
  return device_local ? device.memory_held().allocated_device_local
                      : device.memory_held().allocated_host_visible;
}

// A device (lavapipe) with blocks of the test's own, in which nothing else allocates, of its first
// memory type, and what the driver held of that type's kind before.
struct OwnBlocks {
  std::shared_ptr<vkc::Device> device = acquire();
  const uint32_t type = any_memory_type(*device);
  vkc::MemoryBlocks blocks{*device};
  const std::atomic<uint64_t>& held = driver_holds(*device, type);
  const uint64_t before = held;

  static std::shared_ptr<vkc::Device> acquire() {
    vktest::RequirePhysicalDevice();
    std::string error;
    auto device = vkc::Device::acquire(-1, error);
    fail_unless(device != nullptr, "no device: %s", error.c_str());
    return device;
  }
  // What the driver holds now beyond what it held before.
  uint64_t added() const { return held - before; }
};

}  // namespace

GST_START_TEST(test_no_move_into_free_bytes_in_pieces) {
  OwnBlocks own;
  vkc::MemoryBlocks& blocks = own.blocks;
  const uint32_t type = own.type;
  // A block filled with 16 ranges of a sixteenth of it, then a range of one and a half sixteenths,
  // which opens a second block.
  constexpr vk::DeviceSize kPiece = vkc::MemoryBlocks::kBlockBytes / 16;
  constexpr vk::DeviceSize kLarger = kPiece * 3 / 2;
  std::vector<vkc::BlockRange> full;
  for (int i = 0; i < 16; ++i) full.push_back(blocks.allocate(type, kPiece, kMiB, false));
  const vkc::BlockRange sparse = blocks.allocate(type, kLarger, kMiB, false);
  fail_unless(sparse.memory != full.front().memory, "the larger range went into the full block");
  for (const vkc::BlockRange& r : full)
    fail_unless(r.memory == full.front().memory, "the 16 ranges did not share one block");
  // Two gaps of a piece: two pieces free in the fuller block, but not the larger range in one piece.
  blocks.free(full[1]);
  blocks.free(full[3]);
  fail_if(blocks.worth_moving(sparse), "a move into free bytes in pieces was found worth making");
  // Joined into three pieces in one: now there is room.
  blocks.free(full[2]);
  fail_unless(blocks.worth_moving(sparse), "a move into a fuller block with room was not found worth making");
  // Made again, the range goes there.
  blocks.free(sparse);
  const vkc::BlockRange moved = blocks.allocate(type, kLarger, kMiB, false);
  fail_unless(moved.memory == full.front().memory, "the range made again did not go to the fuller block");
  blocks.free(moved);
  for (size_t i = 0; i < full.size(); ++i)
    if (i < 1 || i > 3) blocks.free(full[i]);
}
GST_END_TEST;

// Buffers of up to half a block share blocks (two of them fill one: a 4K NV12 frame shares, as it
// did in the larger blocks before); a larger one gets memory of its own, freed at once.
GST_START_TEST(test_half_a_block_shares_and_more_stands_alone) {
  OwnBlocks own;
  vkc::MemoryBlocks& blocks = own.blocks;
  const uint32_t type = own.type;
  constexpr vk::DeviceSize kBlock = vkc::MemoryBlocks::kBlockBytes;
  constexpr vk::DeviceSize kHalf = vkc::MemoryBlocks::kSharedBytes;
  fail_unless_equals_uint64(kHalf, kBlock / 2);
  const vkc::BlockRange first = blocks.allocate(type, kHalf, kMiB, false);
  const vkc::BlockRange second = blocks.allocate(type, kHalf, kMiB, false);
  fail_unless(first.memory == second.memory, "two ranges of half a block did not share one");
  fail_unless_equals_uint64(own.added(), kBlock);
  const vkc::BlockRange alone = blocks.allocate(type, kHalf + kMiB, kMiB, false);
  fail_unless(alone.memory != first.memory, "a range of more than half a block went into a block");
  fail_unless_equals_uint64(own.added(), kBlock + kHalf + kMiB);
  fail_if(blocks.free(alone), "memory of its own asked for a drain");
  fail_unless_equals_uint64(own.added(), kBlock);
  blocks.free(first);
  blocks.free(second);
}
GST_END_TEST;

// Empty blocks go back to the driver one at a time, kDriverFreeGapUs apart, one staying spare: the
// driver holds the GPU's work while it frees, and a burst of frees held every stream's frames at
// once (runs 149-152). The times are given, not waited for.
GST_START_TEST(test_empty_blocks_go_back_one_at_a_time) {
  OwnBlocks own;
  vkc::MemoryBlocks& blocks = own.blocks;
  const uint32_t type = own.type;
  constexpr vk::DeviceSize kBlock = vkc::MemoryBlocks::kBlockBytes;
  // Four blocks, each filled by four ranges of a quarter block.
  std::vector<vkc::BlockRange> ranges;
  for (int i = 0; i < 16; ++i) ranges.push_back(blocks.allocate(type, kBlock / 4, kMiB, false));
  fail_unless_equals_uint64(own.added(), 4 * kBlock);
  // All given back: every block stays, and one free asks for a drain.
  int asked = 0;
  for (const vkc::BlockRange& r : ranges) asked += blocks.free(r);
  fail_unless_equals_int(asked, 1);
  fail_unless_equals_uint64(own.added(), 4 * kBlock);
  // The drains free one block each, a gap apart, until only the spare is left.
  constexpr int64_t kGap = vkc::MemoryBlocks::kDriverFreeGapUs;
  const int64_t t0 = g_get_monotonic_time();
  fail_unless(blocks.drain(t0), "the first drain found no more blocks to free");
  fail_unless_equals_uint64(own.added(), 3 * kBlock);
  fail_unless(blocks.drain(t0 + kGap - 1), "a drain within the gap found no more blocks to free");
  fail_unless_equals_uint64(own.added(), 3 * kBlock);
  fail_unless(blocks.drain(t0 + kGap), "the second drain found no more blocks to free");
  fail_unless_equals_uint64(own.added(), 2 * kBlock);
  fail_if(blocks.drain(t0 + 2 * kGap), "the last drain found more blocks to free");
  fail_unless_equals_uint64(own.added(), kBlock);
  fail_if(blocks.drain(t0 + 3 * kGap), "the spare block was to be freed");
  fail_unless_equals_uint64(own.added(), kBlock);
  // A block beyond the full spare, emptied, is the only empty one: it stays, asking for nothing.
  // The spare emptied then is one too many, and asks for a drain.
  std::vector<vkc::BlockRange> quarters;
  for (int i = 0; i < 5; ++i) quarters.push_back(blocks.allocate(type, kBlock / 4, kMiB, false));
  fail_unless_equals_uint64(own.added(), 2 * kBlock);
  fail_if(blocks.free(quarters[4]), "a free that left one empty block asked for a drain");
  for (int i = 0; i < 3; ++i)
    fail_if(blocks.free(quarters[size_t(i)]), "a free that emptied no block asked for a drain");
  fail_unless(blocks.free(quarters[3]), "a free that left two empty blocks did not ask for a drain");
}
GST_END_TEST;

// Buffers given back: their blocks beyond the spare go back to the driver on the reaper's thread,
// with no other call (a stream that gave back its burst's frames, then runs steadily, makes and
// frees nothing more).
GST_START_TEST(test_blocks_of_freed_buffers_go_back_to_the_driver) {
  auto device = OwnBlocks::acquire();  // the device's own blocks, which buffers use
  constexpr vk::DeviceSize kBlock = vkc::MemoryBlocks::kBlockBytes;
  const vkc::MemoryHeld& held = device->memory_held();
  auto driver_holds = [&] { return held.allocated_device_local + held.allocated_host_visible; };
  // Three blocks of buffers, the first of which may go into a spare block the device already has.
  std::vector<std::unique_ptr<vkc::Buffer>> buffers;
  for (int i = 0; i < 12; ++i) buffers.push_back(vkc::Buffer::create_device(device, kBlock / 4, "test"));
  const uint64_t full = driver_holds();
  fail_unless(full >= 3 * kBlock, "12 buffers of a quarter block hold %" G_GUINT64_FORMAT " bytes", full);
  buffers.clear();
  // One block stays spare; the others go, with no other call to wake the drains.
  const gint64 give_up = g_get_monotonic_time() + 30 * G_USEC_PER_SEC;
  while (driver_holds() > full - 2 * kBlock && g_get_monotonic_time() < give_up) g_usleep(1000);
  fail_unless_equals_uint64(driver_holds(), full - 2 * kBlock);
}
GST_END_TEST;

static Suite* memory_blocks_suite() {
  Suite* suite = suite_create("memory_blocks");
  TCase* tc = tcase_create("memory_blocks");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_no_move_into_free_bytes_in_pieces);
  tcase_add_test(tc, test_half_a_block_shares_and_more_stands_alone);
  tcase_add_test(tc, test_empty_blocks_go_back_one_at_a_time);
  tcase_add_test(tc, test_blocks_of_freed_buffers_go_back_to_the_driver);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  GST_DEBUG_CATEGORY_INIT(gst_vkcompute_runtime_debug, "vkcompute", 0, "vkcompute Vulkan runtime");
  return gst_check_run_suite(memory_blocks_suite(), "memory_blocks", __FILE__);
}
