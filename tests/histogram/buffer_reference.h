// The reference histograms of an input buffer, read exactly as the element must read it: every
// plane where its GstVideoMeta (or else the caps' default layout) puts it, across memory blocks.
#pragma once

#include <gst/video/video.h>

#include <optional>

#include "reference/histogram_ref.h"

namespace histogram_test {

// The reference analysis of `buffer` (laid out as `info`, or as its GstVideoMeta says).
std::optional<histogram_ref::Result> AnalyzeBuffer(GstBuffer* buffer, const GstVideoInfo& info,
                                                   const histogram_ref::Params& params);

}  // namespace histogram_test
