// Test cases of the histogram suite, one group per file; test_histogram.cpp assembles them.
#pragma once

#include <gst/check/gstcheck.h>

namespace histogram_test {

TCase* ReferenceTCase();  // the CPU reference against hand-computed values (no element)
TCase* ElementTCase();    // registration, pad templates, property specs, device-name
TCase* FormatTCase();     // every format x odd sizes x memory layouts vs the reference
TCase* BinsTCase();       // bins 256, 64, 10, 1, 1 024, 65 536 on packed, planar, semi-planar, deep formats
TCase* RoiTCase();        // offset, clamped, one-pixel and odd regions (chroma rounding); empty ROI
TCase* SolidTCase();      // one colour everywhere: every histogram is one full bin (up to 1080p)
TCase* Fast8TCase();      // 256 bins of 8-bit samples: odd regions and strides, frames of many tiles
TCase* MatrixTCase();     // the matrix property and round-half-up of RGB luma
TCase* StreamTCase();     // timestamps, message order vs EOS, flushing, property changes
TCase* DrawTCase();       // draw: only the corner changes; the exact graph at odd sizes; while PLAYING
TCase* OpenCvTCase();     // the deep formats' luma histograms against OpenCV's calcHist

}  // namespace histogram_test
