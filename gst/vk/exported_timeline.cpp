#include "exported_timeline.hpp"

namespace vkc {

std::unique_ptr<ExportedTimeline> ExportedTimeline::create(std::shared_ptr<Device> device, const char* name,
                                                           std::string& error) {
  if (!device->features().semaphore_fd_export) {
    error =
        "the Vulkan device cannot export timeline semaphores as file descriptors "
        "(VK_KHR_external_semaphore_fd)";
    return nullptr;
  }
  std::unique_ptr<ExportedTimeline> timeline(new ExportedTimeline(device));
  vk::SemaphoreTypeCreateInfo type{.semaphoreType = vk::SemaphoreType::eTimeline, .initialValue = 0};
  vk::ExportSemaphoreCreateInfo export_info{
      .pNext = &type, .handleTypes = vk::ExternalSemaphoreHandleTypeFlagBits::eOpaqueFd};
  try {
    timeline->semaphore_ =
        vk::raii::Semaphore(device->device(), vk::SemaphoreCreateInfo{.pNext = &export_info});
  } catch (const vk::SystemError& e) {
    error = std::string("creating an exportable timeline semaphore failed: ") + e.what();
    return nullptr;
  }
  device->set_name(*timeline->semaphore_, name);
  return timeline;
}

int ExportedTimeline::export_fd(std::string& error) const {
  return export_semaphore_fd(device_->device(), *semaphore_, error);
}

}  // namespace vkc
