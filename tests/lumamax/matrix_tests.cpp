// The matrix property decides which RGB pixel is the brightest (and the darkest): three crafted
// colours each win under exactly one matrix, by a margin of about 2% luma, so a wrong or ignored
// matrix moves the reported position. YUV and GRAY8 luma is the Y byte whatever the matrix.
#include <string>

#include "common/analysis/check_test.h"
#include "common/analysis/formats.h"
#include "common/analysis/matrix_checks.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "lumamax_case.h"
#include "tcases.h"
#include "verify.h"

namespace lumamax_test {
namespace {

using analysis_test::kFormats;
using reference::Matrix;

struct Crafted {
  Matrix wins_under;
  uint8_t r, g, b;
  Position bright;  // where the colour is placed
  Position dark;    // where its complement (255 - r, 255 - g, 255 - b) is placed
};

// Found by searching the RGB cube for the largest smallest margin; with kr/kg/kb the integer
// weights, e.g. bt601 L: 10035485 (A) > 9694725 (C) > 8504005 (B), bt709: B > C > A, bt2020:
// C > A > B. A complement's L is 255 * 65536 minus the colour's, so complements order the other
// way round and the winner's complement is the darkest pixel.
const Crafted kCrafted[] = {
    {Matrix::kBt601, 245, 105, 160, {2, 1}, {1, 3}},
    {Matrix::kBt709, 40, 190, 55, {6, 3}, {7, 1}},
    {Matrix::kBt2020, 230, 130, 25, {4, 0}, {0, 2}},
};

constexpr int kWidth = 9;
constexpr int kHeight = 5;

// Mid grey (L = 128 * 65536, between the crafted colours and their complements) with random
// alpha/x bytes, and the crafted pixels.
TestFrame CraftedFrame(GstVideoFormat format, std::mt19937& rng) {
  TestFrame frame = NewTestFrame(format, kWidth, kHeight);
  FillRandom(frame, rng, 128, 128);
  for (const Crafted& c : kCrafted) {
    SetRgb(frame, c.bright.x, c.bright.y, c.r, c.g, c.b);
    SetRgb(frame, c.dark.x, c.dark.y, 255 - c.r, 255 - c.g, 255 - c.b);
  }
  return frame;
}

// The frame of the shared matrix-change test: the crafted frame in BGRx.
TestFrame MatrixChangeFrame(std::mt19937& rng, const std::string&) {
  return CraftedFrame(GST_VIDEO_FORMAT_BGRx, rng);
}

const Crafted& WinnerUnder(Matrix matrix) {
  for (const Crafted& c : kCrafted) {
    if (c.wins_under == matrix) return c;
  }
  g_assert_not_reached();
  return kCrafted[0];
}

}  // namespace

GST_START_TEST(test_matrix_selects_pixel) {
  const Matrix matrix = static_cast<Matrix>(__i__);
  const std::string name = std::string("matrix ") + reference::Nick(matrix);
  std::mt19937 rng = vktest::RngFor(name);
  lumamax_ref::Params params;
  params.matrix = matrix;
  params.count = 3;
  AnalysisStream stream(params);
  const Crafted& winner = WinnerUnder(matrix);
  for (GstVideoFormat format : kFormats) {
    if (lumamax_ref::IsRgb(format)) {
      stream.Push(CraftedFrame(format, rng));
      const lumamax_ref::Result& expected = *stream.pushed().back().expected;
      fail_unless(expected.max.x == winner.bright.x && expected.max.y == winner.bright.y &&
                      expected.min.x == winner.dark.x && expected.min.y == winner.dark.y,
                  "test data: %s: the crafted pixels do not separate the matrices",
                  stream.pushed().back().description.c_str());
    } else {
      // The matrix must not change anything here; the reference ignores it.
      stream.Push(RandomFrame(format, kWidth, kHeight, rng));
    }
  }
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

TCase* MatrixTCase() {
  TCase* tcase = vktest::NewTCase("matrix", 60);
  tcase_add_loop_test(tcase, test_matrix_selects_pixel, 0, 3);
  analysis_test::AddCheckTest<analysis_test::MatrixChangeWhilePlaying<kLumamaxCase, MatrixChangeFrame>>(
      tcase);
  return tcase;
}

}  // namespace lumamax_test
