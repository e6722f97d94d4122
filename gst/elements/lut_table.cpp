#include "lut_table.hpp"

#include <sys/stat.h>

#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "lut/reader.hpp"
#include "lut_layout.h"
#include "vk/kernel.hpp"
#include "vk/reaper.hpp"
#include "vk/submit.hpp"

namespace vkc {

namespace {

// How long the first lut on a device waits for its table's copy (about a millisecond on a GPU).
constexpr uint64_t kTableUploadWaitNs = 10'000'000'000ull;

// A file as read: its path, how a PNG was read, and its size and time of change, so that a file
// rewritten since is read again.
struct FileKey {
  std::string path;
  lut::PngKind png_kind;
  off_t size;
  int64_t changed_ns;
  bool operator<(const FileKey& o) const {
    return std::tie(path, png_kind, size, changed_ns) < std::tie(o.path, o.png_kind, o.size, o.changed_ns);
  }
};

std::shared_ptr<const LutData> read_lut(const std::string& path, lut::PngKind png_kind, std::string& error);

}  // namespace

std::shared_ptr<const LutData> load_lut(const std::string& path, lut::PngKind png_kind, std::string& error) {
  // Every lut of the process reading the same file shares one table while any of them holds it:
  // a hundred pipelines with the same grade parse it once and hold it once.
  static std::mutex lock;
  static std::map<FileKey, std::weak_ptr<const LutData>> tables;
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return read_lut(path, png_kind, error);  // it says why
  const FileKey key{path, png_kind, info.st_size,
                    int64_t(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec};
  std::lock_guard<std::mutex> guard(lock);
  for (auto it = tables.begin(); it != tables.end();) it = it->second.expired() ? tables.erase(it) : ++it;
  if (auto shared = tables[key].lock()) return shared;
  auto data = read_lut(path, png_kind, error);
  if (data) tables[key] = data;
  return data;
}

namespace {

// `data`'s entries in 10 bits a channel, when it is a 3D table whose values all lie in 0..1 (a
// value beyond them, mixed with the input at an intensity below 1, would come out otherwise).
std::vector<uint32_t> packed_entries(const LutData& data) {
  if (data.dimensions != lut::Dimensions::k3D) return {};
  constexpr uint32_t kTop = (1u << shader::lut::kPackedBits) - 1u;
  std::vector<uint32_t> packed(data.rgba.size() / lut::kEntryFloats);
  for (size_t i = 0; i < packed.size(); ++i) {
    uint32_t word = 0;
    for (uint32_t c = 0; c < 3; ++c) {
      const float v = data.rgba[i * lut::kEntryFloats + c];
      if (!(v >= 0.0f && v <= 1.0f)) return {};
      word |= uint32_t(std::lround(v * float(kTop))) << (c * shader::lut::kPackedBits);
    }
    packed[i] = word;
  }
  return packed;
}

std::shared_ptr<const LutData> read_lut(const std::string& path, lut::PngKind png_kind, std::string& error) {
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
  data->packed = packed_entries(*data);
  return data;
}

}  // namespace

struct LutTables::GpuTable {
  std::shared_ptr<const LutData> data;
  std::unique_ptr<Buffer> buffer, packed;
};

namespace {

// The device's copy of `data`, uploaded now when no lut on the device holds one.
std::shared_ptr<const LutTables::GpuTable> device_copy(const std::shared_ptr<Device>& device,
                                                       const std::shared_ptr<const LutData>& data) {
  static std::mutex lock;
  static std::map<std::pair<const Device*, const LutData*>, std::weak_ptr<const LutTables::GpuTable>> copies;
  std::lock_guard<std::mutex> guard(lock);
  for (auto it = copies.begin(); it != copies.end();) it = it->second.expired() ? copies.erase(it) : ++it;
  auto& entry = copies[{device.get(), data.get()}];
  if (auto shared = entry.lock()) return shared;
  const vk::DeviceSize bytes = data->rgba.size() * sizeof(float);
  const vk::DeviceSize packed_bytes = data->packed.size() * sizeof(uint32_t);
  auto table = std::make_shared<LutTables::GpuTable>();
  table->data = data;
  table->buffer = Buffer::create_device(device, bytes, "lut table");
  std::shared_ptr<Buffer> staging = Buffer::create_host(device, bytes + packed_bytes, "lut table staging");
  std::memcpy(staging->mapped(), data->rgba.data(), bytes);
  if (packed_bytes) {
    table->packed = Buffer::create_device(device, packed_bytes, "lut packed table");
    std::memcpy(static_cast<uint8_t*>(staging->mapped()) + bytes, data->packed.data(), packed_bytes);
  }
  // On a copy queue, waited for here, once per table and device: the frames of every lut then find
  // it complete. Recorded on the compute queue behind the frames of the pipelines starting at the
  // same moment, the copy stopped the GPU's compute queue for good now and then (64 chains started
  // at once on an H100; docs/benchmarks.md, runs 32-39).
  auto ring = std::make_unique<CommandRing>(device, 1, "lut table upload", 0);
  ring->begin(0);
  Commands upload = ring->begin_upload(0);
  upload.copyBuffer(staging->handle(), table->buffer->handle(), vk::BufferCopy{.size = bytes});
  if (packed_bytes)
    upload.copyBuffer(staging->handle(), table->packed->handle(),
                      vk::BufferCopy{.srcOffset = bytes, .size = packed_bytes});
  ring->submit(0);
  if (ring->wait(0, kTableUploadWaitNs) != Completion::kDone) {
    // Its memory stays until the copy ends, if it ever does.
    release_after_gpu(
        std::move(ring),
        std::make_shared<std::pair<std::shared_ptr<Buffer>, std::shared_ptr<LutTables::GpuTable>>>(
            std::move(staging), table));
    throw std::runtime_error("the copy of the lut table to the device did not finish in 10 s (" +
                             device->describe_queues() + ")");
  }
  entry = table;
  return table;
}

}  // namespace

LutTables::Buffers LutTables::prepare(const std::shared_ptr<Device>& device, uint32_t slot,
                                      const std::shared_ptr<const LutData>& data) {
  if (!current_ || current_->data != data) current_ = device_copy(device, data);
  // This slot's previous frame has completed: the copy it used may go if no one else holds it.
  slot_tables_[slot] = current_;
  const vk::Buffer floats = current_->buffer->handle();
  return {floats, current_->packed ? current_->packed->handle() : floats};
}

}  // namespace vkc
