// Device memory in blocks: buffers of the same memory type share a few large vkAllocateMemory
// blocks, each buffer bound at its own offset. Allocating memory is slow in drivers (NVIDIA's pins
// host memory page by page, and its allocations and frees serialize with other streams' work:
// docs/benchmarks/history.md, "Pools start with two frames"), and a device allows a bounded number of
// allocations (maxMemoryAllocationCount, 4 096 on many GPUs). Hundreds of streams each making and
// freeing frames of a few megabytes make one allocation per 32 MiB instead of one per frame.
#pragma once

#include <glib.h>

#include <atomic>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "vk.hpp"

namespace vkc {

class Device;

// Where a buffer's memory lies: a range of one block, mapped when the block's type is host-visible.
struct BlockRange {
  vk::DeviceMemory memory;
  vk::DeviceSize offset = 0;
  vk::DeviceSize size = 0;
  uint8_t* mapped = nullptr;  // the range's first byte, or null
  uint32_t type = 0;
  vk::DeviceSize alignment = 1;  // what it was placed at: a block it moves to needs room at that
  explicit operator bool() const { return bool(memory); }
};

// Owned by the Device (Device::blocks()); thread-safe.
class MemoryBlocks {
 public:
  // Blocks are this large. NVIDIA's driver holds every stream's work while it frees one, for as long
  // as the block is large: 180 live lumamax streams giving back their start's pools (H200, run 190)
  // had a push-to-sink p99 of 4.80 ms and frames of up to 11.2 ms in 64 MiB blocks, 2.22 and 5.48 in
  // 32 MiB; 64 live chains (run 191) 1.37 and 6.21 against 1.15 and 1.94.
  static constexpr vk::DeviceSize kBlockBytes = 32ull << 20;
  // A request of up to this much goes into a block; a larger one gets memory of its own. Half a
  // block: the frames that shared the 64 MiB blocks before (a 4K NV12 frame, 12.4 MB) still share.
  static constexpr vk::DeviceSize kSharedBytes = kBlockBytes / 2;
  // A block with no more than this in use gives its frames to fuller ones (worth_moving()). At a
  // quarter (and with copies that never moved), 64 live chains at 1080p kept 77-85 MiB of
  // device-local blocks each for 27.6 MiB of frames (H200, 64 MiB blocks, docs/benchmarks.md).
  static constexpr vk::DeviceSize kSparseBytes = kBlockBytes * 3 / 4;
  // Moves a second on the device (worth_moving()), whatever the number of streams: each costs a
  // buffer made again, and a GPU that falls behind keeps blocks from filling. One a second per pool
  // without this cap, 120 live chains on the H200 fell further behind than without moves
  // (docs/benchmarks.md).
  static constexpr int64_t kMovesPerSecond = 128;
  // Empty blocks beyond the spare go back to the driver one at a time (drain()), this far apart on
  // the device: NVIDIA's driver holds the GPU's work while it frees memory, and the pools of 64 live
  // chains giving back their start's frames freed dozens of blocks in a row (every stream's frames
  // held 10-40 ms at once, 19-48 ms at most over 3 s, against 9.5-10.4 ms 200 ms apart and 9.1-10.5
  // 50 ms apart, whose p99 was 5.0 ms against 2.9: H200, runs 149-152).
  static constexpr int64_t kDriverFreeGapUs = 200'000;
  explicit MemoryBlocks(const Device& device) : device_(device) {}
  ~MemoryBlocks();
  MemoryBlocks(const MemoryBlocks&) = delete;
  MemoryBlocks& operator=(const MemoryBlocks&) = delete;

  // `size` bytes at `alignment` of memory type `type`, mapped when `map`. Throws vk::SystemError
  // (out of memory) as vkAllocateMemory does.
  BlockRange allocate(uint32_t type, vk::DeviceSize size, vk::DeviceSize alignment, bool map);
  // Gives the range back. A block of its own left empty is freed. An empty shared block stays: one
  // per memory type as a spare, the others until drain() frees them. True when the caller is to
  // have drain() called (kDriverFreeGapUs later, on a thread that may wait: vkc::release_at()),
  // which no other caller has been asked for since the last drain that returned false.
  bool free(const BlockRange& range);
  // At `now_us` (monotonic), frees an empty shared block beyond the spare, if kDriverFreeGapUs have
  // passed since the last. True when more wait: drain() is to be called again.
  bool drain(int64_t now_us = g_get_monotonic_time());
  // Whether the range sits in a shared block that is not nearly full (kSparseBytes used at most)
  // while a fuller one of its type has room for it (a free range that holds it at its alignment):
  // freed and allocated again, it would move there (allocate() tries the fullest blocks first), and
  // its block could empty. Each move goes to a fuller block, so frames gather and never move back
  // and forth. (Free bytes enough in all, but in pieces, are no room: such a frame was made again
  // where it was, and moved again at the cap, for good; a chain across two GPUs then spent twice
  // the CPU per frame, every move a new import of the frame on the other GPU.) A true answer counts as a
  // move: kMovesPerSecond at most on the device. With giving back on, pools move such frames
  // (base/bufferpool.cpp) and streams their copies (base/staging.cpp).
  bool worth_moving(const BlockRange& range);

 private:
  struct Block {
    vk::raii::DeviceMemory memory = nullptr;
    vk::DeviceSize size = 0;
    uint8_t* mapped = nullptr;
    vk::DeviceSize used = 0;
    std::map<vk::DeviceSize, vk::DeviceSize> free;  // offset -> size, coalesced
  };
  // The device's count of what the driver holds in memory of `type`'s kind.
  std::atomic<uint64_t>& allocated(uint32_t type) const;
  // The first free range of `block` that holds `size` bytes at `alignment`, or end().
  static std::map<vk::DeviceSize, vk::DeviceSize>::const_iterator fit(const Block& block, vk::DeviceSize size,
                                                                      vk::DeviceSize alignment);
  // First fit in `block`, or false.
  static bool place(Block& block, vk::DeviceSize size, vk::DeviceSize alignment, vk::DeviceSize& offset);

  // The empty shared blocks of `blocks` beyond the first.
  static size_t surplus(const std::vector<std::unique_ptr<Block>>& blocks);

  const Device& device_;
  std::mutex lock_;
  std::map<uint32_t, std::vector<std::unique_ptr<Block>>> blocks_;         // by memory type; lock_
  int64_t last_move_us_ = std::numeric_limits<int64_t>::min() / 2;         // monotonic, lock_
  int64_t last_driver_free_us_ = std::numeric_limits<int64_t>::min() / 2;  // monotonic, lock_
  bool drain_asked_ = false;  // lock_: free() asked for drain(), which has not yet found none left
};

}  // namespace vkc
