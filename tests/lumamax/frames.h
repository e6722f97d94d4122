// Frames of any lumamax format, held in GStreamer's default layout and edited in luma terms:
// random content whose bytes the analysis must ignore (chroma, alpha, x, row padding) are random
// too, plus planted extremes whose positions the test knows.
#pragma once

#include <gst/video/video.h>

#include <cstdint>
#include <random>
#include <vector>

#include "common/analysis/test_frame.h"
#include "reference/lumamax_ref.h"

namespace lumamax_test {

// The frame type is element-independent (common/analysis); what follows edits it in luma terms.
using analysis_test::NewTestFrame;
using analysis_test::TestFrame;

// The reference's view of the frame's luma plane (in its default layout).
lumamax_ref::View ViewOf(const TestFrame& frame);

// Grey level `level` at (x, y): Y = level, or R = G = B = level. Its L is level * 65536 under
// every matrix, so planted values do not depend on the matrix property.
void SetGrey(TestFrame& frame, int x, int y, uint8_t level);

// R, G and B at (x, y) of an RGB frame (alpha/x bytes untouched).
void SetRgb(TestFrame& frame, int x, int y, uint8_t r, uint8_t g, uint8_t b);

// Every byte random; then the luma-carrying bytes (Y, or R, G and B) drawn from [low, high], so
// that planted values outside that range are the frame's unique extremes.
void FillRandom(TestFrame& frame, std::mt19937& rng, int low, int high);

struct Position {
  int x;
  int y;
};

// What PlantExtremes() put where (raster-first of each tie).
struct Planted {
  bool done = false;   // false when the frame has too few pixels to plant everything
  Position brightest;  // the first of two pixels of level 255
  Position darkest;    // the first of two pixels of level 0
};

// On a frame filled with FillRandom(low >= 6, high <= 249): at six distinct random positions,
// two pixels of level 255 (a tie the raster-first one must win), one of 250, two of 0 and one
// of 5. Frames of fewer than six pixels are left alone.
Planted PlantExtremes(TestFrame& frame, std::mt19937& rng);

// The usual test frame: FillRandom(16, 239), then PlantExtremes(), whose result goes to
// `planted` when given.
TestFrame RandomFrame(GstVideoFormat format, int width, int height, std::mt19937& rng,
                      Planted* planted = nullptr);

}  // namespace lumamax_test
