// Every operation with every shape over mask sizes that are square, wider than high, one row,
// one column, the largest, and with iterations, on GRAY8 frames of odd sizes.
#include <string>
#include <vector>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "morph_stream.h"
#include "tcases.h"

namespace morph_test {
namespace {

using morph_ref::MorphSpec;

const int kMasks[][2] = {{1, 1},  {3, 3},  {5, 3},     {3, 7},   {1, 9},   {9, 1},  {15, 15},
                         {31, 5}, {7, 31}, {255, 255}, {255, 1}, {1, 255}, {97, 61}};
const int kIteratedMasks[][2] = {{3, 3}, {5, 3}, {1, 5}, {7, 9}};
const int kIterations[] = {2, 3, 5};
const int kFrames[][2] = {{97, 61}, {40, 30}, {2, 3}, {1, 1}, {64, 5}, {5, 70}};
// The most iterations: of a small mask, and of the largest on a small frame (windows wider than
// the frame).
const int kMostIterations = 64;
const int kExtremes[][4] = {{3, 3, 40, 30}, {255, 255, 16, 12}};  // mask, frame

}  // namespace

GST_START_TEST(test_operation) {
  const auto operation = morph_ref::Operation(__i__);
  const std::string name = std::string("operation ") + morph_ref::OperationNick(operation);
  std::mt19937 rng = vktest::RngFor(name);
  std::vector<std::pair<TestFrame, MorphSpec>> cases;
  size_t frame = 0;
  auto next_frame = [&] {
    const auto& size = kFrames[frame++ % G_N_ELEMENTS(kFrames)];
    return RandomFrame(GST_VIDEO_FORMAT_GRAY8, size[0], size[1], rng);
  };
  for (auto shape : {morph_ref::kRect, morph_ref::kCross, morph_ref::kEllipse}) {
    for (const auto& mask : kMasks)
      cases.push_back({next_frame(), MorphSpec{operation, shape, mask[0], mask[1], 1}});
    for (const auto& mask : kIteratedMasks)
      for (int n : kIterations)
        cases.push_back({next_frame(), MorphSpec{operation, shape, mask[0], mask[1], n}});
    for (const auto& extreme : kExtremes)
      cases.push_back({RandomFrame(GST_VIDEO_FORMAT_GRAY8, extreme[2], extreme[3], rng),
                       MorphSpec{operation, shape, extreme[0], extreme[1], kMostIterations}});
  }
  RunAndVerify(name, cases);
}
GST_END_TEST;

TCase* OperationTCase() {
  TCase* tcase = vktest::NewTCase("operation", 300);
  tcase_add_loop_test(tcase, test_operation, morph_ref::kErode, morph_ref::kBlackhat + 1);
  return tcase;
}

}  // namespace morph_test
