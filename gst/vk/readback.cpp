#include "readback.hpp"

#include "kernel.hpp"

namespace vkc {

Readback::Readback(std::shared_ptr<Device> device, vk::DeviceSize work_bytes, vk::DeviceSize result_bytes,
                   const char* name)
    : work_(Buffer::create_device(device, work_bytes, name)),
      host_(Buffer::create_host(std::move(device), result_bytes, name)),
      result_bytes_(result_bytes) {}

void Readback::record_zero_once(Commands cmd) {
  if (zeroed_) return;
  clear_buffer(cmd, work_->handle());
  zeroed_ = true;
}

void Readback::record_copy(Commands cmd) const {
  compute_to_transfer_barrier(cmd);
  cmd.copyBuffer(work_->handle(), host_->handle(), vk::BufferCopy{.size = result_bytes_});
}

}  // namespace vkc
