#include "memory_blocks.hpp"

#include <algorithm>

#include "device.hpp"

#define GST_CAT_DEFAULT gst_vkcompute_runtime_debug

namespace vkc {

MemoryBlocks::~MemoryBlocks() {
  for (auto& [type, blocks] : blocks_)
    for (auto& block : blocks)
      if (block->used)
        GST_ERROR("a memory block of type %u is freed with %" G_GUINT64_FORMAT " bytes in use", type,
                  guint64(block->used));
}

std::atomic<uint64_t>& MemoryBlocks::allocated(uint32_t type) const {
  MemoryHeld& held = device_.memory_held();
  const bool device_local = bool(device_.memory_properties().memoryTypes[type].propertyFlags &
                                 vk::MemoryPropertyFlagBits::eDeviceLocal);
  return device_local ? held.allocated_device_local : held.allocated_host_visible;
}

namespace {
vk::DeviceSize aligned(vk::DeviceSize offset, vk::DeviceSize alignment) {
  return (offset + alignment - 1) / alignment * alignment;
}
}  // namespace

std::map<vk::DeviceSize, vk::DeviceSize>::const_iterator MemoryBlocks::fit(const Block& block,
                                                                           vk::DeviceSize size,
                                                                           vk::DeviceSize alignment) {
  return std::find_if(block.free.begin(), block.free.end(), [&](const auto& range) {
    return aligned(range.first, alignment) + size <= range.first + range.second;
  });
}

bool MemoryBlocks::place(Block& block, vk::DeviceSize size, vk::DeviceSize alignment,
                         vk::DeviceSize& offset) {
  const auto it = fit(block, size, alignment);
  if (it != block.free.end()) {
    const vk::DeviceSize start = aligned(it->first, alignment);
    const vk::DeviceSize end = it->first + it->second;
    const vk::DeviceSize before = start - it->first, after = end - (start + size);
    const vk::DeviceSize range_start = it->first;
    block.free.erase(it);
    if (before) block.free[range_start] = before;
    if (after) block.free[start + size] = after;
    block.used += size;
    offset = start;
    return true;
  }
  return false;
}

namespace {
// Every buffer up to kSharedBytes goes into a block; larger ones get memory of their own. (Frames
// with device-local memory of their own had one of two cases of 64 live chains at 1080p on the H200
// fall behind for good: a vkAllocateMemory under the blocks' lock for every frame a pool makes;
// pinned host memory frame by frame stalled every stream; docs/benchmarks/history.md.)
bool in_blocks(vk::DeviceSize size) {
  return size <= MemoryBlocks::kSharedBytes;
}

// Host-visible buffers of a frame's size start on a 2 MiB boundary: the GPU read and wrote frames in
// host memory packed at smaller alignments about 15 % slower (the five-element chain with system
// memory between on the H200: 741-747 frames/s against 818-822 aligned, 811-822 with memory of their
// own; docs/benchmarks.md).
constexpr vk::DeviceSize kLargeHostAlignment = 2ull << 20;
}  // namespace

BlockRange MemoryBlocks::allocate(uint32_t type, vk::DeviceSize size, vk::DeviceSize alignment, bool map) {
  if (map && size >= kLargeHostAlignment) alignment = std::max(alignment, kLargeHostAlignment);
  alignment = std::max<vk::DeviceSize>(alignment, 1);
  const bool own = !in_blocks(size);
  if (!own) {
    std::lock_guard<std::mutex> guard(lock_);
    // The fullest blocks first: frames pile into few blocks, and blocks that streams give frames
    // back from can empty and be freed, instead of every block keeping a few frames.
    std::vector<Block*> fullest;
    for (auto& block : blocks_[type])
      if (block->size == kBlockBytes && kBlockBytes - block->used >= size) fullest.push_back(block.get());
    std::stable_sort(fullest.begin(), fullest.end(),
                     [](const Block* a, const Block* b) { return a->used > b->used; });
    for (Block* block : fullest) {
      vk::DeviceSize offset = 0;
      if (place(*block, size, alignment, offset))
        return {*block->memory, offset,   size, block->mapped ? block->mapped + offset : nullptr,
                type,           alignment};
    }
  }
  // A new block, made outside the lock: the driver takes milliseconds for a block (NVIDIA's pins host
  // memory page by page), and every stream of the device places and gives back its buffers
  // meanwhile. (Under the lock, 64 live chains on the H200 had frames of every stream held 10-40 ms
  // at once while the start's pools were given back, run 149.) Two threads may each make one at
  // once; the spare-block rule of free() keeps one spare.
  auto block = std::make_unique<Block>();
  block->size = own ? size : kBlockBytes;
  block->memory = vk::raii::DeviceMemory(
      device_.device(), vk::MemoryAllocateInfo{.allocationSize = block->size, .memoryTypeIndex = type});
  device_.set_name(*block->memory, own ? "vkcompute memory" : "vkcompute memory block");
  if (map) block->mapped = static_cast<uint8_t*>(block->memory.mapMemory(0, VK_WHOLE_SIZE));
  block->free[0] = block->size;
  vk::DeviceSize offset = 0;
  place(*block, size, alignment, offset);  // fits: the block is new and at least `size`
  GST_DEBUG("new memory block of type %u: %" G_GUINT64_FORMAT " bytes", type, guint64(block->size));
  BlockRange range{*block->memory, offset,   size, block->mapped ? block->mapped + offset : nullptr,
                   type,           alignment};
  std::lock_guard<std::mutex> guard(lock_);
  allocated(type) += block->size;
  blocks_[type].push_back(std::move(block));
  return range;
}

bool MemoryBlocks::worth_moving(const BlockRange& range) {
  std::lock_guard<std::mutex> guard(lock_);
  // The rate first: every buffer a pool takes back asks, and the scans below, over every block and
  // their free ranges, took 5 % of the completion service's thread with 180 live streams (lent
  // H200, run 205) for the one answer in many that may be yes.
  const int64_t now = g_get_monotonic_time();
  if (now - last_move_us_ < G_USEC_PER_SEC / kMovesPerSecond) return false;
  const auto& blocks = blocks_[range.type];
  const auto it =
      std::find_if(blocks.begin(), blocks.end(), [&](const auto& b) { return *b->memory == range.memory; });
  if (it == blocks.end() || (*it)->size != kBlockBytes || (*it)->used > kSparseBytes) return false;
  const Block& sparse = **it;
  const bool fuller_has_room = std::any_of(blocks.begin(), blocks.end(), [&](const auto& b) {
    return b.get() != &sparse && b->size == kBlockBytes && b->used > sparse.used &&
           fit(*b, range.size, range.alignment) != b->free.end();
  });
  if (!fuller_has_room) return false;
  last_move_us_ = now;
  return true;
}

size_t MemoryBlocks::surplus(const std::vector<std::unique_ptr<Block>>& blocks) {
  const auto empty = std::count_if(blocks.begin(), blocks.end(),
                                   [](const auto& b) { return b->used == 0 && b->size == kBlockBytes; });
  return empty > 0 ? size_t(empty - 1) : 0;
}

bool MemoryBlocks::drain(int64_t now_us) {
  std::unique_ptr<Block> freed;  // by the driver after the lock is let go (see allocate())
  std::lock_guard<std::mutex> guard(lock_);
  bool left = false;
  for (auto& [type, blocks] : blocks_) {
    if (!surplus(blocks)) continue;
    if (!freed && now_us - last_driver_free_us_ >= kDriverFreeGapUs) {
      // The last empty block: the first stays spare.
      auto it = std::find_if(blocks.rbegin(), blocks.rend(),
                             [](const auto& b) { return b->used == 0 && b->size == kBlockBytes; });
      freed = std::move(*it);
      blocks.erase(std::next(it).base());
      allocated(type) -= freed->size;
      last_driver_free_us_ = now_us;
    }
    left = left || surplus(blocks) > 0;
  }
  drain_asked_ = left;
  return left;
}

bool MemoryBlocks::free(const BlockRange& range) {
  std::unique_ptr<Block> emptied;  // freed by the driver after the lock is let go (see allocate())
  std::lock_guard<std::mutex> guard(lock_);
  auto& blocks = blocks_[range.type];
  auto it =
      std::find_if(blocks.begin(), blocks.end(), [&](const auto& b) { return *b->memory == range.memory; });
  if (it == blocks.end()) return false;
  Block& block = **it;
  block.used -= range.size;
  // Back into the free ranges, joined with its neighbours.
  vk::DeviceSize offset = range.offset, size = range.size;
  auto next = block.free.lower_bound(offset);
  if (next != block.free.end() && next->first == offset + size) {
    size += next->second;
    next = block.free.erase(next);
  }
  if (next != block.free.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      offset = prev->first;
      size += prev->second;
      block.free.erase(prev);
    }
  }
  block.free[offset] = size;
  if (block.used == 0 && block.size != kBlockBytes) {  // a block of its own goes at once
    allocated(range.type) -= block.size;
    emptied = std::move(*it);
    blocks.erase(it);
    return false;
  }
  if (drain_asked_ || block.used || !surplus(blocks)) return false;
  drain_asked_ = true;
  return true;
}

}  // namespace vkc
