// The matrix property: the luma histogram of RGB frames follows its weights, rounded half up in
// exact integer arithmetic; YUV and GRAY8 luma is the Y plane whatever the matrix.
#include <string>
#include <vector>

#include "common/analysis/check_test.h"
#include "common/analysis/formats.h"
#include "common/analysis/matrix_checks.h"
#include "common/input_placement.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "frames.h"
#include "histogram_case.h"
#include "tcases.h"
#include "verify.h"

namespace histogram_test {
namespace {

using analysis_test::kFormats;
using reference::Matrix;

constexpr Matrix kMatrices[] = {Matrix::kBt601, Matrix::kBt709, Matrix::kBt2020};

// Every colour whose weighted sum under `matrix` lies within one unit (of 1/65536) of a half:
// remainders 32767, 32768 and 32769. Floating-point weights, truncation or rounding half to even
// put some of them into the neighbouring luma bin. About 770 colours per matrix.
std::vector<Colour> ColoursNearHalf(Matrix matrix) {
  const reference::Weights w = reference::WeightsOf(matrix);
  std::vector<Colour> colours;
  for (int r = 0; r < 256; ++r) {
    for (int g = 0; g < 256; ++g) {
      for (int b = 0; b < 256; ++b) {
        const int64_t fraction = (w.kr * r + w.kg * g + w.kb * b) & 0xffff;
        if (fraction >= 32767 && fraction <= 32769) {
          colours.push_back(Colour{uint8_t(r), uint8_t(g), uint8_t(b), 255});
        }
      }
    }
  }
  return colours;
}

// A frame of `format` holding `colours` pixel by pixel (cycling), random alpha/x bytes.
TestFrame ColourFrame(GstVideoFormat format, const std::vector<Colour>& colours, std::mt19937& rng) {
  constexpr int kWidth = 41;  // odd, and not dividing the colour count
  const int height = static_cast<int>((colours.size() + kWidth - 1) / kWidth);
  TestFrame frame = RandomFrame(format, kWidth, height, rng);
  for (int i = 0; i < kWidth * height; ++i) {
    const Colour& colour = colours[i % colours.size()];
    for (int c = 0; c < 3; ++c) SetSample(frame, c, i % kWidth, i / kWidth, colour[c]);
  }
  return frame;
}

// The luma histogram of `frame` under `matrix`, by the reference.
std::vector<guint64> LumaUnder(const TestFrame& frame, Matrix matrix) {
  histogram_ref::Params params;
  params.matrix = matrix;
  return histogram_ref::Analyze(ViewOf(frame), params)->Find(histogram_ref::Channel::kLuma)->counts;
}

// The frame tests the matrix only if its luma histogram differs under every pair of matrices.
void ExpectMatrixMatters(const TestFrame& frame, const std::string& name) {
  const std::vector<guint64> bt601 = LumaUnder(frame, Matrix::kBt601);
  const std::vector<guint64> bt709 = LumaUnder(frame, Matrix::kBt709);
  const std::vector<guint64> bt2020 = LumaUnder(frame, Matrix::kBt2020);
  fail_unless(bt601 != bt709 && bt709 != bt2020 && bt601 != bt2020,
              "test data: %s: the matrices give equal luma histograms", WithSeed(name).c_str());
}

// The frame of the shared matrix-change test: random BGRx bytes, whose luma differs by matrix.
TestFrame MatrixChangeFrame(std::mt19937& rng, const std::string& name) {
  const TestFrame frame = RandomFrame(GST_VIDEO_FORMAT_BGRx, 33, 17, rng);
  ExpectMatrixMatters(frame, name);
  return frame;
}

}  // namespace

// Under each matrix: random frames of every RGB format (whose luma histograms differ between
// matrices), the colours nearest to a rounding half, and YUV/GRAY8 frames the matrix must not
// change.
GST_START_TEST(test_matrix_luma) {
  const Matrix matrix = kMatrices[__i__];
  const std::string name = std::string("matrix ") + reference::Nick(matrix);
  std::mt19937 rng = vktest::RngFor(name);
  histogram_ref::Params params;
  params.matrix = matrix;
  AnalysisStream stream(params);
  const std::vector<Colour> near_half = ColoursNearHalf(matrix);
  for (GstVideoFormat format : kFormats) {
    TestFrame frame = RandomFrame(format, 33, 17, rng);
    if (histogram_ref::IsRgb(format)) {
      ExpectMatrixMatters(frame, name);
      stream.Push(frame);
      stream.Push(ColourFrame(format, near_half, rng),
                  vktest::InputPlacement{vktest::MemoryKind::kSystem, 5, 3});
    } else {
      stream.Push(frame);
    }
  }
  analysis_test::EndAndExpectStreamMatches(stream, name);
}
GST_END_TEST;

TCase* MatrixTCase() {
  TCase* tcase = vktest::NewTCase("matrix", 60);
  tcase_add_loop_test(tcase, test_matrix_luma, 0, G_N_ELEMENTS(kMatrices));
  analysis_test::AddCheckTest<analysis_test::MatrixChangeWhilePlaying<kHistogramCase, MatrixChangeFrame>>(
      tcase);
  return tcase;
}

}  // namespace histogram_test
