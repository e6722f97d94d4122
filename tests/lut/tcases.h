// Test cases of the lut suite, one group per file; test_lut.cpp assembles them.
#pragma once

#include <gst/check/gstcheck.h>

namespace lut_test {

TCase* ElementTCase();  // pad templates, properties, bad files and no file at start
TCase* FfmpegTCase();  // .cube and HALD tables against ffmpeg's lut3d/lut1d/haldclut, every format and layout
TCase* TableTCase();   // identity tables, domains, intensity, GPUImage lookup PNGs, HALD CLUTs
TCase* FileTCase();    // what is not a regular file, oversized .cube files, lying PNG headers
TCase* LiveTCase();    // location, intensity and interpolation changes while playing; bad file then
TCase* DeepTCase();    // 10- and 16-bit RGB against the reference and ffmpeg's lut3d
TCase* PngKindTCase();  // png-kind: which a 512x512 PNG is, kinds that do not fit, changes while playing

}  // namespace lut_test
