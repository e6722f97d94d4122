// The reference's masks are exactly OpenCV's getStructuringElement, for every shape and every odd
// width and height the element accepts (the element's outputs are then compared with both).
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "common/vktest.h"
#include "reference/morph_ref.h"
#include "tcases.h"

namespace morph_test {

GST_START_TEST(test_masks_match_opencv) {
  for (auto shape : {morph_ref::kRect, morph_ref::kCross, morph_ref::kEllipse}) {
    for (int height = 1; height <= 255; height += 2) {
      for (int width = 1; width <= 255; width += 2) {
        std::vector<uint8_t> mask = morph_ref::Mask(shape, width, height);
        const cv::Mat ours(height, width, CV_8U, mask.data());
        const cv::Mat theirs = cv::getStructuringElement(int(shape), cv::Size(width, height));
        fail_unless(cv::countNonZero((ours != 0) != (theirs != 0)) == 0,
                    "%s %dx%d: the mask differs from OpenCV's", morph_ref::ShapeNick(shape), width, height);
      }
    }
  }
}
GST_END_TEST;

TCase* MaskTCase() {
  TCase* tcase = vktest::NewTCase("mask", 120);
  tcase_add_test(tcase, test_masks_match_opencv);
  return tcase;
}

}  // namespace morph_test
