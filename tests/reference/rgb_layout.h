// Where the channels sit inside one pixel of each packed RGB format, shared by the CPU
// references of every element that reads packed RGB.
#pragma once

#include <gst/video/video.h>

namespace reference {

// Byte positions of the channels inside one pixel of a packed RGB format; alpha is -1 for
// formats without alpha (RGB, BGR and the x formats, whose x byte is ignored).
struct RgbLayout {
  GstVideoFormat format;
  int bytes_per_pixel;
  int r;
  int g;
  int b;
  int a;
};

// The layout of RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB or xBGR; null for any other
// format.
const RgbLayout* FindRgbLayout(GstVideoFormat format);

}  // namespace reference
