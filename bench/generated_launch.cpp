#include "generated_launch.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bare_kernel.hpp"
#include "bus_traffic.hpp"
#include "vk/device.hpp"

namespace bench {

namespace {

// VK_NV_device_generated_commands_compute is newer than the project's Vulkan headers (1.3.239):
// its feature structure and dispatch token, as the Vulkan registry defines them.
constexpr const char* kComputeExtension = "VK_NV_device_generated_commands_compute";
struct GeneratedComputeFeatures {
  VkStructureType sType = VkStructureType(1000428000);
  void* pNext = nullptr;
  VkBool32 deviceGeneratedCompute = VK_TRUE;
  VkBool32 deviceGeneratedComputePipelines = VK_FALSE;
  VkBool32 deviceGeneratedComputeCaptureReplay = VK_FALSE;
};
constexpr auto kDispatchToken = vk::IndirectCommandsTokenTypeNV(1000428004);

constexpr int kRepeats = 50;

bool offers(const vk::raii::PhysicalDevice& physical, const char* extension) {
  for (const auto& e : physical.enumerateDeviceExtensionProperties())
    if (std::strcmp(e.extensionName, extension) == 0) return true;
  return false;
}

// A VkDevice of its own with device-generated commands enabled (the project's device does not
// enable them), its compute queue, and one workgroup of floor_empty.comp launched three ways.
class GeneratedLaunch {
 public:
  explicit GeneratedLaunch(const vkc::Device& shared)
      : family_(shared.queue_family()), memory_types_(shared.memory_properties()) {
    const auto& physical = shared.physical();
    period_ns_ = shared.properties().limits.timestampPeriod;
    GeneratedComputeFeatures compute;
    vk::PhysicalDeviceDeviceGeneratedCommandsFeaturesNV generated{.pNext = &compute,
                                                                  .deviceGeneratedCommands = VK_TRUE};
    const float priority = 1.0f;
    vk::DeviceQueueCreateInfo queue{
        .queueFamilyIndex = family_, .queueCount = 1, .pQueuePriorities = &priority};
    const char* extensions[] = {VK_NV_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME, kComputeExtension};
    device_ = vk::raii::Device(physical, vk::DeviceCreateInfo{.pNext = &generated,
                                                              .queueCreateInfoCount = 1,
                                                              .pQueueCreateInfos = &queue,
                                                              .enabledExtensionCount = 2,
                                                              .ppEnabledExtensionNames = extensions});
    queue_ = device_.getQueue(family_, 0);
    kernel_ = std::make_unique<BareKernel>(device_);
    pool_ = vk::raii::CommandPool(
        device_, vk::CommandPoolCreateInfo{.flags = vk::CommandPoolCreateFlagBits::eResetCommandBuffer,
                                           .queueFamilyIndex = family_});
    cmd_ = std::move(vk::raii::CommandBuffers(
                         device_, vk::CommandBufferAllocateInfo{.commandPool = *pool_,
                                                                .level = vk::CommandBufferLevel::ePrimary,
                                                                .commandBufferCount = 1})
                         .front());
    fence_ = vk::raii::Fence(device_, vk::FenceCreateInfo{});
    queries_ = vk::raii::QueryPool(
        device_, vk::QueryPoolCreateInfo{.queryType = vk::QueryType::eTimestamp, .queryCount = 2});

    // The stream: one VkDispatchIndirectCommand (1, 1, 1) in device memory.
    stream_ = buffer(sizeof(vk::DispatchIndirectCommand),
                     vk::BufferUsageFlagBits::eIndirectBuffer | vk::BufferUsageFlagBits::eTransferDst,
                     stream_memory_);
    const vk::DispatchIndirectCommand one{1, 1, 1};
    run([&](vk::CommandBuffer cmd) {
      cmd.updateBuffer(*stream_, 0, sizeof one, &one);
      const vk::MemoryBarrier written{.srcAccessMask = vk::AccessFlagBits::eTransferWrite,
                                      .dstAccessMask = vk::AccessFlagBits::eIndirectCommandRead |
                                                       vk::AccessFlagBits::eCommandPreprocessReadNV};
      cmd.pipelineBarrier(
          vk::PipelineStageFlagBits::eTransfer,
          vk::PipelineStageFlagBits::eDrawIndirect | vk::PipelineStageFlagBits::eCommandPreprocessNV, {},
          written, nullptr, nullptr);
    });

    for (bool explicit_preprocess : {false, true}) {
      vk::IndirectCommandsLayoutTokenNV token{.tokenType = kDispatchToken, .stream = 0, .offset = 0};
      const uint32_t stride = sizeof(vk::DispatchIndirectCommand);
      auto& commands = explicit_preprocess ? preprocessed_layout_ : inline_layout_;
      commands = vk::raii::IndirectCommandsLayoutNV(
          device_,
          vk::IndirectCommandsLayoutCreateInfoNV{
              .flags = explicit_preprocess ? vk::IndirectCommandsLayoutUsageFlagBitsNV::eExplicitPreprocess
                                           : vk::IndirectCommandsLayoutUsageFlagsNV{},
              .pipelineBindPoint = vk::PipelineBindPoint::eCompute,
              .tokenCount = 1,
              .pTokens = &token,
              .streamCount = 1,
              .pStreamStrides = &stride});
      const vk::MemoryRequirements2 needs = device_.getGeneratedCommandsMemoryRequirementsNV(
          vk::GeneratedCommandsMemoryRequirementsInfoNV{.pipelineBindPoint = vk::PipelineBindPoint::eCompute,
                                                        .pipeline = kernel_->pipeline(),
                                                        .indirectCommandsLayout = *commands,
                                                        .maxSequencesCount = 1});
      auto& preprocess = explicit_preprocess ? preprocess_explicit_ : preprocess_inline_;
      auto& memory = explicit_preprocess ? preprocess_explicit_memory_ : preprocess_inline_memory_;
      vk::DeviceSize& size = preprocess_size_[explicit_preprocess ? 1 : 0];
      size = std::max<vk::DeviceSize>(needs.memoryRequirements.size, 4);
      preprocess = buffer(size, vk::BufferUsageFlagBits::eIndirectBuffer, memory,
                          needs.memoryRequirements.memoryTypeBits);
    }
  }

  // Median and least µs, each launch in a submission of its own between two timestamps.
  // `before`, when given, is recorded ahead of the first timestamp.
  std::pair<double, double> time(const std::function<void(vk::CommandBuffer)>& record,
                                 const std::function<void(vk::CommandBuffer)>& before = nullptr) {
    std::vector<double> us;
    for (int i = 0; i < kRepeats; ++i) {
      run([&](vk::CommandBuffer cmd) {
        if (before) before(cmd);
        cmd.resetQueryPool(*queries_, 0, 2);
        // Bottom of pipe: written once `before`'s work is done, so none of it is timed.
        cmd.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *queries_, 0);
        record(cmd);
        cmd.writeTimestamp(vk::PipelineStageFlagBits::eBottomOfPipe, *queries_, 1);
      });
      uint64_t ticks[2] = {};
      if ((*device_).getQueryPoolResults(*queries_, 0, 2, sizeof ticks, ticks, sizeof(uint64_t),
                                         vk::QueryResultFlagBits::e64 | vk::QueryResultFlagBits::eWait,
                                         *device_.getDispatcher()) == vk::Result::eSuccess)
        us.push_back(double(ticks[1] - ticks[0]) * period_ns_ / 1000.0);
    }
    std::sort(us.begin(), us.end());
    return us.empty() ? std::pair{0.0, 0.0} : std::pair{us[us.size() / 2], us.front()};
  }

  void direct(vk::CommandBuffer cmd) const { kernel_->dispatch(cmd); }
  void generated(vk::CommandBuffer cmd, bool preprocessed) const {
    cmd.bindPipeline(vk::PipelineBindPoint::eCompute, kernel_->pipeline());
    cmd.executeGeneratedCommandsNV(preprocessed, info(preprocessed), *device_.getDispatcher());
  }
  // Generates the commands into device memory ahead of generated(cmd, true) in the same submission,
  // as an element could at the start of its command buffer, while earlier work still runs.
  void preprocess(vk::CommandBuffer cmd) const {
    cmd.bindPipeline(vk::PipelineBindPoint::eCompute, kernel_->pipeline());
    cmd.preprocessGeneratedCommandsNV(info(true), *device_.getDispatcher());
    const vk::MemoryBarrier generated{.srcAccessMask = vk::AccessFlagBits::eCommandPreprocessWriteNV,
                                      .dstAccessMask = vk::AccessFlagBits::eIndirectCommandRead};
    cmd.pipelineBarrier(vk::PipelineStageFlagBits::eCommandPreprocessNV,
                        vk::PipelineStageFlagBits::eDrawIndirect, {}, generated, nullptr, nullptr);
  }

 private:
  vk::GeneratedCommandsInfoNV info(bool preprocessed) const {
    stream_info_ = vk::IndirectCommandsStreamNV{.buffer = *stream_, .offset = 0};
    return vk::GeneratedCommandsInfoNV{
        .pipelineBindPoint = vk::PipelineBindPoint::eCompute,
        .pipeline = kernel_->pipeline(),
        .indirectCommandsLayout = preprocessed ? *preprocessed_layout_ : *inline_layout_,
        .streamCount = 1,
        .pStreams = &stream_info_,
        .sequencesCount = 1,
        .preprocessBuffer = preprocessed ? *preprocess_explicit_ : *preprocess_inline_,
        .preprocessOffset = 0,
        .preprocessSize = preprocess_size_[preprocessed ? 1 : 0]};
  }

  vk::raii::Buffer buffer(vk::DeviceSize size, vk::BufferUsageFlags usage, vk::raii::DeviceMemory& memory,
                          uint32_t type_bits = ~0u) {
    vk::raii::Buffer made(device_, vk::BufferCreateInfo{.size = size, .usage = usage});
    const vk::MemoryRequirements needs = made.getMemoryRequirements();
    uint32_t type = 0;
    for (; type < memory_types_.memoryTypeCount; ++type)
      if ((needs.memoryTypeBits & type_bits & (1u << type)) &&
          (memory_types_.memoryTypes[type].propertyFlags & vk::MemoryPropertyFlagBits::eDeviceLocal))
        break;
    if (type == memory_types_.memoryTypeCount)
      throw std::runtime_error("no device-local memory type for a buffer");
    memory = vk::raii::DeviceMemory(
        device_, vk::MemoryAllocateInfo{.allocationSize = needs.size, .memoryTypeIndex = type});
    made.bindMemory(*memory, 0);
    return made;
  }

  // Records with `record` into the command buffer, submits it and waits. Work that does not complete
  // within a second ends the process: the device cannot be torn down around it.
  void run(const std::function<void(vk::CommandBuffer)>& record) {
    cmd_.reset();
    cmd_.begin(vk::CommandBufferBeginInfo{.flags = vk::CommandBufferUsageFlagBits::eOneTimeSubmit});
    record(*cmd_);
    cmd_.end();
    vk::CommandBuffer cmd = *cmd_;
    device_.resetFences(*fence_);
    queue_.submit(vk::SubmitInfo{.commandBufferCount = 1, .pCommandBuffers = &cmd}, *fence_);
    if (device_.waitForFences(*fence_, VK_TRUE, 1'000'000'000ull) != vk::Result::eSuccess) {
      std::fprintf(stderr, "generated launches: a submission did not complete within 1 s\n");
      std::fflush(stdout);
      std::_Exit(1);
    }
  }

 private:
  uint32_t family_;
  vk::PhysicalDeviceMemoryProperties memory_types_;
  double period_ns_ = 1;
  vk::raii::Device device_ = nullptr;
  vk::raii::Queue queue_ = nullptr;
  std::unique_ptr<BareKernel> kernel_;  // made on device_
  vk::raii::CommandPool pool_ = nullptr;
  vk::raii::CommandBuffer cmd_ = nullptr;
  vk::raii::Fence fence_ = nullptr;
  vk::raii::QueryPool queries_ = nullptr;
  vk::raii::DeviceMemory stream_memory_ = nullptr, preprocess_inline_memory_ = nullptr,
                         preprocess_explicit_memory_ = nullptr;
  vk::raii::Buffer stream_ = nullptr, preprocess_inline_ = nullptr, preprocess_explicit_ = nullptr;
  vk::raii::IndirectCommandsLayoutNV inline_layout_ = nullptr, preprocessed_layout_ = nullptr;
  vk::DeviceSize preprocess_size_[2] = {0, 0};  // generated at execution, preprocessed
  mutable vk::IndirectCommandsStreamNV stream_info_;
};

}  // namespace

bool print_generated_launches() {
  std::string error;
  auto shared = vkc::Device::acquire(-1, error);
  if (!shared) {
    std::fprintf(stderr, "generated launches: %s\n", error.c_str());
    return false;
  }
  std::printf("Launches from device-generated commands on %s (one workgroup reading nothing; median of %d)\n",
              shared->name().c_str(), kRepeats);
  if (!offers(shared->physical(), VK_NV_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME) ||
      !offers(shared->physical(), kComputeExtension)) {
    std::printf("  not offered: %s needs %s and %s\n", shared->name().c_str(),
                VK_NV_DEVICE_GENERATED_COMMANDS_EXTENSION_NAME, kComputeExtension);
    return true;
  }
  std::fflush(stdout);
  std::unique_ptr<GeneratedLaunch> made;
  try {
    made = std::make_unique<GeneratedLaunch>(*shared);
  } catch (const std::exception& e) {
    std::printf("  not usable: %s\n", e.what());
    return true;
  }
  GeneratedLaunch& lab = *made;
  std::fprintf(stderr, "generated launches: device and layouts ready\n");
  auto line = [&](const std::string& what, const std::function<void(vk::CommandBuffer)>& record,
                  const std::function<void(vk::CommandBuffer)>& before = nullptr) {
    const auto [median, least] = lab.time(record, before);
    std::printf("  %-70s %8.1f µs (least %6.1f)\n", what.c_str(), median, least);
    std::fflush(stdout);
  };
  // The preprocessed variant last: a driver that never completes it ends the process (run()).
  for (bool preprocessed : {false, true}) {
    auto all = [&](const std::string& context) {
      if (!preprocessed) {
        line("dispatch recorded directly" + context, [&](vk::CommandBuffer cmd) { lab.direct(cmd); });
        line("dispatch generated at execution" + context,
             [&](vk::CommandBuffer cmd) { lab.generated(cmd, false); });
        return;
      }
      line(
          "dispatch preprocessed before the timed part, executed" + context,
          [&](vk::CommandBuffer cmd) { lab.generated(cmd, true); },
          [&](vk::CommandBuffer cmd) { lab.preprocess(cmd); });
    };
    all("");
    auto busy = [&](std::initializer_list<vkc::QueueRole> roles, const char* what) {
      BusTraffic traffic(shared, roles);
      all(std::string(", ") + what + (traffic.running() ? "" : " (no copy queue)"));
    };
    busy({vkc::QueueRole::kUpload}, "uploads beside");
    busy({vkc::QueueRole::kDownload}, "downloads beside");
    busy({vkc::QueueRole::kUpload, vkc::QueueRole::kDownload}, "uploads and downloads beside");
  }
  return true;
}

}  // namespace bench
