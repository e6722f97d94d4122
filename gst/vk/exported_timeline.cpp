#include "exported_timeline.hpp"

namespace vkc {

std::unique_ptr<ExportedTimeline> ExportedTimeline::create(std::shared_ptr<Device> device, const char* name,
                                                           std::string& error) {
  if (!device->features().semaphore_fd_export) {
    error = "the Vulkan device lacks VK_KHR_external_semaphore_fd";
    return nullptr;
  }
  const auto handle_type = vk::ExternalSemaphoreHandleTypeFlagBits::eOpaqueFd;
  vk::SemaphoreTypeCreateInfo timeline_type{.semaphoreType = vk::SemaphoreType::eTimeline};
  const auto supported = device->physical().getExternalSemaphoreProperties(
      vk::PhysicalDeviceExternalSemaphoreInfo{.pNext = &timeline_type, .handleType = handle_type});
  if (!(supported.externalSemaphoreFeatures & vk::ExternalSemaphoreFeatureFlagBits::eExportable)) {
    error = "the Vulkan device cannot export semaphores as file descriptors";
    return nullptr;
  }
  std::unique_ptr<ExportedTimeline> timeline(new ExportedTimeline(device));
  vk::SemaphoreTypeCreateInfo type{.semaphoreType = vk::SemaphoreType::eTimeline, .initialValue = 0};
  vk::ExportSemaphoreCreateInfo export_info{.pNext = &type, .handleTypes = handle_type};
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
  try {
    return device_->device().getSemaphoreFdKHR(vk::SemaphoreGetFdInfoKHR{
        .semaphore = *semaphore_, .handleType = vk::ExternalSemaphoreHandleTypeFlagBits::eOpaqueFd});
  } catch (const vk::SystemError& e) {
    error = std::string("exporting the semaphore failed: ") + e.what();
    return -1;
  }
}

bool ExportedTimeline::release(std::string& error) {
  std::lock_guard<std::mutex> guard(releasing_);  // two signals of one value would be invalid
  try {
    const uint64_t last = issued_.load();
    if (counter() < last)
      device_->device().signalSemaphore(vk::SemaphoreSignalInfo{.semaphore = *semaphore_, .value = last});
    return true;
  } catch (const vk::SystemError& e) {
    error = std::string("signalling the semaphore failed: ") + e.what();
    return false;
  }
}

}  // namespace vkc
