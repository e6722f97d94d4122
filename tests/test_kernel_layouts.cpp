// The kernels as compiled against what the C++ code gives them. Each kernel family's constants and
// push-constant structs are written once, in shaders/<family>_layout.h, which the shaders and the
// elements both include; this test reads the SPIR-V that glslangValidator built into the plugin
// and checks it against the C++ side of those headers:
//   - the push-constant struct: the same members, in the same order, at the offsets C++ gives
//     them (offsetof) and of the same sizes, and the same size in all (sizeof, what the elements
//     push);
//   - the specialization constants, by id: the ones each element passes, in the order it passes
//     them (KernelInfo::specialization is "value i for constant_id i");
//   - the workgroup size of the kernels that fix it, against the header constants the elements
//     dispatch with;
//   - the element size of the storage buffers the CPU writes or reads (ArrayStride).
// No Vulkan device is needed.
#include <gst/check/gstcheck.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/spirv_reflect.h"
#include "histogram.spv.h"
#include "histogram_draw.spv.h"
#include "histogram_fast8.spv.h"
#include "histogram_layout.h"
#include "light_layout.h"
#include "lumamax_frame.spv.h"
#include "lumamax_frame_subgroup.spv.h"
#include "lumamax_layout.h"
#include "lumamax_light.spv.h"
#include "lumamax_reduce.spv.h"
#include "lumamax_scan.spv.h"
#include "lumamax_scan_subgroup.spv.h"
#include "lut.spv.h"
#include "lut/table.hpp"
#include "lut_layout.h"
#include "morph_layout.h"
#include "morph_line.spv.h"
#include "morph_pack.spv.h"
#include "morph_row_table.spv.h"
#include "morph_rows.spv.h"
#include "morph_unpack.spv.h"
#include "rgb2yuv.spv.h"
#include "rgb2yuv_layout.h"

namespace {

namespace histogram = vkc::shader::histogram;
namespace lumamax = vkc::shader::lumamax;
namespace lut = vkc::shader::lut;
namespace morph = vkc::shader::morph;
namespace rgb2yuv = vkc::shader::rgb2yuv;

struct Member {
  const char* name;
  size_t offset, bytes;
};
// Every member of a C++ push-constant struct, in declaration order.
#define MEMBER(type, member)                              \
  Member {                                                \
#member, offsetof(type, member), sizeof(type::member) \
  }

struct Expected {
  const char* kernel;  // the kernels list of shaders/meson.build
  const uint32_t* spirv;
  size_t spirv_bytes;
  const char* params;  // the C++ struct
  size_t params_bytes;
  std::vector<Member> members;
  // The specialization constants the element passes, by constant_id.
  std::vector<const char*> specialization;
  // Where the kernel fixes its workgroup size: the size the element dispatches for; else 0.
  uint32_t local_size_x = 0, local_size_y = 0, local_size_z = 0;
  // Storage buffers the CPU writes or reads: binding and element size.
  std::vector<std::pair<uint32_t, uint32_t>> buffers;
};

#define KERNEL(name) #name, name##_spv, sizeof(name##_spv)
#define PARAMS(type) #type, sizeof(type)

std::vector<Expected> ExpectedKernels() {
  using lumamax::FrameParams;
  using lumamax::ReduceParams;
  using lumamax::ScanParams;
  const std::vector<Member> scan = {
      MEMBER(ScanParams, width),       MEMBER(ScanParams, height),   MEMBER(ScanParams, offset),
      MEMBER(ScanParams, stride),      MEMBER(ScanParams, roi_x0),   MEMBER(ScanParams, roi_y0),
      MEMBER(ScanParams, roi_x1),      MEMBER(ScanParams, roi_y1),   MEMBER(ScanParams, tiles_x),
      MEMBER(ScanParams, tiles),       MEMBER(ScanParams, order),    MEMBER(ScanParams, kr),
      MEMBER(ScanParams, kg),          MEMBER(ScanParams, kb),       MEMBER(ScanParams, peak),
      MEMBER(ScanParams, min_dist2),   MEMBER(ScanParams, reach),    MEMBER(ScanParams, finish),
      MEMBER(ScanParams, peak_floor),  MEMBER(ScanParams, regions),  MEMBER(ScanParams, region_base),
      MEMBER(ScanParams, rescan_rows), MEMBER(ScanParams, table),    MEMBER(ScanParams, tiles_base),
      MEMBER(ScanParams, tiles_total), MEMBER(ScanParams, shifts),   MEMBER(ScanParams, value_mask),
      MEMBER(ScanParams, max_luma),    MEMBER(ScanParams, sum_shift)};
  const std::vector<const char*> scan_spec = {"local_size_x", "local_size_y", "BPP",
                                              "RESCAN",       "SAMPLE_BYTES", "RGB"};
  // The scan's scratch and result buffers: uints the CPU reads.
  const std::vector<std::pair<uint32_t, uint32_t>> scan_buffers = {{1, 4}, {3, 4}};
  const std::vector<Member> frame = {
      MEMBER(FrameParams, width),    MEMBER(FrameParams, offset),     MEMBER(FrameParams, stride),
      MEMBER(FrameParams, x0),       MEMBER(FrameParams, y0),         MEMBER(FrameParams, x1),
      MEMBER(FrameParams, rows),     MEMBER(FrameParams, row_loads),  MEMBER(FrameParams, kr),
      MEMBER(FrameParams, kg),       MEMBER(FrameParams, kb),         MEMBER(FrameParams, peak_floor),
      MEMBER(FrameParams, partials), MEMBER(FrameParams, value_mask), MEMBER(FrameParams, max_luma),
      MEMBER(FrameParams, sum_shift)};
  const std::vector<const char*> frame_spec = {"BPP", "RGB", "ORDER", "SHIFTS"};

  using vkc::shader::light::LightParams;
  using HistogramParams = histogram::Params;
  using histogram::DrawParams;
  const std::vector<Member> histogram_members = {MEMBER(HistogramParams, offset),
                                                 MEMBER(HistogramParams, stride),
                                                 MEMBER(HistogramParams, x0),
                                                 MEMBER(HistogramParams, y0),
                                                 MEMBER(HistogramParams, x1),
                                                 MEMBER(HistogramParams, y1),
                                                 MEMBER(HistogramParams, channels),
                                                 MEMBER(HistogramParams, order),
                                                 MEMBER(HistogramParams, slots),
                                                 MEMBER(HistogramParams, luma_slot),
                                                 MEMBER(HistogramParams, kr),
                                                 MEMBER(HistogramParams, kg),
                                                 MEMBER(HistogramParams, kb),
                                                 MEMBER(HistogramParams, bins),
                                                 MEMBER(HistogramParams, groups),
                                                 MEMBER(HistogramParams, regions),
                                                 MEMBER(HistogramParams, table),
                                                 MEMBER(HistogramParams, blocks),
                                                 MEMBER(HistogramParams, shifts),
                                                 MEMBER(HistogramParams, depths),
                                                 MEMBER(HistogramParams, histogram_words)};
  // The counts and result buffers: uints the CPU reads.
  const std::vector<std::pair<uint32_t, uint32_t>> histogram_buffers = {{1, 4}, {3, 4}};
  using LutParams = lut::Params;
  using Rgb2YuvParams = rgb2yuv::Params;
  using morph::LineParams;
  using morph::PackParams;
  using morph::RowsParams;
  using morph::RowTableParams;
  using morph::UnpackParams;

  return {
      {KERNEL(lumamax_scan), PARAMS(ScanParams), scan, scan_spec, 0, 0, 0, scan_buffers},
      {KERNEL(lumamax_scan_subgroup), PARAMS(ScanParams), scan, scan_spec, 0, 0, 0, scan_buffers},
      // The frame kernel's buffers are the scan's.
      {KERNEL(lumamax_frame), PARAMS(FrameParams), frame, frame_spec, lumamax::kGroupInvocations, 1, 1,
       scan_buffers},
      {KERNEL(lumamax_frame_subgroup), PARAMS(FrameParams), frame, frame_spec, lumamax::kGroupInvocations, 1,
       1, scan_buffers},
      {KERNEL(lumamax_reduce),
       PARAMS(ReduceParams),
       {MEMBER(ReduceParams, tiles), MEMBER(ReduceParams, peak), MEMBER(ReduceParams, peak_floor),
        MEMBER(ReduceParams, regions), MEMBER(ReduceParams, table), MEMBER(ReduceParams, tiles_base),
        MEMBER(ReduceParams, tiles_total)},
       {"FULL"},
       lumamax::kGroupInvocations,
       1,
       1,
       {{1, 4}}},
      {KERNEL(lumamax_light),
       PARAMS(LightParams),
       {MEMBER(LightParams, black), MEMBER(LightParams, gain), MEMBER(LightParams, to_rgb),
        MEMBER(LightParams, x0), MEMBER(LightParams, y0), MEMBER(LightParams, x1), MEMBER(LightParams, y1),
        MEMBER(LightParams, tiles_x), MEMBER(LightParams, first), MEMBER(LightParams, offset),
        MEMBER(LightParams, stride), MEMBER(LightParams, step), MEMBER(LightParams, shifts),
        MEMBER(LightParams, subsampling), MEMBER(LightParams, value_mask)},
       {"local_size_x", "local_size_y", "SAMPLE_BYTES", "RGB", "TRANSFER"},
       0,
       0,
       0,
       // The partials: (largest, sum) float pairs the CPU reads.
       {{1, 8}}},
      {KERNEL(histogram),
       PARAMS(HistogramParams),
       histogram_members,
       {"BPP", "SAMPLE_BYTES"},
       histogram::kGroupX,
       histogram::kGroupY,
       1,
       histogram_buffers},
      // The 8-bit kernel takes histogram's push constants and buffers.
      {KERNEL(histogram_fast8),
       PARAMS(HistogramParams),
       histogram_members,
       {"BPP", "CHANNELS", "ORDER", "SLOTS", "LUMA_SLOT"},
       histogram::kFastInvocations,
       1,
       1,
       histogram_buffers},
      {KERNEL(histogram_draw),
       PARAMS(DrawParams),
       {MEMBER(DrawParams, offset), MEMBER(DrawParams, stride), MEMBER(DrawParams, top),
        MEMBER(DrawParams, width), MEMBER(DrawParams, height), MEMBER(DrawParams, channels),
        MEMBER(DrawParams, order), MEMBER(DrawParams, bins), MEMBER(DrawParams, shifts),
        MEMBER(DrawParams, depths), MEMBER(DrawParams, histogram_words)},
       {"BPP", "SAMPLE_BYTES"},
       histogram::kDrawGroupX,
       histogram::kDrawGroupY,
       1,
       {{0, 4}}},
      {KERNEL(lut),
       PARAMS(LutParams),
       {MEMBER(LutParams, domain_min), MEMBER(LutParams, scale), MEMBER(LutParams, width),
        MEMBER(LutParams, height), MEMBER(LutParams, src_offset), MEMBER(LutParams, src_stride),
        MEMBER(LutParams, dst_offset), MEMBER(LutParams, dst_stride), MEMBER(LutParams, size),
        MEMBER(LutParams, intensity)},
       {"local_size_x", "local_size_y", "BPP", "DEPTH", "ORDER", "MODE", "PACKED", "MIXED"},
       0,
       0,
       0,
       // The table: lut::kEntryFloats floats per entry, as gst/lut's readers lay it out.
       {{2, uint32_t(::lut::kEntryFloats * sizeof(float))}}},
      {KERNEL(rgb2yuv),
       PARAMS(Rgb2YuvParams),
       {MEMBER(Rgb2YuvParams, coef_y), MEMBER(Rgb2YuvParams, coef_u), MEMBER(Rgb2YuvParams, coef_v),
        MEMBER(Rgb2YuvParams, width), MEMBER(Rgb2YuvParams, height), MEMBER(Rgb2YuvParams, src_offset),
        MEMBER(Rgb2YuvParams, src_stride), MEMBER(Rgb2YuvParams, dst_offset),
        MEMBER(Rgb2YuvParams, dst_stride)},
       {"local_size_x", "local_size_y", "IN_BPP", "LAYOUT", "SUB_X", "SUB_Y", "COSITED", "BLOCK", "IN_DEPTH",
        "ALPHA_DEPTH", "OUT_DEPTH", "OUT_SHIFT", "SRC_ORDER", "DST_ORDER"}},
      {KERNEL(morph_unpack),
       PARAMS(UnpackParams),
       {MEMBER(UnpackParams, width), MEMBER(UnpackParams, height), MEMBER(UnpackParams, offset),
        MEMBER(UnpackParams, stride)},
       {"local_size_x", "local_size_y", "BPP"}},
      {KERNEL(morph_line),
       PARAMS(LineParams),
       {MEMBER(LineParams, samples), MEMBER(LineParams, count), MEMBER(LineParams, step),
        MEMBER(LineParams, line_step), MEMBER(LineParams, src_origin), MEMBER(LineParams, src_step),
        MEMBER(LineParams, src_line_step), MEMBER(LineParams, radius), MEMBER(LineParams, dilate),
        MEMBER(LineParams, combine), MEMBER(LineParams, blocks_x), MEMBER(LineParams, dst_origin),
        MEMBER(LineParams, other_origin), MEMBER(LineParams, other_step), MEMBER(LineParams, other_line_step),
        MEMBER(LineParams, keep)},
       {"local_size_x", "local_size_y", "ONE_LANE", "LANE_BITS"}},
      {KERNEL(morph_row_table),
       PARAMS(RowTableParams),
       {MEMBER(RowTableParams, width), MEMBER(RowTableParams, line_step), MEMBER(RowTableParams, src_origin),
        MEMBER(RowTableParams, src_line_step), MEMBER(RowTableParams, radius),
        MEMBER(RowTableParams, dilate)},
       {"local_size_x", "ONE_LANE", "LINE_WORDS", "LANE_BITS"}},
      {KERNEL(morph_rows),
       PARAMS(RowsParams),
       {MEMBER(RowsParams, width), MEMBER(RowsParams, height), MEMBER(RowsParams, src_origin),
        MEMBER(RowsParams, src_stride), MEMBER(RowsParams, half_w), MEMBER(RowsParams, half_h),
        MEMBER(RowsParams, dilate)},
       {"ONE_LANE", "LANE_BITS"},
       morph::kRowsGroupX,
       morph::kRowsGroupY,
       1,
       // The mask runs: a uint per mask row, written by the CPU.
       {{2, 4}}},
      {KERNEL(morph_pack),
       PARAMS(PackParams),
       {MEMBER(PackParams, width), MEMBER(PackParams, height), MEMBER(PackParams, offset),
        MEMBER(PackParams, stride), MEMBER(PackParams, keep), MEMBER(PackParams, subtract),
        MEMBER(PackParams, source_origin), MEMBER(PackParams, source_stride), MEMBER(PackParams, words)},
       {"local_size_x", "local_size_y", "BPP", "LANE_BITS"}},
  };
}

// What differs between the kernel `expected` names and its SPIR-V, one line each.
std::vector<std::string> Disagreements(const Expected& expected) {
  std::vector<std::string> problems;
  auto problem = [&](const std::string& text) {
    problems.push_back(std::string(expected.kernel) + ": " + text);
  };
  const vktest::spirv::Module module = vktest::spirv::Reflect(expected.spirv, expected.spirv_bytes);
  if (!module.error.empty()) {
    problem(module.error);
    return problems;
  }

  const vktest::spirv::Struct& push = module.push_constants;
  const std::string params = expected.params;
  const size_t members = std::max(push.members.size(), expected.members.size());
  for (size_t i = 0; i < members; ++i) {
    if (i >= push.members.size()) {
      problem("member " + std::to_string(i) + " of " + params + ", " + expected.members[i].name +
              ", is not in the shader's push constants");
      continue;
    }
    const vktest::spirv::Member& shader = push.members[i];
    if (i >= expected.members.size()) {
      problem("the shader's push constants have a member " + std::to_string(i) + ", " + shader.name +
              " at byte " + std::to_string(shader.offset) + ", which this test's list of " + params +
              " does not name");
      continue;
    }
    const Member& cpp = expected.members[i];
    if (shader.name != cpp.name)
      problem("member " + std::to_string(i) + " is " + shader.name + " in the shader and " + cpp.name +
              " in " + params);
    if (shader.offset != cpp.offset)
      problem(params + "::" + cpp.name + " is at byte " + std::to_string(cpp.offset) + " in C++ and " +
              std::to_string(shader.offset) + " in the shader");
    if (shader.bytes != cpp.bytes)
      problem(params + "::" + cpp.name + " is " + std::to_string(cpp.bytes) + " bytes in C++ and " +
              std::to_string(shader.bytes) + " in the shader");
  }
  // The C++ members listed here cover the struct without gaps (no member left out of the list; a
  // struct that std430 lays out as C++ does has no padding).
  size_t end = 0;
  for (const Member& cpp : expected.members) {
    if (cpp.offset != end)
      problem(params + " has bytes " + std::to_string(end) + ".." + std::to_string(cpp.offset) + " before " +
              cpp.name + " that no member listed here holds");
    end = cpp.offset + cpp.bytes;
  }
  if (end != expected.params_bytes)
    problem(params + " has bytes " + std::to_string(end) + ".." + std::to_string(expected.params_bytes) +
            " after its last member listed here");
  if (push.bytes != expected.params_bytes)
    problem("the shader's push constants (" + push.name + ") end at byte " + std::to_string(push.bytes) +
            ", " + params + " is " + std::to_string(expected.params_bytes) + " bytes");

  std::map<uint32_t, std::string> spec;
  for (uint32_t id = 0; id < expected.specialization.size(); ++id) spec[id] = expected.specialization[id];
  if (module.spec_constants != spec) {
    auto list = [](const std::map<uint32_t, std::string>& ids) {
      std::string text;
      for (const auto& [id, name] : ids) text += (text.empty() ? "" : ", ") + std::to_string(id) + " " + name;
      return text.empty() ? std::string("none") : text;
    };
    problem("specialization constants " + list(module.spec_constants) +
            " in the shader, the element passes " + list(spec));
  }

  if (expected.local_size_x != 0) {
    const auto& size = module.local_size;
    if (size[0] != expected.local_size_x || size[1] != expected.local_size_y ||
        size[2] != expected.local_size_z)
      problem("the workgroup is " + std::to_string(size[0]) + "x" + std::to_string(size[1]) + "x" +
              std::to_string(size[2]) + ", the element dispatches for " +
              std::to_string(expected.local_size_x) + "x" + std::to_string(expected.local_size_y) + "x" +
              std::to_string(expected.local_size_z));
  }

  for (const auto& [binding, bytes] : expected.buffers) {
    auto stride = module.buffer_strides.find(binding);
    if (stride == module.buffer_strides.end())
      problem("no storage buffer array at binding " + std::to_string(binding));
    else if (stride->second != bytes)
      problem("binding " + std::to_string(binding) + " holds elements of " + std::to_string(stride->second) +
              " bytes, the C++ side " + std::to_string(bytes));
  }
  return problems;
}

std::string Join(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += "\n  " + line;
  return text;
}

}  // namespace

GST_START_TEST(test_kernels_match_their_layout_headers) {
  std::vector<std::string> problems;
  for (const Expected& expected : ExpectedKernels()) {
    std::vector<std::string> found = Disagreements(expected);
    problems.insert(problems.end(), found.begin(), found.end());
  }
  fail_unless(problems.empty(),
              "the compiled kernels disagree with the C++ side of shaders/*_layout.h "
              "(tests/test_kernel_layouts.cpp):%s",
              Join(problems).c_str());
}
GST_END_TEST;

// The reader itself, on a kernel whose layout is known: it must see what it checks, or the test
// above would pass on nothing.
GST_START_TEST(test_reader_sees_the_declarations) {
  const vktest::spirv::Module scan = vktest::spirv::Reflect(lumamax_scan_spv, sizeof(lumamax_scan_spv));
  fail_unless(scan.error.empty(), "%s", scan.error.c_str());
  fail_unless_equals_string(scan.push_constants.name.c_str(), "ScanParams");
  fail_unless_equals_int(scan.push_constants.members.size(), 29);
  fail_unless_equals_string(scan.push_constants.members[28].name.c_str(), "sum_shift");
  fail_unless_equals_int(scan.push_constants.members[28].offset, 112);
  fail_unless_equals_int(scan.push_constants.bytes, 116);
  fail_unless_equals_int(scan.spec_constants.size(), 6);
  fail_unless_equals_string(scan.spec_constants.at(0).c_str(), "local_size_x");
  fail_unless_equals_string(scan.spec_constants.at(3).c_str(), "RESCAN");
  fail_unless_equals_int(scan.buffer_strides.at(2), 16);  // the uvec4 view of the frame

  const vktest::spirv::Module table = vktest::spirv::Reflect(lut_spv, sizeof(lut_spv));
  fail_unless_equals_int(table.push_constants.members[1].offset, 16);  // vec4 scale
  fail_unless_equals_int(table.push_constants.bytes, 64);
  const vktest::spirv::Module yuv = vktest::spirv::Reflect(rgb2yuv_spv, sizeof(rgb2yuv_spv));
  fail_unless_equals_int(yuv.push_constants.members[7].bytes, 12);   // uint dst_offset[3]
  fail_unless_equals_int(yuv.push_constants.members[0].bytes, 16);   // vec4 coef_y
  fail_unless_equals_int(yuv.push_constants.members[3].offset, 48);  // uint width, after three vec4
  const vktest::spirv::Module rows = vktest::spirv::Reflect(morph_rows_spv, sizeof(morph_rows_spv));
  fail_unless(rows.local_size == (std::array<uint32_t, 3>{64, 4, 1}));

  const uint32_t not_spirv[] = {1, 2, 3, 4, 5};
  fail_if(vktest::spirv::Reflect(not_spirv, sizeof(not_spirv)).error.empty());
}
GST_END_TEST;

static Suite* kernel_layouts_suite() {
  Suite* suite = suite_create("kernel_layouts");
  TCase* tcase = tcase_create("kernel_layouts");
  suite_add_tcase(suite, tcase);
  tcase_add_test(tcase, test_kernels_match_their_layout_headers);
  tcase_add_test(tcase, test_reader_sees_the_declarations);
  return suite;
}

GST_CHECK_MAIN(kernel_layouts);
