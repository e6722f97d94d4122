#include "input_placement.h"

namespace vktest {

const char* ToString(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::kUpstreamPool: return "proposed-pool";
    case MemoryKind::kHarnessBuffer: return "harness-buffer";
    case MemoryKind::kSystem: return "system";
    case MemoryKind::kSplit: return "split";
  }
  return "?";
}

std::string InputPlacement::Describe() const {
  std::string text = ToString(memory);
  if (memory == MemoryKind::kSystem || memory == MemoryKind::kSplit)
    text += " stride=row+" + std::to_string(stride_padding) + " offset=" + std::to_string(offset);
  return text;
}

}  // namespace vktest
