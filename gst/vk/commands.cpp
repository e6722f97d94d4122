#include "commands.hpp"

#include <cstring>

namespace vkc {

namespace {

// Reads a log back, word by word, in the order Commands wrote it.
class Reader {
 public:
  explicit Reader(const std::vector<uint64_t>& words) : words_(words) {}
  bool more() const { return at_ < words_.size(); }
  uint64_t word() { return words_[at_++]; }
  template <typename Handle>
  Handle handle() {
    return Handle(reinterpret_cast<typename Handle::CType>(uintptr_t(word())));
  }
  template <typename Flags>
  Flags flags() {
    return Flags(typename Flags::MaskType(word()));
  }
  // Bytes that put_bytes() wrote (their count first), as a pointer into the log.
  const void* bytes(size_t& size) {
    size = size_t(word());
    const void* data = words_.data() + at_;  // past the end for 0 bytes: never read
    at_ += (size + sizeof(uint64_t) - 1) / sizeof(uint64_t);
    return data;
  }

 private:
  const std::vector<uint64_t>& words_;
  size_t at_ = 0;
};

}  // namespace

void CommandLog::put_bytes(const void* data, size_t bytes) {
  put(bytes);
  const size_t at = words_.size();
  words_.resize(at + (bytes + sizeof(uint64_t) - 1) / sizeof(uint64_t), 0);
  if (bytes) std::memcpy(&words_[at], data, bytes);
}

void CommandLog::replay(vk::CommandBuffer cmd) const {
  Reader r(words_);
  while (r.more()) {
    switch (Op(r.word())) {
      case Op::kBarrier: {
        const auto src = r.flags<vk::PipelineStageFlags>();
        const auto dst = r.flags<vk::PipelineStageFlags>();
        const auto dependency = r.flags<vk::DependencyFlags>();
        const vk::MemoryBarrier barrier{.srcAccessMask = r.flags<vk::AccessFlags>(),
                                        .dstAccessMask = r.flags<vk::AccessFlags>()};
        cmd.pipelineBarrier(src, dst, dependency, barrier, nullptr, nullptr);
        break;
      }
      case Op::kCopy: {
        const auto src = r.handle<vk::Buffer>();
        const auto dst = r.handle<vk::Buffer>();
        size_t bytes = 0;
        const auto* regions = static_cast<const vk::BufferCopy*>(r.bytes(bytes));
        cmd.copyBuffer(src, dst,
                       vk::ArrayProxy<const vk::BufferCopy>(uint32_t(bytes / sizeof *regions), regions));
        break;
      }
      case Op::kFill: {
        const auto buffer = r.handle<vk::Buffer>();
        const vk::DeviceSize offset = r.word(), size = r.word();
        cmd.fillBuffer(buffer, offset, size, uint32_t(r.word()));
        break;
      }
      case Op::kUpdate: {
        const auto buffer = r.handle<vk::Buffer>();
        const vk::DeviceSize offset = r.word();
        size_t bytes = 0;
        const void* data = r.bytes(bytes);
        cmd.updateBuffer(buffer, offset, bytes, data);
        break;
      }
      case Op::kBindPipeline: {
        const auto point = vk::PipelineBindPoint(r.word());
        cmd.bindPipeline(point, r.handle<vk::Pipeline>());
        break;
      }
      case Op::kBindSet: {
        const auto point = vk::PipelineBindPoint(r.word());
        const auto layout = r.handle<vk::PipelineLayout>();
        const auto first = uint32_t(r.word());
        const auto set = r.handle<vk::DescriptorSet>();
        r.word();  // the set's version: for comparing logs only
        cmd.bindDescriptorSets(point, layout, first, set, nullptr);
        break;
      }
      case Op::kPushConstants: {
        const auto layout = r.handle<vk::PipelineLayout>();
        const auto stages = r.flags<vk::ShaderStageFlags>();
        const auto offset = uint32_t(r.word());
        size_t bytes = 0;
        const void* data = r.bytes(bytes);
        cmd.pushConstants(layout, stages, offset, uint32_t(bytes), data);
        break;
      }
      case Op::kDispatch: {
        const auto x = uint32_t(r.word()), y = uint32_t(r.word()), z = uint32_t(r.word());
        cmd.dispatch(x, y, z);
        break;
      }
      case Op::kTimestamp: {
        const auto stage = vk::PipelineStageFlagBits(r.word());
        const auto pool = r.handle<vk::QueryPool>();
        cmd.writeTimestamp(stage, pool, uint32_t(r.word()));
        break;
      }
      case Op::kResetQueries: {
        const auto pool = r.handle<vk::QueryPool>();
        const auto first = uint32_t(r.word());
        cmd.resetQueryPool(pool, first, uint32_t(r.word()));
        break;
      }
      case Op::kImageBarrier: {
        const auto src = r.flags<vk::PipelineStageFlags>();
        const auto dst = r.flags<vk::PipelineStageFlags>();
        vk::ImageMemoryBarrier barrier;
        barrier.srcAccessMask = r.flags<vk::AccessFlags>();
        barrier.dstAccessMask = r.flags<vk::AccessFlags>();
        barrier.oldLayout = vk::ImageLayout(r.word());
        barrier.newLayout = vk::ImageLayout(r.word());
        barrier.srcQueueFamilyIndex = uint32_t(r.word());
        barrier.dstQueueFamilyIndex = uint32_t(r.word());
        vk::ImageSubresourceRange& range = barrier.subresourceRange;
        range.aspectMask = r.flags<vk::ImageAspectFlags>();
        range.baseMipLevel = uint32_t(r.word());
        range.levelCount = uint32_t(r.word());
        range.baseArrayLayer = uint32_t(r.word());
        range.layerCount = uint32_t(r.word());
        barrier.image = r.handle<vk::Image>();
        cmd.pipelineBarrier(src, dst, {}, nullptr, nullptr, barrier);
        break;
      }
      case Op::kCopyImage: {
        const auto image = r.handle<vk::Image>();
        const auto layout = vk::ImageLayout(r.word());
        const auto buffer = r.handle<vk::Buffer>();
        size_t bytes = 0;
        vk::BufferImageCopy region;
        std::memcpy(&region, r.bytes(bytes), sizeof region);
        cmd.copyImageToBuffer(image, layout, buffer, region);
        break;
      }
      case Op::kCopyToImage: {
        const auto buffer = r.handle<vk::Buffer>();
        const auto image = r.handle<vk::Image>();
        const auto layout = vk::ImageLayout(r.word());
        size_t bytes = 0;
        vk::BufferImageCopy region;
        std::memcpy(&region, r.bytes(bytes), sizeof region);
        cmd.copyBufferToImage(buffer, image, layout, region);
        break;
      }
    }
  }
}

void Commands::pipelineBarrier(vk::PipelineStageFlags src, vk::PipelineStageFlags dst,
                               vk::DependencyFlags flags, const vk::MemoryBarrier& barrier, std::nullptr_t,
                               std::nullptr_t) {
  if (!log_) return cmd_.pipelineBarrier(src, dst, flags, barrier, nullptr, nullptr);
  log_->put(uint64_t(CommandLog::Op::kBarrier));
  log_->put(uint64_t(VkPipelineStageFlags(src)));
  log_->put(uint64_t(VkPipelineStageFlags(dst)));
  log_->put(uint64_t(VkDependencyFlags(flags)));
  log_->put(uint64_t(VkAccessFlags(barrier.srcAccessMask)));
  log_->put(uint64_t(VkAccessFlags(barrier.dstAccessMask)));
}

void Commands::imageBarrier(vk::PipelineStageFlags src, vk::PipelineStageFlags dst,
                            const vk::ImageMemoryBarrier& barrier) {
  if (!log_) return cmd_.pipelineBarrier(src, dst, {}, nullptr, nullptr, barrier);
  log_->put(uint64_t(CommandLog::Op::kImageBarrier));
  log_->put(uint64_t(VkPipelineStageFlags(src)));
  log_->put(uint64_t(VkPipelineStageFlags(dst)));
  // Field by field (the struct has padding, and no chained struct is used).
  const vk::ImageSubresourceRange& range = barrier.subresourceRange;
  for (uint64_t word :
       {uint64_t(VkAccessFlags(barrier.srcAccessMask)), uint64_t(VkAccessFlags(barrier.dstAccessMask)),
        uint64_t(barrier.oldLayout), uint64_t(barrier.newLayout), uint64_t(barrier.srcQueueFamilyIndex),
        uint64_t(barrier.dstQueueFamilyIndex), uint64_t(VkImageAspectFlags(range.aspectMask)),
        uint64_t(range.baseMipLevel), uint64_t(range.levelCount), uint64_t(range.baseArrayLayer),
        uint64_t(range.layerCount)})
    log_->put(word);
  log_->put_handle(barrier.image);
}

void Commands::copyImageToBuffer(vk::Image image, vk::ImageLayout layout, vk::Buffer buffer,
                                 const vk::BufferImageCopy& region) {
  if (!log_) return cmd_.copyImageToBuffer(image, layout, buffer, region);
  log_->put(uint64_t(CommandLog::Op::kCopyImage));
  log_->put_handle(image);
  log_->put(uint64_t(layout));
  log_->put_handle(buffer);
  log_->put_bytes(&region, sizeof region);
}

void Commands::copyBufferToImage(vk::Buffer buffer, vk::Image image, vk::ImageLayout layout,
                                 const vk::BufferImageCopy& region) {
  if (!log_) return cmd_.copyBufferToImage(buffer, image, layout, region);
  log_->put(uint64_t(CommandLog::Op::kCopyToImage));
  log_->put_handle(buffer);
  log_->put_handle(image);
  log_->put(uint64_t(layout));
  log_->put_bytes(&region, sizeof region);
}

void Commands::copyBuffer(vk::Buffer src, vk::Buffer dst,
                          vk::ArrayProxy<const vk::BufferCopy> const& regions) {
  if (!log_) return cmd_.copyBuffer(src, dst, regions);
  log_->put(uint64_t(CommandLog::Op::kCopy));
  log_->put_handle(src);
  log_->put_handle(dst);
  log_->put_bytes(regions.data(), regions.size() * sizeof(vk::BufferCopy));
}

void Commands::fillBuffer(vk::Buffer buffer, vk::DeviceSize offset, vk::DeviceSize size, uint32_t data) {
  if (!log_) return cmd_.fillBuffer(buffer, offset, size, data);
  log_->put(uint64_t(CommandLog::Op::kFill));
  log_->put_handle(buffer);
  log_->put(offset);
  log_->put(size);
  log_->put(data);
}

void Commands::updateBuffer(vk::Buffer buffer, vk::DeviceSize offset, vk::DeviceSize size, const void* data) {
  if (!log_) return cmd_.updateBuffer(buffer, offset, size, data);
  log_->put(uint64_t(CommandLog::Op::kUpdate));
  log_->put_handle(buffer);
  log_->put(offset);
  log_->put_bytes(data, size_t(size));
}

void Commands::bindPipeline(vk::PipelineBindPoint point, vk::Pipeline pipeline) {
  if (!log_) return cmd_.bindPipeline(point, pipeline);
  log_->put(uint64_t(CommandLog::Op::kBindPipeline));
  log_->put(uint64_t(point));
  log_->put_handle(pipeline);
}

void Commands::bindDescriptorSets(vk::PipelineBindPoint point, vk::PipelineLayout layout, uint32_t first,
                                  vk::DescriptorSet set, uint64_t version) {
  if (!log_) return cmd_.bindDescriptorSets(point, layout, first, set, nullptr);
  log_->put(uint64_t(CommandLog::Op::kBindSet));
  log_->put(uint64_t(point));
  log_->put_handle(layout);
  log_->put(first);
  log_->put_handle(set);
  log_->put(version);
}

void Commands::pushConstants(vk::PipelineLayout layout, vk::ShaderStageFlags stages, uint32_t offset,
                             uint32_t size, const void* data) {
  if (!log_) return cmd_.pushConstants(layout, stages, offset, size, data);
  log_->put(uint64_t(CommandLog::Op::kPushConstants));
  log_->put_handle(layout);
  log_->put(uint64_t(VkShaderStageFlags(stages)));
  log_->put(offset);
  log_->put_bytes(data, size);
}

void Commands::dispatch(uint32_t x, uint32_t y, uint32_t z) {
  if (!log_) return cmd_.dispatch(x, y, z);
  log_->put(uint64_t(CommandLog::Op::kDispatch));
  log_->put(x);
  log_->put(y);
  log_->put(z);
}

void Commands::writeTimestamp(vk::PipelineStageFlagBits stage, vk::QueryPool pool, uint32_t query) {
  if (!log_) return cmd_.writeTimestamp(stage, pool, query);
  log_->put(uint64_t(CommandLog::Op::kTimestamp));
  log_->put(uint64_t(stage));
  log_->put_handle(pool);
  log_->put(query);
}

void Commands::resetQueryPool(vk::QueryPool pool, uint32_t first, uint32_t count) {
  if (!log_) return cmd_.resetQueryPool(pool, first, count);
  log_->put(uint64_t(CommandLog::Op::kResetQueries));
  log_->put_handle(pool);
  log_->put(first);
  log_->put(count);
}

}  // namespace vkc
