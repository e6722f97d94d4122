// Test cases of the lumamax suite, one group per file; test_lumamax.cpp assembles them.
#pragma once

#include <gst/check/gstcheck.h>

namespace lumamax_test {

TCase* ReferenceTCase();    // the CPU reference against hand-computed values (no element)
TCase* ElementTCase();      // registration, pad templates, property specs, device-name
TCase* FormatTCase();       // every format x odd sizes x memory layouts vs the reference
TCase* MatrixTCase();       // the matrix property decides which RGB pixel is brightest
TCase* RoiTCase();          // offset, clamped, one-pixel and empty regions of interest
TCase* PeaksTCase();        // count and min-distance against the greedy reference
TCase* StreamTCase();       // timestamps, message order vs EOS, flushing, property changes
TCase* FrameKernelTCase();  // count = 1 by the frame kernel: odd ROIs and strides, large frames, ties
TCase* LightTCase();  // HDR light statistics (PQ, HLG) vs the reference, levels across frames and flushes

}  // namespace lumamax_test
