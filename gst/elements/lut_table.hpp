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
  // A 3D table whose values all lie in 0..1, packed for 8-bit frames (shaders/lut_layout.h,
  // kPackedBits); empty otherwise.
  std::vector<uint32_t> packed;
};

// Reads and converts `path` (any thread: this is the file I/O and parsing), a PNG as `png_kind`
// says; a file that another lut of the process holds, unchanged since (same size and time of
// change), is not read again: its table is shared. Null with `error` set (naming the file and, for .cube, the
// line) when the file cannot be used. Allocation failures throw std::bad_alloc: callers catch it.
std::shared_ptr<const LutData> load_lut(const std::string& path, lut::PngKind png_kind, std::string& error);

// The device-local copies of the tables frames use. A table is on the device once for every lut
// of the process that uses it (load_lut() shares the table, this its copy). A new copy is uploaded
// on a copy queue and waited for before any frame can use it (lut_table.cpp). (An upload inside the
// first frame's command buffer, as before, could reach the GPU after another element's frame that
// found the copy.) Each ring slot keeps the copy
// its last frame used until the slot is recorded again, after that frame has completed.
class LutTables {
 public:
  explicit LutTables(uint32_t slots) : slot_tables_(slots) {}

  // The buffers holding `data` for the frame at ring slot `slot`: its floats, and its packed
  // entries (the floats' buffer again when the table has none).
  struct Buffers {
    vk::Buffer floats, packed;
  };
  Buffers prepare(const std::shared_ptr<Device>& device, uint32_t slot,
                  const std::shared_ptr<const LutData>& data);

  struct GpuTable;

 private:
  std::shared_ptr<const GpuTable> current_;
  std::vector<std::shared_ptr<const GpuTable>> slot_tables_;
};

}  // namespace vkc
