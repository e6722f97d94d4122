#include "common/spirv_reflect.h"

#include <utility>

namespace vktest::spirv {

namespace {

// The opcodes, decorations and enumerants read here (SPIR-V specification, section 3).
enum Op : uint32_t {
  kOpName = 5,
  kOpMemberName = 6,
  kOpExecutionMode = 16,
  kOpTypeInt = 21,
  kOpTypeFloat = 22,
  kOpTypeVector = 23,
  kOpTypeArray = 28,
  kOpTypeRuntimeArray = 29,
  kOpTypeStruct = 30,
  kOpTypePointer = 32,
  kOpConstant = 43,
  kOpSpecConstantTrue = 48,
  kOpSpecConstantFalse = 49,
  kOpSpecConstant = 50,
  kOpSpecConstantComposite = 51,
  kOpVariable = 59,
  kOpDecorate = 71,
  kOpMemberDecorate = 72,
};
enum Decoration : uint32_t {
  kSpecId = 1,
  kArrayStride = 6,
  kBuiltIn = 11,
  kBinding = 33,
  kDescriptorSet = 34,
  kOffset = 35,
};
constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kExecutionModeLocalSize = 17;
constexpr uint32_t kBuiltInWorkgroupSize = 25;
constexpr uint32_t kStorageClassPushConstant = 9;
constexpr uint32_t kStorageClassStorageBuffer = 12;

// A literal string: UTF-8 bytes, nul-terminated, in whole words.
std::string LiteralString(const uint32_t* words, size_t count) {
  std::string text;
  for (size_t i = 0; i < count; ++i)
    for (int b = 0; b < 4; ++b) {
      const char c = char((words[i] >> (8 * b)) & 0xff);
      if (c == '\0') return text;
      text += c;
    }
  return text;
}

class Reader {
 public:
  Module Read(const uint32_t* words, size_t count) {
    Module module;
    if (count < 5 || words[0] != kMagic) {
      module.error = "not SPIR-V (no magic number)";
      return module;
    }
    for (size_t at = 5; at < count;) {
      const uint32_t length = words[at] >> 16, opcode = words[at] & 0xffff;
      if (length == 0 || at + length > count) {
        module.error = "instruction at word " + std::to_string(at) + " runs past the end";
        return module;
      }
      Take(opcode, words + at + 1, length - 1);
      at += length;
    }
    Resolve(module);
    return module;
  }

 private:
  struct Instruction {
    uint32_t opcode;
    std::vector<uint32_t> operands;  // after the result id
  };

  void Take(uint32_t opcode, const uint32_t* op, size_t n) {
    switch (opcode) {
      case kOpName:
        if (n >= 1) names_[op[0]] = LiteralString(op + 1, n - 1);
        break;
      case kOpMemberName:
        if (n >= 2) member_names_[{op[0], op[1]}] = LiteralString(op + 2, n - 2);
        break;
      case kOpExecutionMode:
        if (n >= 5 && op[1] == kExecutionModeLocalSize) local_size_ = {op[2], op[3], op[4]};
        break;
      case kOpDecorate:
        if (n >= 3) decorations_[{op[0], op[1]}] = op[2];
        break;
      case kOpMemberDecorate:
        if (n >= 4 && op[2] == kOffset) offsets_[{op[0], op[1]}] = op[3];
        break;
      case kOpTypeInt:
      case kOpTypeFloat:
      case kOpTypeVector:
      case kOpTypeArray:
      case kOpTypeRuntimeArray:
      case kOpTypeStruct:
      case kOpTypePointer:
        // Types: the result id first.
        if (n >= 1) types_[op[0]] = Instruction{opcode, std::vector<uint32_t>(op + 1, op + n)};
        break;
      case kOpConstant:
        if (n >= 3) constants_[op[1]] = op[2];
        break;
      case kOpSpecConstantTrue:
      case kOpSpecConstantFalse:
      case kOpSpecConstant:
        if (n >= 2) spec_ids_.push_back(op[1]);
        break;
      case kOpSpecConstantComposite:
        if (n >= 2) composites_[op[1]] = std::vector<uint32_t>(op + 2, op + n);
        break;
      case kOpVariable:
        if (n >= 3) variables_.push_back({op[1], {op[0], op[2]}});
        break;
      default: break;
    }
  }

  const uint32_t* Decoration(uint32_t id, uint32_t decoration) const {
    auto it = decorations_.find({id, decoration});
    return it == decorations_.end() ? nullptr : &it->second;
  }

  // The bytes a value of type `id` takes in a block (runtime arrays: none).
  uint32_t Size(uint32_t id, int depth = 0) const {
    auto it = types_.find(id);
    if (it == types_.end() || depth > 16) return 0;
    const Instruction& type = it->second;
    switch (type.opcode) {
      case kOpTypeInt:
      case kOpTypeFloat: return type.operands.empty() ? 0 : type.operands[0] / 8;
      case kOpTypeVector:
        return type.operands.size() < 2 ? 0 : Size(type.operands[0], depth + 1) * type.operands[1];
      case kOpTypeArray: {
        const uint32_t* stride = Decoration(id, kArrayStride);
        auto length = type.operands.size() < 2 ? constants_.end() : constants_.find(type.operands[1]);
        return stride && length != constants_.end() ? *stride * length->second : 0;
      }
      case kOpTypeStruct: return Describe(id, depth).bytes;
      default: return 0;
    }
  }

  Struct Describe(uint32_t id, int depth = 0) const {
    Struct result;
    auto name = names_.find(id);
    if (name != names_.end()) result.name = name->second;
    auto type = types_.find(id);
    if (type == types_.end() || type->second.opcode != kOpTypeStruct) return result;
    const std::vector<uint32_t>& members = type->second.operands;
    for (uint32_t m = 0; m < members.size(); ++m) {
      Member member;
      auto member_name = member_names_.find({id, m});
      if (member_name != member_names_.end()) member.name = member_name->second;
      auto offset = offsets_.find({id, m});
      if (offset != offsets_.end()) member.offset = offset->second;
      member.bytes = Size(members[m], depth + 1);
      result.members.push_back(member);
      if (member.offset + member.bytes > result.bytes) result.bytes = member.offset + member.bytes;
    }
    return result;
  }

  // The type a pointer type points to, or 0.
  uint32_t Pointee(uint32_t pointer) const {
    auto it = types_.find(pointer);
    return it != types_.end() && it->second.opcode == kOpTypePointer && it->second.operands.size() == 2
               ? it->second.operands[1]
               : 0;
  }

  void Resolve(Module& module) const {
    for (const auto& [id, variable] : variables_) {
      const auto [pointer_type, storage_class] = variable;
      const uint32_t block = Pointee(pointer_type);
      if (storage_class == kStorageClassPushConstant) {
        Struct push = Describe(block);
        auto type = types_.find(block);
        // The block { SomeParams p; }: the struct inside it.
        if (push.members.size() == 1 && type != types_.end() && !type->second.operands.empty()) {
          auto inner = types_.find(type->second.operands[0]);
          if (inner != types_.end() && inner->second.opcode == kOpTypeStruct && push.members[0].offset == 0)
            push = Describe(type->second.operands[0]);
        }
        module.push_constants = push;
      } else if (storage_class == kStorageClassStorageBuffer) {
        const uint32_t* binding = Decoration(id, kBinding);
        const uint32_t* set = Decoration(id, kDescriptorSet);
        auto type = types_.find(block);
        if (!binding || (set && *set != 0) || type == types_.end() || type->second.operands.empty()) continue;
        const uint32_t last = type->second.operands.back();
        auto array = types_.find(last);
        const uint32_t* stride = Decoration(last, kArrayStride);
        if (array != types_.end() && array->second.opcode == kOpTypeRuntimeArray && stride)
          module.buffer_strides[*binding] = *stride;
      }
    }
    // The workgroup size's specialization constants are the parts of the WorkgroupSize built-in.
    std::map<uint32_t, std::string> parts;
    for (const auto& [id, constituents] : composites_) {
      const uint32_t* builtin = Decoration(id, kBuiltIn);
      if (!builtin || *builtin != kBuiltInWorkgroupSize) continue;
      static const char* const kNames[] = {"local_size_x", "local_size_y", "local_size_z"};
      for (size_t i = 0; i < constituents.size() && i < 3; ++i) parts[constituents[i]] = kNames[i];
    }
    for (uint32_t id : spec_ids_) {
      const uint32_t* spec_id = Decoration(id, kSpecId);
      if (!spec_id) continue;
      auto name = names_.find(id);
      auto part = parts.find(id);
      module.spec_constants[*spec_id] = name != names_.end()  ? name->second
                                        : part != parts.end() ? part->second
                                                              : "(unnamed)";
    }
    module.local_size = local_size_;
  }

  std::map<uint32_t, std::string> names_;
  std::map<std::pair<uint32_t, uint32_t>, std::string> member_names_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> decorations_;  // (id, decoration): first operand
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> offsets_;      // (struct, member)
  std::map<uint32_t, Instruction> types_;
  std::map<uint32_t, uint32_t> constants_;
  std::vector<uint32_t> spec_ids_;
  std::map<uint32_t, std::vector<uint32_t>> composites_;
  std::vector<std::pair<uint32_t, std::pair<uint32_t, uint32_t>>> variables_;  // id, (type, storage)
  std::array<uint32_t, 3> local_size_ = {0, 0, 0};
};

}  // namespace

Module Reflect(const uint32_t* words, size_t bytes) {
  return Reader().Read(words, bytes / sizeof(uint32_t));
}

}  // namespace vktest::spirv
