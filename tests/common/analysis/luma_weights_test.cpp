#include "luma_weights_test.h"

#include <gst/check/gstcheck.h>

#include <cstdint>

#include "reference/luma_roi.h"

namespace analysis_test {

void LumaWeightsTest::Run() {
  // round(K * 65536) for Kr and Kb, e.g. round(0.299 * 65536) = round(19595.264); Kg takes the
  // rest so that the weights sum to 65536.
  const struct {
    reference::Matrix matrix;
    int64_t kr, kg, kb;
  } cases[] = {
      {reference::Matrix::kBt601, 19595, 38470, 7471},
      {reference::Matrix::kBt709, 13933, 46871, 4732},
      {reference::Matrix::kBt2020, 17216, 44434, 3886},
  };
  for (const auto& c : cases) {
    const reference::Weights w = reference::WeightsOf(c.matrix);
    fail_unless(w.kr == c.kr && w.kg == c.kg && w.kb == c.kb,
                "%s: weights %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT,
                reference::Nick(c.matrix), static_cast<gint64>(w.kr), static_cast<gint64>(w.kg),
                static_cast<gint64>(w.kb));
  }
}

}  // namespace analysis_test
