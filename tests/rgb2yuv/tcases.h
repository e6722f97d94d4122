// Test cases of the rgb2yuv suite, one group per file; test_rgb2yuv.cpp assembles them.
#pragma once

#include <gst/check/gstcheck.h>

namespace rgb2yuv_test {

TCase* MatrixTCase();        // every format pair x colorimetry x siting vs the CPU reference
TCase* DeepTCase();          // 10-, 12- and 16-bit inputs and outputs vs the CPU reference
TCase* FfmpegTCase();        // deep outputs vs ffmpeg's swscale
TCase* MemoryTCase();        // input buffers from the proposed pool, system, split and device memory
TCase* VideoconvertTCase();  // agreement with videoconvert
TCase* ColorimetryTCase();   // unset colorimetry: GStreamer's defaults
TCase* StreamTCase();        // renegotiation, EOS drain, flushing
TCase* ElementTCase();       // device properties, state changes, pad templates

}  // namespace rgb2yuv_test
