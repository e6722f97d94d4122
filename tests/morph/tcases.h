// Test cases of the morph suite, one group per file; test_morph.cpp assembles them.
#pragma once

#include <gst/check/gstcheck.h>

namespace morph_test {

TCase* ElementTCase();     // registration, pad templates, properties, refused even sizes
TCase* MaskTCase();        // the reference's masks against OpenCV's, every shape and size
TCase* OperationTCase();   // every operation x shape x mask size x iterations, GRAY8
TCase* FormatTCase();      // every format, alpha/padding and chroma kept
TCase* MemoryTCase();      // input memory kinds and padded strides
TCase* PropertyTCase();    // properties changed while PLAYING apply from the next frame
TCase* LargeFrameTCase();  // a few large frames and masks

}  // namespace morph_test
