// vkc::HostTail: the last command buffer of every submission to a device's compute queue, which
// makes the submission's writes visible to the host.
//
// The CPU reads what the kernels wrote (an analysis's results, an output in host memory) once the
// queue's timeline says the submission is done; a signal alone makes device writes available, not
// visible to the host, so a barrier towards the host must come before it. Recorded once at the end
// of each submission instead of after each frame: a barrier waits for all work before it on the
// queue, so one per frame kept the frames of a submission (a chain's elements, the frames the
// device-resident timing records back to back) from overlapping on the GPU.
#pragma once

#include "vk.hpp"

namespace vkc {

class HostTail {
 public:
  HostTail(const vk::raii::Device& device, uint32_t queue_family);
  // Recorded once, submitted with any number of submissions at once.
  vk::CommandBuffer commands() const { return *cmd_; }

 private:
  vk::raii::CommandPool pool_;
  vk::raii::CommandBuffer cmd_ = nullptr;
};

}  // namespace vkc
