// The "lumamax" element message, parsed field by field with the types the specification names.
#pragma once

#include <gst/gst.h>

#include <string>
#include <vector>

#include "common/analysis/message_header.h"

namespace lumamax_test {

struct Spot {
  int x = -1;
  int y = -1;
  double luma = -1;
};

// The times, source and text come from the header every analysis message shares.
struct LumamaxMessage : analysis_test::MessageHeader {
  Spot max;  // "x", "y", "luma"
  Spot min;  // "min-x", "min-y", "min-luma"
  double mean_luma = -1;
  std::vector<Spot> peaks;  // "peaks": array of "peak" structures
};

LumamaxMessage ParseLumamaxMessage(GstMessage* message);

// "(x,y luma) (x,y luma) ..." for at most `max_count` spots from index `first`, for failure
// messages (check truncates long ones, so lists of 64 peaks are shown in part).
std::string DescribeSpots(const std::vector<Spot>& spots, size_t first = 0, size_t max_count = 8);

}  // namespace lumamax_test
