// CPU reference of the morph element, written from its specification: a plain 2-D loop over the
// mask for every pixel, pixels outside the frame left out, composite operations and iterations
// spelled out one erosion or dilation at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace morph_ref {

// Values as the element's enums and OpenCV's MORPH_* constants number them.
enum Operation { kErode, kDilate, kOpen, kClose, kGradient, kTophat, kBlackhat };
enum Shape { kRect, kCross, kEllipse };

struct MorphSpec {
  Operation operation = kDilate;
  Shape shape = kRect;
  int width = 3, height = 3;  // odd
  int iterations = 1;

  std::string Describe() const;  // "gradient ellipse 5x3 x2"
};

const char* OperationNick(Operation operation);
const char* ShapeNick(Shape shape);

// One channel of an image.
struct Channel {
  int width = 0, height = 0;
  std::vector<uint32_t> values;  // row-major
  uint32_t At(int x, int y) const { return values[size_t(y) * width + x]; }
};

// The mask, row-major, as the specification describes OpenCV's getStructuringElement: the
// rectangle; the centre row and column; or per row dy (from -r to r, r = height / 2) the columns
// within c * sqrt(1 - dy^2 / r^2) of the centre c = width / 2, rounded to nearest (half to even),
// a one-row ellipse being its centre pixel.
std::vector<uint8_t> Mask(Shape shape, int width, int height);

Channel Apply(const Channel& in, const MorphSpec& spec);

}  // namespace morph_ref
