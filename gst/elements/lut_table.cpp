#include "lut_table.hpp"

#include <cstring>

#include "lut/reader.hpp"
#include "vk/kernel.hpp"

namespace vkc {

std::shared_ptr<const LutData> load_lut(const std::string& path, lut::PngKind png_kind, std::string& error) {
  lut::Table table;
  if (!lut::read_table(path, table, error, png_kind)) return nullptr;
  auto data = std::make_shared<LutData>();
  data->path = path;
  data->dimensions = table.dimensions;
  data->source = table.source;
  data->size = table.size;
  data->domain_min = table.domain_min;
  data->domain_max = table.domain_max;
  // The readers' layout is the kernel's: the table is moved, not copied.
  static_assert(lut::kEntryFloats == 4, "the kernel reads one vec4 per entry");
  data->rgba = std::move(table.rgbx);
  return data;
}

vk::Buffer LutTables::prepare(const std::shared_ptr<Device>& device, vk::CommandBuffer cmd, uint32_t slot,
                              const std::shared_ptr<const LutData>& data) {
  // This slot's previous frame has completed: what it alone held can go.
  slot_staging_[slot].reset();
  if (!current_ || current_->data != data) {
    const vk::DeviceSize bytes = data->rgba.size() * sizeof(float);
    auto table = std::make_shared<GpuTable>();
    table->data = data;
    table->buffer = Buffer::create_device(device, bytes, "lut table");
    auto staging = Buffer::create_host(device, bytes, "lut table staging");
    std::memcpy(staging->mapped(), data->rgba.data(), bytes);
    cmd.copyBuffer(staging->handle(), table->buffer->handle(), vk::BufferCopy{.size = bytes});
    // Later frames' kernels (in this and later submissions) read the table after the copy.
    transfer_to_compute_barrier(cmd);
    slot_staging_[slot] = std::move(staging);
    current_ = std::move(table);
  }
  slot_tables_[slot] = current_;
  return current_->buffer->handle();
}

}  // namespace vkc
