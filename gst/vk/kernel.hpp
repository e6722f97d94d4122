// A compute pipeline built from SPIR-V embedded in the plugin, with its descriptor sets.
#pragma once

#include <atomic>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "device.hpp"
#include "kernel_cache.hpp"

namespace vkc {

// A storage-buffer binding: the whole buffer, from offset 0 (kernels take byte offsets as push
// constants, which keeps binding offsets free of the device's alignment rules).
struct Binding {
  vk::Buffer buffer;
};

// A frame whose dispatch needs more workgroups in a direction than the device takes at once.
class GridTooLarge : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A kernel of one element instance: the device's compiled pipeline (KernelCache) and the
// instance's own descriptor sets.
class Kernel {
 public:
  Kernel(std::shared_ptr<Device> device, const KernelInfo& info);
  // Its descriptor sets go: a command buffer recorded with them may not be submitted again.
  ~Kernel();

  // Points descriptor set `set` (e.g. the frame slot) at `buffers`. The set must not be in use by
  // pending GPU work nor bound in a command buffer still being recorded. A set that holds these
  // buffers already is left as it is: a command buffer that binds it stays valid (commands.hpp).
  void update(uint32_t set, std::initializer_list<Binding> buffers) const;

  // Records binding the pipeline and set `set`, the push constants and a dispatch of
  // groups_x * groups_y workgroups. One set may serve several dispatches of a frame. Throws
  // GridTooLarge when the grid exceeds the device's maxComputeWorkGroupCount.
  void dispatch(Commands cmd, uint32_t set, const void* push_constants, uint32_t groups_x,
                uint32_t groups_y) const;

 private:
  vk::DescriptorSet descriptor_set(uint32_t index) const;
  // The compiled pipeline, waited for at its first use (it compiles from the constructor on).
  const CompiledKernel& compiled() const;

  std::shared_ptr<Device> device_;
  const char* name_;
  uint32_t bindings_;
  uint32_t push_bytes_;
  KernelCache::Compiled compiling_;
  mutable std::atomic<const CompiledKernel*> compiled_{nullptr};  // once compiling_ was waited for
  // One small pool per set, created on first use of each set index.
  mutable std::vector<vk::raii::DescriptorPool> pools_;
  mutable std::vector<vk::raii::DescriptorSet> sets_;
  // What each set holds: its buffers, as written while the device's release count was `released`
  // (a buffer destroyed since may have left its handle to another), and a version that changes
  // with every write, which bindDescriptorSets carries into the command log.
  struct Contents {
    std::vector<vk::Buffer> buffers;
    uint64_t released = 0;
    uint64_t version = 0;
  };
  mutable std::vector<Contents> contents_;
};

// Orders two dispatches of a command buffer: the second sees everything the first wrote.
void compute_barrier(Commands cmd);

// Orders the transfers (copies, fills) recorded so far before the dispatches recorded after them.
void transfer_to_compute_barrier(Commands cmd);

// Orders the dispatches recorded so far before the transfers recorded after them: a transfer
// reads what they wrote, or writes where they wrote (or may have written, as far as the
// validation layer can tell from their bindings) without overtaking them.
void compute_to_transfer_barrier(Commands cmd);

// Records zeroing `buffer`, ordered before the dispatches recorded after it.
void clear_buffer(Commands cmd, vk::Buffer buffer);

// Records writing `words` (at most 16 384) into `buffer` from word `offset` (vkCmdUpdateBuffer: the
// data travel in the command buffer), after the dispatches and transfers recorded so far and
// before the dispatches recorded after it: small tables the kernels read, such as regions.
void update_buffer(Commands cmd, vk::Buffer buffer, uint32_t offset, const std::vector<uint32_t>& words);

}  // namespace vkc
