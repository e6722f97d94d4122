// A slot's command buffer submitted again for a frame whose commands are the same (commands.hpp):
// only then, with what the GPU does right either way. A frame with other commands, an object of the
// device destroyed meanwhile (whose handle a new one may take), and a descriptor set that now holds
// other buffers each make the slot record anew; a set given the same buffers is left alone.
#include <cstring>
#include <memory>
#include <random>
#include <string>

#include "histogram_draw.spv.h"
#include "histogram_layout.h"
#include "vk/commands.hpp"
#include "vk/device.hpp"
#include "vk/kernel.hpp"
#include "vk/memory.hpp"
#include "vk/submit.hpp"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

#include "common/runtime_test.h"
#include "common/test_seed.h"
#include "common/vktest.h"

namespace {

constexpr uint64_t kSecondNs = 1'000'000'000;
constexpr vk::DeviceSize kWords = 1024;  // per slot

// Fills slot `slot`'s words of `buffer` with `value` on the GPU and checks them from the CPU.
void FillAndCheck(vkc::CommandRing& ring, const vkc::Buffer& buffer, uint32_t slot, uint32_t value,
                  const std::string& seed) {
  fail_unless(ring.wait(slot, 10 * kSecondNs) == vkc::Completion::kDone, "slot %u still busy", slot);
  vkc::Commands cmd = ring.begin(slot);
  cmd.fillBuffer(buffer.handle(), slot * kWords * 4, kWords * 4, value);
  vk::MemoryBarrier to_host{.srcAccessMask = vk::AccessFlagBits::eTransferWrite,
                            .dstAccessMask = vk::AccessFlagBits::eHostRead};
  cmd.pipelineBarrier(vk::PipelineStageFlagBits::eTransfer, vk::PipelineStageFlagBits::eHost, {}, to_host,
                      nullptr, nullptr);
  ring.submit(slot);
  fail_unless(ring.wait(slot, 10 * kSecondNs) == vkc::Completion::kDone, "fill of slot %u not done", slot);
  const auto* words = reinterpret_cast<const uint32_t*>(buffer.mapped()) + slot * kWords;
  for (vk::DeviceSize i = 0; i < kWords; ++i)
    fail_unless(words[i] == value, "slot %u word %u: %08x, filled with %08x (%s)", slot, unsigned(i),
                words[i], value, seed.c_str());
}

}  // namespace

GST_START_TEST(test_same_commands_submitted_again) {
  auto device = vktest::AnyDevice();
  std::mt19937 rng = vktest::RngFor("same commands");
  const std::string seed = vktest::SeedDescription();
  auto buffer = vkc::Buffer::create_host(device, 2 * kWords * 4, "test reuse");
  vkc::CommandRing ring(device, 2, "test reuse", 0);
  const uint32_t first = rng(), second = first ^ 0x5a5a5a5au;
  for (uint32_t frame = 0; frame < 12; ++frame)
    FillAndCheck(ring, *buffer, frame % 2, frame < 6 ? first : second, seed);
  fail_unless_equals_int(ring.submissions(), 12);
  // Recorded: each slot's first frame, and its first frame with the new value.
  fail_unless_equals_int(ring.recordings(), 4);
  vktest::AssertNoValidationErrors();
}
GST_END_TEST;

GST_START_TEST(test_a_destroyed_object_records_again) {
  auto device = vktest::AnyDevice();
  std::mt19937 rng = vktest::RngFor("destroyed object");
  const std::string seed = vktest::SeedDescription();
  auto buffer = vkc::Buffer::create_host(device, kWords * 4, "test reuse");
  vkc::CommandRing ring(device, 1, "test reuse", 0);
  const uint32_t value = rng();
  FillAndCheck(ring, *buffer, 0, value, seed);
  FillAndCheck(ring, *buffer, 0, value, seed);
  fail_unless_equals_int(ring.recordings(), 1);
  // Any buffer of the device destroyed: a new one may hold its handle, which the same log names.
  vkc::Buffer::create_device(device, 4096, "test reuse, destroyed").reset();
  FillAndCheck(ring, *buffer, 0, value, seed);
  fail_unless_equals_int(ring.recordings(), 2);
  FillAndCheck(ring, *buffer, 0, value, seed);
  fail_unless_equals_int(ring.recordings(), 2);
  vktest::AssertNoValidationErrors();
}
GST_END_TEST;

GST_START_TEST(test_descriptor_set_contents_tell_logs_apart) {
  auto device = vktest::AnyDevice();
  // Any kernel of two bindings: its dispatches are written down, not run.
  vkc::Kernel kernel(device,
                     vkc::KernelInfo{.name = "test reuse",
                                     .spirv = histogram_draw_spv,
                                     .spirv_bytes = sizeof(histogram_draw_spv),
                                     .bindings = 2,
                                     .push_constant_bytes = sizeof(vkc::shader::histogram::DrawParams),
                                     .specialization = {4, 1}});
  auto a = vkc::Buffer::create_device(device, 4096, "test reuse a");
  auto b = vkc::Buffer::create_device(device, 4096, "test reuse b");
  const vkc::shader::histogram::DrawParams params{};
  auto log_after = [&](vk::Buffer first, vk::Buffer second) {
    kernel.update(0, {{first}, {second}});
    vkc::CommandLog log;
    kernel.dispatch(vkc::Commands(log), 0, &params, 1, 1);
    return log;
  };
  const vkc::CommandLog ab = log_after(a->handle(), b->handle());
  fail_unless(log_after(a->handle(), b->handle()) == ab, "the same buffers again: a log of its own");
  fail_if(log_after(b->handle(), a->handle()) == ab, "other buffers in the set: the same log");
  const vkc::CommandLog ba = log_after(b->handle(), a->handle());
  vkc::Buffer::create_device(device, 4096, "test reuse, destroyed").reset();
  fail_if(log_after(b->handle(), a->handle()) == ba, "a buffer destroyed since: the same log");
  vktest::AssertNoValidationErrors();
}
GST_END_TEST;

static Suite* command_reuse_suite() {
  Suite* suite = suite_create("command_reuse");
  TCase* tc = tcase_create("command_reuse");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_same_commands_submitted_again);
  tcase_add_test(tc, test_a_destroyed_object_records_again);
  tcase_add_test(tc, test_descriptor_set_contents_tell_logs_apart);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(int argc, char** argv) {
  return vktest::RunRuntimeSuite(&argc, &argv, command_reuse_suite(), "command_reuse", __FILE__);
}
