// What the lut element keeps of a lookup table: the parsed file in the kernel's layout (built off
// the streaming thread), and its copies in GPU memory, uploaded inside a frame's command buffer.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "lut/table.hpp"
#include "vk/memory.hpp"

namespace vkc {

// A table ready for upload: float r, g, b, 0 per entry (the kernel's vec4 array), with what the
// kernel needs to index and scale it. Immutable once loaded; shared between threads.
struct LutData {
  std::string path;
  lut::Dimensions dimensions;
  lut::Source source;
  uint32_t size;
  std::array<float, 3> domain_min, domain_max;
  std::vector<float> rgba;
};

// Reads and converts `path` (any thread: this is the file I/O and parsing), a PNG as `png_kind`
// says. Null with `error` set (naming the file and, for .cube, the line) when the file cannot be
// used. Allocation failures throw std::bad_alloc: callers catch it.
std::shared_ptr<const LutData> load_lut(const std::string& path, lut::PngKind png_kind, std::string& error);

// The device-local copies of the tables frames use. A new table is copied from a staging buffer
// by the command buffer of the first frame that uses it, so the stream never waits for an upload;
// each ring slot keeps the table (and staging buffer) its last frame used until the slot is
// recorded again, which happens only after that frame's fence has signalled.
class LutTables {
 public:
  explicit LutTables(uint32_t slots) : slot_tables_(slots), slot_staging_(slots) {}

  // The buffer holding `data` for the frame recorded into `cmd` at ring slot `slot`; records the
  // upload first when `data` is not the current table.
  vk::Buffer prepare(const std::shared_ptr<Device>& device, vk::CommandBuffer cmd, uint32_t slot,
                     const std::shared_ptr<const LutData>& data);

 private:
  struct GpuTable {
    std::shared_ptr<const LutData> data;
    std::unique_ptr<Buffer> buffer;
  };
  std::shared_ptr<GpuTable> current_;
  std::vector<std::shared_ptr<GpuTable>> slot_tables_;
  std::vector<std::unique_ptr<Buffer>> slot_staging_;
};

}  // namespace vkc
